package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import io.nearsort.core.Indexes;
import io.nearsort.core.btree.BPlusTree;
import io.nearsort.core.testing.KLGrid;
import io.nearsort.core.testing.LongIndexOracle;
import io.nearsort.core.testing.LongIndexOracle.KeyPattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The SA B+-tree against {@link TreeMap}: random operations and generated workloads, many buffer shapes. */
class SortednessAwareIndexOracleTest {

    static Stream<Arguments> configurations() {
        final Concurrency multi = Concurrency.MULTI_WRITER;
        final Concurrency single = Concurrency.SINGLE_WRITER;
        final Concurrency thread = Concurrency.SINGLE_THREAD;
        final Concurrency pinned = Concurrency.PINNED_WRITER;
        return Stream.of(
                // concurrency, buffer, bloom bits, query-driven sort threshold, key pattern, seed, operations
                Arguments.of(multi, 1, 10, 0.1, KeyPattern.MIXED, 1L, 300_000),
                Arguments.of(multi, 7, 0, 0.0, KeyPattern.MIXED, 2L, 300_000),
                Arguments.of(multi, 100, 10, 0.1, KeyPattern.MIXED, 3L, 1_000_000),
                Arguments.of(multi, 1_000, 10, 0.1, KeyPattern.NEAR_SORTED, 4L, 1_000_000),
                Arguments.of(multi, 1_000, 0, 0.5, KeyPattern.DESCENDING, 5L, 500_000),
                Arguments.of(multi, 10_000, 10, 0.0, KeyPattern.NEAR_SORTED, 6L, 1_000_000),
                Arguments.of(multi, 10_000, 4, 0.02, KeyPattern.MIXED, 7L, 1_000_000),
                Arguments.of(multi, 100_000, 10, 0.1, KeyPattern.NEAR_SORTED, 8L, 1_000_000),
                // The lock-free single-writer path and the unsynchronised path, buffers of 1 to 10^5.
                Arguments.of(single, 1, 10, 0.1, KeyPattern.MIXED, 11L, 300_000),
                Arguments.of(single, 7, 0, 0.0, KeyPattern.MIXED, 12L, 300_000),
                Arguments.of(single, 100, 10, 0.1, KeyPattern.MIXED, 13L, 500_000),
                Arguments.of(single, 1_000, 10, 0.5, KeyPattern.NEAR_SORTED, 14L, 500_000),
                Arguments.of(single, 10_000, 4, 0.02, KeyPattern.DESCENDING, 15L, 500_000),
                Arguments.of(single, 100_000, 10, 0.1, KeyPattern.NEAR_SORTED, 16L, 500_000),
                // The pinned writer's point reads, which take no lock (it is the test's thread).
                Arguments.of(pinned, 1, 10, 0.1, KeyPattern.MIXED, 31L, 300_000),
                Arguments.of(pinned, 100, 10, 0.1, KeyPattern.MIXED, 33L, 500_000),
                Arguments.of(pinned, 10_000, 4, 0.02, KeyPattern.DESCENDING, 35L, 500_000),
                Arguments.of(pinned, 100_000, 10, 0.1, KeyPattern.NEAR_SORTED, 36L, 500_000),
                Arguments.of(thread, 1, 10, 0.1, KeyPattern.MIXED, 21L, 300_000),
                Arguments.of(thread, 7, 0, 0.0, KeyPattern.DESCENDING, 22L, 300_000),
                Arguments.of(thread, 100, 10, 0.1, KeyPattern.MIXED, 23L, 500_000),
                Arguments.of(thread, 1_000, 10, 0.1, KeyPattern.NEAR_SORTED, 24L, 500_000),
                Arguments.of(thread, 10_000, 4, 0.02, KeyPattern.MIXED, 25L, 500_000),
                Arguments.of(thread, 100_000, 10, 0.1, KeyPattern.NEAR_SORTED, 26L, 500_000));
    }

    @ParameterizedTest(name = "{0}, buffer {1}, bloom {2} bits, query sort {3}, {4} keys, seed {5}")
    @MethodSource("configurations")
    void agreesWithTreeMap(final Concurrency concurrency, final int bufferCapacity, final int bloomBits,
                           final double querySortThreshold, final KeyPattern pattern, final long seed,
                           final int operations) {
        final BPlusTree tree = Indexes.bPlusTree().pageSize(512).splitRatio(0.8).tailLeafInserts(true).build();
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(bufferCapacity)
                .bloomBitsPerEntry(bloomBits).queryDrivenSortThreshold(querySortThreshold).concurrency(concurrency)
                .over(tree)) {
            new LongIndexOracle(seed, pattern).sizeCheckEvery(bufferCapacity >= 10_000 ? 5_000 : 97)
                    .run(index, operations, () -> { });
        }
        assertEquals(0, tree.bytesInUse(), "bytesInUse after close");
    }

    /**
     * The OSM-tree §5 grid and scrambled, with a buffer of 1% of n, ingested then deleted in part; the three
     * concurrency modes take turns over the grid's cells.
     */
    static Stream<Arguments> grid() {
        final Concurrency[] modes = Concurrency.values();
        final int[] cell = {0};
        final Stream<Arguments> cells = KLGrid.cells().filter(c -> c[2] == 0)
                .map(c -> Arguments.of(c[0], c[1], false, modes[cell[0]++ % modes.length]));
        return Stream.concat(cells, Arrays.stream(modes).map(mode -> Arguments.of(0.0, 0.0, true, mode)));
    }

    @ParameterizedTest(name = "K={0}% L={1}% scrambled={2} {3}")
    @MethodSource("grid")
    void generatedWorkloadsAcrossTheGrid(final double k, final double l, final boolean scrambled,
                                         final Concurrency concurrency) {
        final int n = 50_000;
        final long[] keys = KLGrid.keys(n, k, l, scrambled, 3, 17);
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(n / 100).pageSize(1024)
                .concurrency(concurrency).build()) {
            final TreeMap<Long, Long> oracle = KLGrid.ingestOverwriteAndDelete(index, keys);
            index.flush();
            assertEquals(oracle, index.asNavigableMap());
            assertEquals(0, index.stats().counter("bufferEntries"));
        }
    }
}
