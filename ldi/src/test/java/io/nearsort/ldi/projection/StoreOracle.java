package io.nearsort.ldi.projection;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A table of random rows (a near-sorted LONG key, a skewed DOUBLE key, every column type) kept in memory, and
 * random range queries and aggregates on any {@link ColumnarStore} checked against a brute-force scan of it.
 */
public final class StoreOracle {
    public static final Schema SCHEMA = Schema.of(Column.longColumn("id"), Column.varString("note"),
            Column.doubleColumn("distance"), Column.fixedString("flag", 3), Column.longColumn("amount"));
    public static final List<Projection> PROJECTIONS = List.of(
            Projection.of("by_id", "id", "id", "note"),
            Projection.of("by_distance", "distance", "distance", "flag", "amount"));

    public final List<Object[]> rows = new ArrayList<>();

    /** A random row of {@link #SCHEMA} for position {@code position}: a near-sorted id, a skewed distance. */
    public static Object[] randomRow(final long position, final SplittableRandom rnd) {
        final long id = position + (rnd.nextInt(10) == 0 ? rnd.nextInt(200) - 100 : 0);
        return new Object[] {id, "n" + rnd.nextInt(1000) + "é".repeat(rnd.nextInt(3)),
            rnd.nextInt(20) == 0 ? -rnd.nextDouble() * 5 : rnd.nextDouble() * rnd.nextDouble() * 100,
            rnd.nextBoolean() ? "Y" : "N", (long) rnd.nextInt(10_000)};
    }

    public void appendRows(final ColumnarStore store, final int n, final SplittableRandom rnd) {
        for (int i = 0; i < n; i++) {
            final Object[] row = randomRow(rows.size(), rnd);
            assertEquals(rows.size(), store.append(row));
            rows.add(row);
        }
    }

    /** The rows as one column batch of {@link #SCHEMA}. */
    public static ColumnBatch batchOf(final List<Object[]> rows) {
        final int n = rows.size();
        final long[] id = new long[n];
        final String[] note = new String[n];
        final double[] distance = new double[n];
        final String[] flag = new String[n];
        final long[] amount = new long[n];
        for (int i = 0; i < n; i++) {
            final Object[] r = rows.get(i);
            id[i] = (Long) r[0];
            note[i] = (String) r[1];
            distance[i] = (Double) r[2];
            flag[i] = (String) r[3];
            amount[i] = (Long) r[4];
        }
        return ColumnBatch.wrap(SCHEMA, n, id, note, distance, flag, amount);
    }

    /** Appends {@code n} random rows as one column batch. */
    public void appendBatch(final ColumnStore store, final int n, final SplittableRandom rnd) {
        final List<Object[]> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batch.add(randomRow(rows.size() + i, rnd));
        }
        final long first = store.append(batchOf(batch));
        assertEquals(rows.size(), first);
        rows.addAll(batch);
        assertEquals(rows.size(), store.rows());
    }

    /** Rows of {@code by_id} with keys in {@code [lo, hi]}, as "id/row/note", in key then row order. */
    public List<String> expectedById(final long lo, final long hi) {
        final List<String> expected = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            final long id = (Long) rows.get(i)[0];
            if (id >= lo && id <= hi) {
                expected.add(id + "/" + i + "/" + rows.get(i)[1]);
            }
        }
        expected.sort(StoreOracle::byKeyThenRow);
        return expected;
    }

    /**
     * Random streaming scans of both projections against a brute-force scan: every row, in order, with its
     * columns; plus the streamed aggregates.
     */
    public void checkScans(final ColumnStore store, final SplittableRandom rnd, final int scans) throws IOException {
        for (int q = 0; q < scans; q++) {
            final long lo = rnd.nextInt(rows.size() + 100) - 50;
            final long hi = lo + rnd.nextInt(q % 4 == 0 ? rows.size() + 200 : 500);
            final List<String> got = new ArrayList<>();
            try (RowCursor c = store.scan("by_id", lo, hi, "note", "id")) {
                while (c.next()) {
                    assertEquals(c.key(), c.getLong(1));
                    got.add(c.getLong("id") + "/" + c.rowId() + "/" + c.getString(0));
                }
                assertTrue(!c.next());
            }
            assertEquals(expectedById(lo, hi), got, "scan by_id [" + lo + ", " + hi + "]");

            final double dlo = q % 5 == 0 ? -10 : rnd.nextDouble() * 100 - 5;
            final double dhi = q % 5 == 0 ? 200 : dlo + rnd.nextDouble() * 30;
            final List<String> expected = new ArrayList<>();
            long count = 0;
            long sum = 0;
            double min = Double.NaN;
            double max = Double.NaN;
            for (int i = 0; i < rows.size(); i++) {
                final double v = (Double) rows.get(i)[2];
                if (v >= dlo && v <= dhi) {
                    expected.add(KeyCodec.ofDouble(v) + "/" + i + "/" + rows.get(i)[3] + "/" + rows.get(i)[4]);
                    final long amount = (Long) rows.get(i)[4];
                    sum += amount;
                    min = count == 0 ? amount : Math.min(min, amount);
                    max = count == 0 ? amount : Math.max(max, amount);
                    count++;
                }
            }
            expected.sort(StoreOracle::byKeyThenRow);
            final List<String> streamed = new ArrayList<>();
            try (RowCursor c = store.scan("by_distance", dlo, dhi, "flag", "amount")) {
                while (c.next()) {
                    streamed.add(c.key() + "/" + c.rowId() + "/" + c.getString(0) + "/" + c.getLong(1));
                }
            }
            assertEquals(expected, streamed, "scan by_distance [" + dlo + ", " + dhi + "]");
            final Aggregate a = store.aggregate("by_distance", dlo, dhi, "amount");
            assertEquals(new Aggregate(count, sum, min, max), a);
        }
    }

    public void checkQueries(final ColumnarStore store, final SplittableRandom rnd, final int queries)
            throws IOException {
        for (int q = 0; q < queries; q++) {
            final long lo = rnd.nextInt(rows.size() + 100) - 50;
            final long hi = lo + rnd.nextInt(q % 5 == 0 ? 3000 : 60);
            final QueryResult r = store.query("by_id", lo, hi, "note", "id");
            final List<String> expected = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                final long id = (Long) rows.get(i)[0];
                if (id >= lo && id <= hi) {
                    expected.add(id + "/" + i + "/" + rows.get(i)[1]);
                }
            }
            expected.sort(StoreOracle::byKeyThenRow);
            final List<String> got = new ArrayList<>();
            for (int i = 0; i < r.size(); i++) {
                got.add(r.getLong(i, "id") + "/" + r.rowId(i) + "/" + r.getString(i, "note"));
            }
            assertEquals(expected, got, "by_id [" + lo + ", " + hi + "]");

            final double dlo = rnd.nextDouble() * 100 - 5;
            final double dhi = dlo + rnd.nextDouble() * (q % 7 == 0 ? 50 : 2);
            final QueryResult d = store.query("by_distance", dlo, dhi, "amount", "flag", "distance");
            long count = 0;
            double sum = 0;
            for (Object[] row : rows) {
                final double v = (Double) row[2];
                if (v >= dlo && v <= dhi) {
                    count++;
                    sum += (Long) row[4];
                }
            }
            assertEquals(count, d.size());
            double last = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < d.size(); i++) {
                final double v = d.getDouble(i, "distance");
                assertTrue(v >= dlo && v <= dhi && v >= last);
                last = v;
                final Object[] row = rows.get((int) d.rowId(i));
                assertEquals(row[3], d.getString(i, "flag"));
                assertEquals(row[4], d.getLong(i, "amount"));
            }
            final Aggregate a = store.aggregate("by_distance", dlo, dhi, "amount");
            assertEquals(count, a.count());
            assertEquals(sum, a.sum(), 1e-6);
        }
    }

    private static int byKeyThenRow(final String a, final String b) {
        final String[] x = a.split("/");
        final String[] y = b.split("/");
        final int c = Long.compare(Long.parseLong(x[0]), Long.parseLong(y[0]));
        return c != 0 ? c : Long.compare(Long.parseLong(x[1]), Long.parseLong(y[1]));
    }
}
