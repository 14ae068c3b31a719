package io.nearsort.ldi.projection;

import io.nearsort.ldi.commit.CommitPoint;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 22's scale run for LDI: {@value #PROPERTY} (default 10^8) rows appended to a {@link ColumnStore} of
 * {@link StoreOracle}'s table (a near-sorted LONG key projection, a skewed and drifting DOUBLE key projection), in
 * column batches of up to 16,384 rows and now and then row by row, with range queries, streamed scans and
 * aggregates checked against a model as they go. The model is the rows themselves: every column of row r is a
 * function of r (a hash), except the distance, kept in a {@code double[]}; an id lies within 100 of its row number
 * (a few rows carry the extreme longs instead), so the rows of an id range are found in a window of the row
 * numbers, and a distance range is checked by a scan of the whole array.
 *
 * <p>A commit every hundredth of the rows (10^6 by default; its row count and metadata checked), the store closed
 * and reopened every quarter, background maintenance and reclamation on (16 MiB segments), and before each close
 * the space of sealed segments a tenth dead reclaimed on demand. A distance range is checked every 1/400th of the
 * rows. Every tenth of the rows and after each reopen, aggregates over all keys of both projections (every bucket
 * read once) are compared with the model's totals. Before each close and after the last reopen the whole content
 * of both projections is compared: a scan over all keys must return every row exactly once, with its columns, in
 * key order (equal keys by row id). Such a scan costs more than the appends (the cursor sorts its window on every
 * pass: 0.8 to 1.4 million rows a second here), hence only four of them.
 *
 * <p>Left out of the default build ({@code slow} tag); run with
 *
 * <pre>
 * ./mvnw -B -ntp -pl ldi -am test -Dnearsort.excludedGroups=none -Dgroups=slow -Dtest=ColumnStoreScaleTest \
 *     -Dnearsort.testHeap=4g -Dsurefire.failIfNoSpecifiedTests=false [-Dnearsort.scale.operations=100000000]
 * </pre>
 *
 * (10^8 rows take 5.4 GB in the temporary directory; the distance array 800 MB of heap; about 15 minutes on a
 * 2-core VM).
 */
@Tag("slow")
class ColumnStoreScaleTest {
    static final String PROPERTY = "nearsort.scale.operations";
    static final long SEED = 22;
    /** How far an id may lie from its row number. */
    static final int SPREAD = 100;
    static final long[] EDGE_IDS = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L, 0L, 1L, Long.MAX_VALUE - 1,
        Long.MAX_VALUE};
    static final double[] EDGE_DISTANCES = {-0.0, 0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE,
        -Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
    static final ColumnStoreOptions OPTIONS = ColumnStoreOptions.builder().segmentBytes(16L << 20).build();
    static final double RECLAIM_DEAD_FRACTION = 0.1;

    @TempDir
    Path dir;

    private double[] distance;
    private long rows;
    /** Rows whose id is an edge long, in row order. */
    private final List<Long> edgeRows = new ArrayList<>();
    private final SplittableRandom random = new SplittableRandom(SEED);
    private long queries;
    private long maintenanceRuns;
    private long bucketsMerged;
    private long bucketsMoved;
    private long segmentsDeleted;
    /** Segments {@link ColumnStore#reclaim} took on demand. */
    private long reclaimed;

    // ---- the model: row r's columns ----

    /** Stafford's mix 13 (SplittableRandom's): row r's hash. */
    static long hash(final long r) {
        long z = (r + (SEED << 40)) * 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    /** One row in 2^20 has an edge id. */
    static boolean edgeId(final long r) {
        return (hash(r) & 0xF_FFFF) == 0;
    }

    /** Near-sorted: the row number, one row in ten moved by up to {@value #SPREAD}; a few edge longs. */
    static long id(final long r) {
        final long h = hash(r);
        if ((h & 0xF_FFFF) == 0) {
            return EDGE_IDS[(int) ((h >>> 20) & 0xFF) % EDGE_IDS.length];
        }
        return (h >>> 24) % 10 == 0 ? r + (h >>> 32) % (2 * SPREAD + 1) - SPREAD : r;
    }

    static String note(final long r) {
        final long h = hash(r) >>> 8;
        return "n" + h % 1000 + "é".repeat((int) ((h >>> 16) % 3));
    }

    static String flag(final long r) {
        return ((hash(r) >>> 40) & 1) == 0 ? "Y" : "N";
    }

    static long amount(final long r) {
        return (hash(r) >>> 41) % 10_000;
    }

    /**
     * A skewed distance (u·v·100, one in twenty negative) or one near a hot spot that drifts across [0, 100) every
     * 2^26 rows (the learned intervals must split where it is and merge behind it); one row in 2^17 an edge double.
     */
    static double newDistance(final long r) {
        final long h = hash(~r);
        final double u = (h >>> 11) * 0x1.0p-53;
        final double v = (hash(h) >>> 11) * 0x1.0p-53;
        if ((h & 0x1_FFFF) == 0) {
            return EDGE_DISTANCES[(int) (v * EDGE_DISTANCES.length)];
        }
        if ((h & 0x100) == 0) {
            return (h & 0x3E00) == 0 ? -u * 5 : u * v * 100;
        }
        final double hotSpot = (r & ((1L << 26) - 1)) * (100.0 / (1L << 26));
        return hotSpot + (u - 0.5) * (v < 0.9 ? 0.5 : 10);
    }

    @Test
    void agreesWithItsRowsAtScale() throws IOException {
        final long operations = Long.parseLong(System.getProperty(PROPERTY, "100000000"));
        if (operations > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(PROPERTY + " must be below 2^31 (one double per row in an array)");
        }
        distance = new double[(int) operations];
        final long start = System.nanoTime();
        final long commitEvery = Math.max(1, operations / 100);
        final long reopenEvery = Math.max(1, operations / 4);
        final long checkEvery = Math.max(1, operations / 10);
        // Each distance check scans the whole model.
        final long distanceCheckEvery = Math.max(1, operations / 400);
        long nextCommit = commitEvery;
        long nextReopen = reopenEvery;
        long nextCheck = checkEvery;
        long nextDistanceCheck = distanceCheckEvery;
        int opens = 0;
        final ColumnBatch batch = ColumnBatch.allocate(StoreOracle.SCHEMA, 1 << 14);
        while (rows < operations) {
            opens++;
            try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, OPTIONS)) {
                assertEquals(rows, store.rows(), "rows after reopening");
                if (rows > 0) {
                    final CommitPoint last = store.lastCommit().orElseThrow();
                    assertEquals(rows, last.rows());
                    assertEquals(Map.of("rows", Long.toString(rows)), last.metadata());
                    assertTotals(store, "after reopening at " + rows + " rows");
                }
                while (rows < operations && rows < nextReopen) {
                    append(store, batch, (int) Math.min(operations - rows, 1 + random.nextInt(1 << 14)));
                    checkIds(store);
                    if (rows >= nextDistanceCheck) {
                        checkDistances(store);
                        nextDistanceCheck = (rows / distanceCheckEvery + 1) * distanceCheckEvery;
                    }
                    if (rows >= nextCommit) {
                        final CommitPoint point = store.flush(Map.of("rows", Long.toString(rows)));
                        assertEquals(rows, point.rows());
                        nextCommit = (rows / commitEvery + 1) * commitEvery;
                    }
                    if (rows >= nextCheck) {
                        final long t = System.nanoTime();
                        assertTotals(store, "after " + rows + " rows");
                        nextCheck = (rows / checkEvery + 1) * checkEvery;
                        System.out.printf("scale: LDI column store: %,d rows, %,d queries, %s; totals checked in %.0f"
                                        + " s; %.0f s%n", rows, queries, summary(store), (System.nanoTime() - t) / 1e9,
                                (System.nanoTime() - start) / 1e9);
                    }
                }
                if (rows < operations) {
                    // Background reclamation waits for sealed segments half dead, which merges of a few percent of
                    // the buckets do not make: reclaim those a tenth dead on demand, then check what it moved.
                    for (final Projection p : StoreOracle.PROJECTIONS) {
                        final ReclaimReport report = store.reclaim(p.name(), RECLAIM_DEAD_FRACTION);
                        reclaimed += report.segments();
                    }
                    final long t = System.nanoTime();
                    assertSameContent(store, "after " + rows + " rows, before closing");
                    System.out.printf("scale: LDI column store: %,d rows scanned in both projections in %.0f s%n", rows,
                            (System.nanoTime() - t) / 1e9);
                    // Closing commits with the last commit's metadata: commit first, so that it names the rows.
                    store.flush(Map.of("rows", Long.toString(rows)));
                    nextReopen = (rows / reopenEvery + 1) * reopenEvery;
                }
                count(store);
            }
        }
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, OPTIONS)) {
            assertEquals(rows, store.rows(), "rows after the last reopen");
            final long t = System.nanoTime();
            assertTotals(store, "at the end, after reopening");
            assertSameContent(store, "at the end, after reopening");
            System.out.printf("scale: LDI column store: %,d rows scanned in both projections in %.0f s%n", rows,
                    (System.nanoTime() - t) / 1e9);
            count(store);
            System.out.printf("scale: LDI column store: %,d rows appended agree with the model (%,d queries, %d"
                            + " opens, %,d bytes on disk; %s; over all opens: %,d maintenance runs merging %,d"
                            + " buckets, %,d segments reclaimed on demand, %,d buckets moved by reclamation, %,d"
                            + " segments deleted) in %.0f s%n", rows, queries, opens + 1, bytesOnDisk(), summary(store),
                    maintenanceRuns, bucketsMerged, reclaimed, bucketsMoved, segmentsDeleted,
                    (System.nanoTime() - start) / 1e9);
        }
    }

    /** The buckets of each projection now, and how many are not compacted. */
    private static String summary(final ColumnStore store) {
        final StringBuilder s = new StringBuilder();
        for (final Map.Entry<String, ProjectionStats> e : store.stats().projections().entrySet()) {
            s.append(s.length() == 0 ? "" : ", ").append(e.getKey()).append(String.format(": %,d buckets (%,d"
                    + " non-compacted) in %d segments, %,d dead bytes", e.getValue().buckets(),
                    e.getValue().nonCompacted(), e.getValue().segments(), e.getValue().deadBytes()));
        }
        return s.toString();
    }

    /** Adds the counters of the store's maintenance and reclamation since it was opened to the run's. */
    private void count(final ColumnStore store) {
        for (final ProjectionStats p : store.stats().projections().values()) {
            maintenanceRuns += p.maintenanceRuns();
            bucketsMerged += p.bucketsMerged();
            bucketsMoved += p.bucketsMoved();
            segmentsDeleted += p.segmentsDeleted();
        }
    }

    private long bytesOnDisk() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            long sum = 0;
            for (final Path f : (Iterable<Path>) files::iterator) {
                sum += Files.size(f);
            }
            return sum;
        }
    }

    /** Up to {@code n} rows: one column batch, or (one time in fifty) up to 50 rows one at a time. */
    private void append(final ColumnStore store, final ColumnBatch batch, final int n) {
        if (random.nextInt(50) == 0) {
            final int single = Math.min(n, 1 + random.nextInt(50));
            for (int i = 0; i < single; i++) {
                final long r = rows;
                distance[(int) r] = newDistance(r);
                assertEquals(r, store.append(id(r), note(r), distance[(int) r], flag(r), amount(r)));
                added(r);
            }
            return;
        }
        final long[] ids = batch.longs("id");
        final String[] notes = batch.strings("note");
        final double[] distances = batch.doubles("distance");
        final String[] flags = batch.strings("flag");
        final long[] amounts = batch.longs("amount");
        for (int i = 0; i < n; i++) {
            final long r = rows + i;
            ids[i] = id(r);
            notes[i] = note(r);
            distances[i] = newDistance(r);
            distance[(int) r] = distances[i];
            flags[i] = flag(r);
            amounts[i] = amount(r);
        }
        assertEquals(rows, store.append(batch.rows(n)));
        for (int i = 0; i < n; i++) {
            added(rows);
        }
    }

    private void added(final long r) {
        if (edgeId(r)) {
            edgeRows.add(r);
        }
        rows = r + 1;
    }

    // ---- checks ----

    /** Rows of ids [lo, hi] in key then row order, as {id, row}, from the window of row numbers they can be in. */
    private List<long[]> expectedIds(final long lo, final long hi) {
        final List<long[]> expected = new ArrayList<>();
        if (lo <= hi) {
            final long from = Math.max(0, lo > Long.MIN_VALUE + SPREAD ? lo - SPREAD : 0);
            final long to = Math.min(rows - 1, hi < Long.MAX_VALUE - SPREAD ? hi + SPREAD : rows - 1);
            for (long r = from; r <= to; r++) {
                final long id = id(r);
                if (!edgeId(r) && id >= lo && id <= hi) {
                    expected.add(new long[] {id, r});
                }
            }
            for (final long r : edgeRows) {
                final long id = id(r);
                if (id >= lo && id <= hi) {
                    expected.add(new long[] {id, r});
                }
            }
        }
        expected.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        return expected;
    }

    /** After every append: an id range materialised, one streamed, an aggregate; near the newest rows or anywhere. */
    private void checkIds(final ColumnStore store) throws IOException {
        for (int q = 0; q < 3; q++) {
            queries++;
            final long lo;
            final int dice = random.nextInt(100);
            if (dice < 2) {
                lo = EDGE_IDS[random.nextInt(EDGE_IDS.length)] - random.nextInt(3);
            } else if (dice < 50) {
                lo = rows - random.nextInt(20_000);
            } else {
                lo = random.nextLong(rows + 2L * SPREAD) - SPREAD;
            }
            final long span = random.nextInt(5) == 0 ? random.nextInt(3_000) : random.nextInt(60);
            // Inverted now and then (not at the bottom of the longs, where lo - 1 would wrap to a range of all rows).
            final long hi = random.nextInt(50) == 0 && lo > Long.MIN_VALUE + 10 ? lo - 1 - random.nextInt(10)
                    : lo + span < lo ? Long.MAX_VALUE : lo + span;
            final List<long[]> expected = expectedIds(lo, hi);
            final String what = "ids [" + lo + ", " + hi + "] at " + rows + " rows";
            if (q == 0) {
                final QueryResult result = store.query("by_id", lo, hi, "note", "id");
                assertEquals(expected.size(), result.size(), () -> "rows of " + what);
                for (int i = 0; i < result.size(); i++) {
                    final long r = expected.get(i)[1];
                    if (result.rowId(i) != r || result.getLong(i, "id") != expected.get(i)[0]
                            || !note(r).equals(result.getString(i, "note"))) {
                        fail("row #" + i + " of " + what + " is " + result.rowId(i) + ": " + result.getLong(i, "id")
                                + ", " + result.getString(i, "note") + "; expected " + r + ": " + id(r) + ", "
                                + note(r));
                    }
                }
            } else if (q == 1) {
                int i = 0;
                try (RowCursor c = store.scan("by_id", lo, hi, "id", "note")) {
                    while (c.next()) {
                        if (i == expected.size()) {
                            fail("more than the " + i + " rows of " + what + ": " + c.rowId());
                        }
                        final long r = expected.get(i)[1];
                        if (c.rowId() != r || c.key() != id(r) || c.getLong(0) != id(r)
                                || !note(r).equals(c.getString(1))) {
                            fail("row #" + i + " of the scan of " + what + " is " + c.rowId() + ": " + c.key() + ", "
                                    + c.getLong(0) + ", " + c.getString(1) + "; expected " + r + ": " + id(r) + ", "
                                    + note(r));
                        }
                        i++;
                    }
                }
                assertEquals(expected.size(), i, () -> "rows of the scan of " + what);
            } else {
                final Expected ids = new Expected();
                for (final long[] e : expected) {
                    ids.add(e[0]);
                }
                ids.assertMatches(store.aggregate("by_id", lo, hi, "id"), "aggregate of " + what);
            }
        }
    }

    /**
     * The count, sum, min and max {@link Aggregate} gives over a LONG column's values, added one at a time. The sum is
     * exact unless the long sum overflows (ids near the extreme longs): then, as {@link Aggregate} says, it is a
     * double whose rounding depends on the order the rows were added in, and is compared to a relative 10^-12.
     */
    private static final class Expected {
        private long count;
        private long sum;
        private boolean overflowed;
        private double doubleSum;
        private long min = Long.MAX_VALUE;
        private long max = Long.MIN_VALUE;

        void add(final long v) {
            final long s = sum + v;
            if (!overflowed && ((sum ^ s) & (v ^ s)) < 0) {
                overflowed = true;
                doubleSum = (double) sum;
            }
            if (overflowed) {
                doubleSum += v;
            } else {
                sum = s;
            }
            min = Math.min(min, v);
            max = Math.max(max, v);
            count++;
        }

        void assertMatches(final Aggregate actual, final String what) {
            assertEquals(count, actual.count(), () -> "count, " + what);
            if (count == 0) {
                assertEquals(new Aggregate(0, 0, Double.NaN, Double.NaN), actual, what);
                return;
            }
            assertEquals((double) min, actual.min(), () -> "min, " + what);
            assertEquals((double) max, actual.max(), () -> "max, " + what);
            if (overflowed) {
                assertEquals(doubleSum, actual.sum(), Math.abs(doubleSum) * 1e-12, () -> "sum, " + what);
            } else {
                assertEquals((double) sum, actual.sum(), () -> "sum, " + what);
            }
        }
    }

    /**
     * Aggregates over (almost) every key of both projections, streamed over every bucket once, against the model:
     * count, sum, min and max of the ids between the extreme longs (where the sum cannot overflow) and of the
     * amounts over every distance.
     */
    private void assertTotals(final ColumnStore store, final String when) throws IOException {
        final Expected ids = new Expected();
        final Expected amounts = new Expected();
        for (long r = 0; r < rows; r++) {
            final long id = id(r);
            if (id >= Long.MIN_VALUE + 2 && id <= Long.MAX_VALUE - 2) {
                ids.add(id);
            }
            amounts.add(amount(r));
        }
        ids.assertMatches(store.aggregate("by_id", Long.MIN_VALUE + 2, Long.MAX_VALUE - 2, "id"),
                "ids over all keys but the extremes " + when);
        amounts.assertMatches(store.aggregate("by_distance", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                "amount"), "amounts over all distances " + when);
    }

    /**
     * A narrow distance range materialised and streamed, a wide one aggregated, all three checked against one scan of
     * the whole model.
     */
    private void checkDistances(final ColumnStore store) throws IOException {
        queries += 3;
        final double lo = random.nextInt(20) == 0 ? EDGE_DISTANCES[random.nextInt(EDGE_DISTANCES.length)]
                : random.nextDouble() * 107 - 6;
        final double hi = lo + random.nextDouble() * (random.nextBoolean() ? 0.002 : 0.02);
        final double wideLo = random.nextDouble() * 100 - 6;
        final double wideHi = random.nextInt(10) == 0 ? Double.POSITIVE_INFINITY : wideLo + random.nextDouble() * 50;
        final long klo = KeyCodec.ofDouble(lo);
        final long khi = KeyCodec.ofDouble(hi);
        final long wklo = KeyCodec.ofDouble(wideLo);
        final long wkhi = KeyCodec.ofDouble(wideHi);
        final List<long[]> expected = new ArrayList<>();
        final Expected amounts = new Expected();
        for (int r = 0; r < rows; r++) {
            final long k = KeyCodec.ofDouble(distance[r]);
            if (k >= klo && k <= khi) {
                expected.add(new long[] {k, r});
            }
            if (k >= wklo && k <= wkhi) {
                amounts.add(amount(r));
            }
        }
        expected.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        final String what = "distances [" + lo + ", " + hi + "] at " + rows + " rows";
        final QueryResult result = store.query("by_distance", lo, hi, "amount", "flag", "distance");
        assertEquals(expected.size(), result.size(), () -> "rows of " + what);
        for (int i = 0; i < result.size(); i++) {
            final int r = (int) expected.get(i)[1];
            if (result.rowId(i) != r || Double.compare(result.getDouble(i, "distance"), distance[r]) != 0
                    || !flag(r).equals(result.getString(i, "flag")) || result.getLong(i, "amount") != amount(r)) {
                fail("row #" + i + " of " + what + " is " + result.rowId(i) + ": " + result.getDouble(i, "distance")
                        + ", " + result.getString(i, "flag") + ", " + result.getLong(i, "amount") + "; expected " + r
                        + ": " + distance[r] + ", " + flag(r) + ", " + amount(r));
            }
        }
        int i = 0;
        try (RowCursor c = store.scan("by_distance", lo, hi, "distance", "flag", "amount")) {
            while (c.next()) {
                if (i == expected.size()) {
                    fail("more than the " + i + " rows of the scan of " + what + ": " + c.rowId());
                }
                final int r = (int) expected.get(i)[1];
                if (c.rowId() != r || c.key() != expected.get(i)[0] || Double.compare(c.getDouble(0), distance[r]) != 0
                        || !flag(r).equals(c.getString(1)) || c.getLong(2) != amount(r)) {
                    fail("row #" + i + " of the scan of " + what + " is " + c.rowId() + ": " + c.getDouble(0) + ", "
                            + c.getString(1) + ", " + c.getLong(2) + "; expected " + r + ": " + distance[r] + ", "
                            + flag(r) + ", " + amount(r));
                }
                i++;
            }
        }
        assertEquals(expected.size(), i, () -> "rows of the scan of " + what);
        amounts.assertMatches(store.aggregate("by_distance", wideLo, wideHi, "amount"),
                "aggregate of amounts over distances [" + wideLo + ", " + wideHi + "] at " + rows + " rows");
    }

    /**
     * Both projections scanned over every key: each row exactly once, with its columns, keys ascending (equal keys
     * by row id), as many rows as appended.
     */
    private void assertSameContent(final ColumnStore store, final String when) throws IOException {
        final BitSet seen = new BitSet((int) rows);
        long n = 0;
        long lastKey = Long.MIN_VALUE;
        long lastRow = -1;
        try (RowCursor c = store.scanOrdered("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "id", "note")) {
            while (c.next()) {
                final long r = c.rowId();
                if (r < 0 || r >= rows || seen.get((int) r)) {
                    fail("by_id scan " + when + ": row " + r + " (#" + n + ") " + (r < 0 || r >= rows
                            ? "was never appended" : "came twice"));
                }
                seen.set((int) r);
                final long key = c.key();
                if (key != id(r) || c.getLong(0) != key || !note(r).equals(c.getString(1))
                        || key < lastKey || key == lastKey && r < lastRow) {
                    fail("by_id scan " + when + ": row " + r + " (#" + n + ") has " + key + ", " + c.getLong(0) + ", "
                            + c.getString(1) + " after " + lastKey + "/" + lastRow + "; expected " + id(r) + ", "
                            + note(r));
                }
                lastKey = key;
                lastRow = r;
                n++;
            }
        }
        assertEquals(rows, n, () -> "rows of the by_id scan " + when);
        seen.clear();
        n = 0;
        lastKey = Long.MIN_VALUE;
        lastRow = -1;
        try (RowCursor c = store.scanOrdered("by_distance", Long.MIN_VALUE, Long.MAX_VALUE, "distance", "flag",
                "amount")) {
            while (c.next()) {
                final long r = c.rowId();
                if (r < 0 || r >= rows || seen.get((int) r)) {
                    fail("by_distance scan " + when + ": row " + r + " (#" + n + ") " + (r < 0 || r >= rows
                            ? "was never appended" : "came twice"));
                }
                seen.set((int) r);
                final long key = c.key();
                final double d = distance[(int) r];
                if (key != KeyCodec.ofDouble(d) || Double.compare(c.getDouble(0), d) != 0
                        || !flag(r).equals(c.getString(1)) || c.getLong(2) != amount(r)
                        || key < lastKey || key == lastKey && r < lastRow) {
                    fail("by_distance scan " + when + ": row " + r + " (#" + n + ") has " + key + ", " + c.getDouble(0)
                            + ", " + c.getString(1) + ", " + c.getLong(2) + " after " + lastKey + "/" + lastRow
                            + "; expected " + KeyCodec.ofDouble(d) + ", " + d + ", " + flag(r) + ", " + amount(r));
                }
                lastKey = key;
                lastRow = r;
                n++;
            }
        }
        assertEquals(rows, n, () -> "rows of the by_distance scan " + when);
    }
}
