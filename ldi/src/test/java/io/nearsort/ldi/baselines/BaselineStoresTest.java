package io.nearsort.ldi.baselines;

import io.nearsort.ldi.projection.Column;
import io.nearsort.ldi.projection.ColumnarStore;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.QueryResult;
import io.nearsort.ldi.projection.Schema;
import io.nearsort.ldi.projection.StoreOracle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The on-disk LSM-like and Sorted_Col stores: brute-force oracle queries, and the I/O the LSM model predicts. */
class BaselineStoresTest {
    @TempDir
    Path dir;

    private void oracle(final ColumnarStore store, final int seed) throws IOException {
        final StoreOracle oracle = new StoreOracle();
        final SplittableRandom rnd = new SplittableRandom(seed);
        oracle.appendRows(store, 300, rnd);
        oracle.checkQueries(store, rnd, 20);       // only the buffer
        oracle.appendRows(store, 9_000, rnd);
        oracle.checkQueries(store, rnd, 40);       // runs and the buffer
        store.flush();
        oracle.checkQueries(store, rnd, 30);
        oracle.appendRows(store, 3_000, rnd);      // loading again after the clustering step
        store.flush();
        oracle.checkQueries(store, rnd, 30);
    }

    @Test
    void leveledLsmAnswersLikeABruteForceScan() throws IOException {
        try (LsmColumnStore store = new LsmColumnStore(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                MergePolicy.LEVELED, 256, 3, 64)) {
            oracle(store, 21);
            assertTrue(store.levels("by_id") >= 3);
            assertEquals(store.levelCounters("by_id").tuplesRead(), store.stats("by_id").tuplesRead());
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count(), "close deletes the run files");
        }
    }

    @Test
    void tieredLsmAnswersLikeABruteForceScan() throws IOException {
        try (LsmColumnStore store = new LsmColumnStore(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                MergePolicy.TIERED, 256, 4, 64)) {
            oracle(store, 22);
            assertTrue(store.stats("by_distance").liveRuns() > 1);
        }
    }

    @Test
    void sortedColAnswersLikeABruteForceScanAndIsOneRunAfterFlush() throws IOException {
        try (SortedColumnStore store = new SortedColumnStore(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                512, 64)) {
            oracle(store, 23);
            final BaselineStats s = store.stats("by_id");
            assertEquals(1, s.liveRuns());
            // 12,300 rows: 24 buffer runs written and merged at the first flush, then 5 more and a second merge.
            assertEquals(9_300 / 512 + 1 + 3_000 / 512 + 1, s.runsWritten());
            assertEquals(9_300 / 512 * 512L + 9_300 + 3_000 / 512 * 512L, s.tuplesRead());
        }
    }

    /** The disk store writes and reads exactly the tuples the in-memory model counts (Table 1's example too). */
    @Test
    void diskLsmDoesTheIoTheModelCounts() throws IOException {
        final Schema schema = Schema.of(Column.longColumn("k"), Column.longColumn("v"));
        final List<Projection> one = List.of(Projection.of("p", "k", "k", "v"));
        for (MergePolicy policy : MergePolicy.values()) {
            for (int[] bt : new int[][] {{4, 3}, {2, 2}, {5, 4}}) {
                final SplittableRandom rnd = new SplittableRandom(bt[0] * 31L + bt[1]);
                final int n = 2_000 + rnd.nextInt(500);
                final long[] keys = new long[n];
                for (int i = 0; i < n; i++) {
                    keys[i] = i < LsmRunsTest.D.length ? LsmRunsTest.D[i] : rnd.nextLong(1000);
                }
                final LsmRuns model = new LsmRuns(policy, bt[0], bt[1]);
                final Path sub = dir.resolve(policy + "-" + bt[0] + "-" + bt[1]);
                try (LsmColumnStore store = new LsmColumnStore(sub, schema, one, policy, bt[0], bt[1], 3)) {
                    for (int i = 0; i < n; i++) {
                        model.add(keys[i], i);
                        store.append(keys[i], (long) i);
                    }
                    final LevelCounters expected = model.total();
                    assertEquals(expected, store.levelCounters("p"), policy + " B=" + bt[0] + " T=" + bt[1]);
                    assertEquals(expected.tuplesRead(), store.stats("p").tuplesRead(), "tuples actually read");
                    assertEquals(expected.tuplesWritten(), store.stats("p").tuplesWritten(), "tuples written");
                    final QueryResult all = store.query("p", Long.MIN_VALUE, Long.MAX_VALUE, "k");
                    assertEquals(n, all.size());
                    int runs = 0;
                    for (int level = 1; level <= model.levels(); level++) {
                        runs += model.runs(level).size();
                    }
                    assertEquals(runs, store.stats("p").liveRuns());
                }
            }
        }
    }

    @Test
    void badArgumentsAreRejected() throws IOException {
        Files.writeString(dir.resolve("other"), "x");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SortedColumnStore(
                dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, 16, 4));
        assertTrue(e.getMessage().contains("not empty"), e.getMessage());
        final Path empty = dir.resolve("empty");
        assertThrows(IllegalArgumentException.class, () -> new LsmColumnStore(empty, StoreOracle.SCHEMA,
                StoreOracle.PROJECTIONS, MergePolicy.LEVELED, 0, 3, 4));
        assertThrows(IllegalArgumentException.class, () -> new LsmColumnStore(empty, StoreOracle.SCHEMA,
                StoreOracle.PROJECTIONS, MergePolicy.LEVELED, 8, 1, 4));
        final SortedColumnStore s = new SortedColumnStore(empty, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, 8, 4);
        s.close();
        assertThrows(IllegalStateException.class, () -> s.append(1L, "x", 1.0, "Y", 5L));
        assertArrayEquals(new String[0], empty.toFile().list());
    }
}
