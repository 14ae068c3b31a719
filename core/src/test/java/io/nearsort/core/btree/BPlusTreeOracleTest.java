package io.nearsort.core.btree;

import io.nearsort.core.Indexes;
import io.nearsort.core.testing.KLGrid;
import io.nearsort.core.testing.LongIndexOracle;
import io.nearsort.core.testing.LongIndexOracle.KeyPattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** 10^6 seeded random operations per configuration, checked against {@link java.util.TreeMap}. */
class BPlusTreeOracleTest {
    private static final int OPERATIONS = 1_000_000;

    static Stream<Arguments> configurations() {
        return Stream.of(
                Arguments.of(512, 0.5, false, KeyPattern.MIXED, 1L),
                Arguments.of(512, 0.8, true, KeyPattern.MIXED, 2L),
                Arguments.of(512, 0.95, true, KeyPattern.NEAR_SORTED, 3L),
                Arguments.of(512, 0.5, true, KeyPattern.DESCENDING, 4L),
                Arguments.of(1024, 0.7, false, KeyPattern.NEAR_SORTED, 5L),
                Arguments.of(4096, 0.5, false, KeyPattern.MIXED, 6L),
                Arguments.of(4096, 0.8, true, KeyPattern.NEAR_SORTED, 7L),
                Arguments.of(65536, 0.6, true, KeyPattern.MIXED, 8L));
    }

    @ParameterizedTest(name = "page {0}, split {1}, tail inserts {2}, {3} keys, seed {4}")
    @MethodSource("configurations")
    void agreesWithTreeMap(final int pageSize, final double splitRatio, final boolean tailInserts,
                           final KeyPattern pattern, final long seed) {
        final BPlusTree tree = Indexes.bPlusTree().pageSize(pageSize).splitRatio(splitRatio)
                .tailLeafInserts(tailInserts).build();
        try (tree) {
            new LongIndexOracle(seed, pattern).run(tree, OPERATIONS, () -> TreeValidator.check(tree));
        }
        assertEquals(0, tree.bytesInUse());
        assertEquals(0, tree.bytesAllocated());
    }

    @ParameterizedTest(name = "bulk appends interleaved with random operations, seed {0}")
    @MethodSource("seeds")
    void bulkAppendInterleavedWithUpdates(final long seed) {
        try (BPlusTree tree = Indexes.bPlusTree().pageSize(512).splitRatio(0.8).tailLeafInserts(true)
                .bulkFillFactor(0.9).build()) {
            new LongIndexOracle(seed, KeyPattern.MIXED).runWithBulkAppends(tree, 200, 2_000,
                    () -> TreeValidator.check(tree));
        }
    }

    /**
     * Ascending runs ({@code putAscending}, the SA flush's top-inserts) interleaved with random operations, with and
     * without tail-leaf inserts and reads beside the writer: the finger's leaf, its fence and the splits it meets.
     */
    @ParameterizedTest(name = "ascending runs, tail inserts {0}, concurrent reads {1}, {2} keys, seed {3}")
    @MethodSource("ascendingRunConfigurations")
    void ascendingRunsInterleavedWithUpdates(final boolean tailInserts, final boolean concurrentReads,
                                             final KeyPattern pattern, final long seed) {
        final BPlusTree tree = Indexes.bPlusTree().pageSize(512).splitRatio(0.7).tailLeafInserts(tailInserts)
                .concurrentReads(concurrentReads).build();
        try (tree) {
            new LongIndexOracle(seed, pattern).runWithAscendingPuts(tree, 300, 2_000, 1_000,
                    () -> TreeValidator.check(tree));
            assertTrue(tree.stats().counter(BPlusTree.FINGER_INSERTS) > 0, "the finger was never used");
        }
        assertEquals(0, tree.bytesInUse());
    }

    static Stream<Arguments> ascendingRunConfigurations() {
        return Stream.of(
                Arguments.of(false, false, KeyPattern.MIXED, 21L),
                Arguments.of(true, false, KeyPattern.NEAR_SORTED, 22L),
                Arguments.of(true, true, KeyPattern.MIXED, 23L),
                Arguments.of(false, true, KeyPattern.DESCENDING, 24L));
    }

    /** The OSM-tree §5 grid, plus scrambled, through every ingestion path. */
    static Stream<Arguments> grid() {
        return KLGrid.cells().map(c -> Arguments.of(c[0], c[1], c[2] != 0));
    }

    @ParameterizedTest(name = "K={0}% L={1}% scrambled={2}")
    @MethodSource("grid")
    void generatedWorkloadsAcrossTheGrid(final double k, final double l, final boolean scrambled) {
        final long[] keys = KLGrid.keys(30_000, k, l, scrambled, 5, 99);
        final java.util.TreeMap<Long, Long> oracle = new java.util.TreeMap<>();
        for (final long key : keys) {
            oracle.put(key, ~key);
        }
        for (final double ratio : new double[] {0.5, 0.8}) {
            for (final boolean tail : new boolean[] {false, true}) {
                try (BPlusTree tree = Indexes.bPlusTree().pageSize(1024).splitRatio(ratio).tailLeafInserts(tail)
                        .build()) {
                    for (final long key : keys) {
                        tree.put(key, ~key);
                    }
                    TreeValidator.check(tree);
                    assertEquals(oracle, tree.asNavigableMap());
                    for (int i = 0; i < keys.length; i += 3) {
                        tree.remove(keys[i]);
                    }
                    TreeValidator.check(tree);
                    assertEquals(keys.length - (keys.length + 2) / 3, tree.size());
                }
            }
        }
    }

    static Stream<Long> seeds() {
        return Stream.of(11L, 12L, 13L);
    }
}
