package io.nearsort.ldi.projection;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Column-wise batch appends, mixed with row appends, against a brute-force scan: live, after flush, after reopen. */
class BatchAppendTest {
    static final ColumnStoreOptions OPTIONS = ColumnStoreTest.OPTIONS;

    @TempDir
    Path dir;

    private final StoreOracle oracle = new StoreOracle();

    @Test
    void batchesAndRowsMatchBruteForce() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(21);
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, OPTIONS)) {
            oracle.appendBatch(store, 0, rnd);                 // an empty batch appends nothing
            assertEquals(0, store.rows());
            oracle.appendBatch(store, 1, rnd);
            oracle.appendBatch(store, 700, rnd);               // still within the training prefix
            oracle.checkQueries(store, rnd, 20);
            for (int i = 0; i < 25; i++) {
                if (rnd.nextBoolean()) {
                    oracle.appendBatch(store, rnd.nextInt(2500), rnd);
                } else {
                    oracle.appendRows(store, rnd.nextInt(300), rnd);
                }
            }
            oracle.checkQueries(store, rnd, 40);
            oracle.checkScans(store, rnd, 10);
            store.flush();
            oracle.checkQueries(store, rnd, 20);
        }
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, OPTIONS)) {
            assertEquals(oracle.rows.size(), store.rows());
            oracle.checkQueries(store, rnd, 30);
            oracle.appendBatch(store, 4000, rnd);              // row ids continue after reopening
            oracle.checkScans(store, rnd, 10);
        }
    }

    @Test
    void aBatchIsCheckedWholeBeforeAnyRowIsAppended() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(22);
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, OPTIONS)) {
            oracle.appendBatch(store, 100, rnd);
            final List<Object[]> bad = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                bad.add(StoreOracle.randomRow(100 + i, rnd));
            }
            bad.get(37)[2] = Double.NaN;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> store.append(StoreOracle.batchOf(bad)));
            assertTrue(e.getMessage().contains("row 37") && e.getMessage().contains("distance"), e.getMessage());
            bad.get(37)[2] = 1.0;
            bad.get(12)[3] = "TOOLONG";
            e = assertThrows(IllegalArgumentException.class, () -> store.append(StoreOracle.batchOf(bad)));
            assertTrue(e.getMessage().contains("row 12") && e.getMessage().contains("flag"), e.getMessage());
            bad.get(12)[3] = "Y";
            bad.get(49)[1] = null;
            e = assertThrows(IllegalArgumentException.class, () -> store.append(StoreOracle.batchOf(bad)));
            assertTrue(e.getMessage().contains("row 49") && e.getMessage().contains("note"), e.getMessage());
            assertEquals(100, store.rows(), "a rejected batch appends nothing");
            oracle.checkQueries(store, rnd, 10);

            final Schema other = Schema.of(Column.longColumn("id"));
            e = assertThrows(IllegalArgumentException.class,
                    () -> store.append(ColumnBatch.wrap(other, 1, new long[] {1})));
            assertTrue(e.getMessage().contains("schema"), e.getMessage());
        }
    }

    @Test
    void batchesValidateTheirShape() {
        final Schema schema = StoreOracle.SCHEMA;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ColumnBatch.wrap(schema, 2,
                new long[2], new String[2], new long[2], new String[2], new long[2]));
        assertTrue(e.getMessage().contains("distance") && e.getMessage().contains("double[]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ColumnBatch.wrap(schema, 3,
                new long[3], new String[3], new double[2], new String[3], new long[3]));
        assertTrue(e.getMessage().contains("distance") && e.getMessage().contains("2 values"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ColumnBatch.wrap(schema, 1, new long[1]));
        assertTrue(e.getMessage().contains("one array per column"), e.getMessage());
        final ColumnBatch b = ColumnBatch.allocate(schema, 8);
        assertEquals(8, b.capacity());
        assertThrows(IllegalArgumentException.class, () -> b.rows(9));
        assertThrows(IllegalArgumentException.class, () -> b.rows(-1));
        assertThrows(IllegalArgumentException.class, () -> b.longs("distance"));
        assertThrows(IllegalArgumentException.class, () -> b.doubles("id"));
        assertThrows(IllegalArgumentException.class, () -> b.strings("amount"));
        assertThrows(IllegalArgumentException.class, () -> b.longs("nope"));
        assertThrows(IllegalArgumentException.class, () -> ColumnBatch.allocate(schema, -1));
        b.longs("id")[0] = 5;
        assertEquals(5, ((long[]) b.column(0))[0]);
    }

    @Test
    void extremeAndDuplicateKeysInBatches() throws IOException {
        final Schema schema = Schema.of(Column.longColumn("k"), Column.doubleColumn("d"), Column.varString("s"));
        final List<Projection> ps = List.of(Projection.of("by_k", "k", "k", "s"), Projection.of("by_d", "d", "d"));
        final int n = 3000;
        final long[] k = new long[n];
        final double[] d = new double[n];
        final String[] s = new String[n];
        final SplittableRandom rnd = new SplittableRandom(23);
        for (int i = 0; i < n; i++) {
            k[i] = switch (i % 7) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                case 2 -> 0;
                default -> rnd.nextLong();
            };
            d[i] = switch (i % 5) {
                case 0 -> -0.0;
                case 1 -> Double.NEGATIVE_INFINITY;
                case 2 -> Double.MAX_VALUE;
                default -> rnd.nextDouble() - 0.5;
            };
            s[i] = i % 11 == 0 ? "" : "v" + i;
        }
        try (ColumnStore store = ColumnStore.open(dir, schema, ps, OPTIONS)) {
            store.append(ColumnBatch.wrap(schema, n, k, d, s));
            for (int pass = 0; pass < 2; pass++) {
                assertEquals(n / 7 + (n % 7 > 0 ? 1 : 0), store.query("by_k", Long.MIN_VALUE, Long.MIN_VALUE, "k")
                        .size());
                assertEquals(n, store.query("by_k", Long.MIN_VALUE, Long.MAX_VALUE, "s").size());
                long expectedRow = -1;
                long last = Long.MIN_VALUE;
                int seen = 0;
                try (RowCursor c = store.scan("by_k", Long.MAX_VALUE, Long.MAX_VALUE, "k", "s")) {
                    while (c.next()) {
                        assertEquals(Long.MAX_VALUE, c.getLong(0));
                        assertTrue(c.rowId() > expectedRow, "equal keys come by row id");
                        expectedRow = c.rowId();
                        assertEquals(s[(int) c.rowId()], c.getString(1));
                        seen++;
                    }
                }
                assertEquals((n + 5) / 7, seen);
                seen = 0;
                try (RowCursor c = store.scan("by_d", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, "d")) {
                    while (c.next()) {
                        assertTrue(c.key() >= last);
                        last = c.key();
                        assertEquals(d[(int) c.rowId()], c.getDouble(0), 0.0);
                        seen++;
                    }
                }
                assertEquals(n, seen);
                assertEquals(0, store.query("by_d", 1.0, 0.0, "d").size(), "an inverted range is empty");
                try (RowCursor c = store.scan("by_d", 1.0, 0.0, "d")) {
                    assertTrue(!c.next());
                }
                store.flush();
            }
        }
    }
}
