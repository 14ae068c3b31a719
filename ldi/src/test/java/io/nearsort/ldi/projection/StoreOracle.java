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

    public void appendRows(final ColumnarStore store, final int n, final SplittableRandom rnd) {
        for (int i = 0; i < n; i++) {
            final long id = rows.size() + (rnd.nextInt(10) == 0 ? rnd.nextInt(200) - 100 : 0);
            final Object[] row = {id, "n" + rnd.nextInt(1000) + "é".repeat(rnd.nextInt(3)),
                rnd.nextInt(20) == 0 ? -rnd.nextDouble() * 5 : rnd.nextDouble() * rnd.nextDouble() * 100,
                rnd.nextBoolean() ? "Y" : "N", (long) rnd.nextInt(10_000)};
            assertEquals(rows.size(), store.append(row));
            rows.add(row);
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
