package io.nearsort.core.betree;

import io.nearsort.core.Indexes;
import io.nearsort.core.testing.KLGrid;
import io.nearsort.core.testing.LongIndexOracle;
import io.nearsort.core.testing.LongIndexOracle.KeyPattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Bε-tree against {@link TreeMap}: seeded random operations (puts, deletes, point and range reads, edge keys)
 * on tiny nodes, whose buffers of 22 messages flush at every level of a tree of four or five levels, and on the
 * default 4 KiB nodes; bulk appends interleaved with them; the K/L grid.
 */
class BeTreeOracleTest {

    static Stream<Arguments> configurations() {
        return Stream.of(
                // page size, split ratio, epsilon, key pattern, seed, operations
                Arguments.of(512, 0.5, 0.5, KeyPattern.MIXED, 1L, 300_000),
                Arguments.of(512, 0.8, 0.5, KeyPattern.NEAR_SORTED, 2L, 250_000),
                Arguments.of(512, 0.95, 0.5, KeyPattern.DESCENDING, 3L, 150_000),
                Arguments.of(512, 0.5, 0.2, KeyPattern.MIXED, 4L, 150_000),
                Arguments.of(1024, 0.7, 0.8, KeyPattern.NEAR_SORTED, 5L, 150_000),
                Arguments.of(4096, 0.5, 0.5, KeyPattern.MIXED, 6L, 250_000),
                Arguments.of(4096, 0.8, 0.5, KeyPattern.NEAR_SORTED, 7L, 150_000));
    }

    @ParameterizedTest(name = "page {0}, split {1}, epsilon {2}, {3} keys, seed {4}")
    @MethodSource("configurations")
    void agreesWithTreeMap(final int pageSize, final double splitRatio, final double epsilon,
                           final KeyPattern pattern, final long seed, final int operations) {
        final BeTree tree = Indexes.beTree().pageSize(pageSize).splitRatio(splitRatio).epsilon(epsilon).build();
        try (tree) {
            new LongIndexOracle(seed, pattern).sizeCheckEvery(101).run(tree, operations,
                    () -> BeTreeValidator.check(tree));
            assertTrue(tree.stats().height() >= 3, "the tree grew to several levels: " + tree.stats());
            assertTrue(tree.stats().counter(BeTree.NODE_FLUSHES_LEVEL + 2) > 0, "buffers flushed above level 1");
        }
        assertEquals(0, tree.bytesInUse());
        assertEquals(0, tree.bytesAllocated());
    }

    /**
     * Ascending runs ({@code putAscending}, the path of the SA flush's top-inserts) interleaved with random
     * operations, through small and large buffers and a root that starts as a leaf.
     */
    @ParameterizedTest(name = "ascending runs, page {0}, epsilon {1}, {2} keys, seed {3}")
    @CsvSource({"512, 0.5, MIXED, 31", "512, 0.8, NEAR_SORTED, 32", "1024, 0.3, DESCENDING, 33",
        "4096, 0.5, MIXED, 34"})
    void ascendingRunsInterleavedWithUpdates(final int pageSize, final double epsilon, final KeyPattern pattern,
                                             final long seed) {
        final BeTree tree = Indexes.beTree().pageSize(pageSize).epsilon(epsilon).build();
        try (tree) {
            new LongIndexOracle(seed, pattern).sizeCheckEvery(37).runWithAscendingPuts(tree, 300, 3_000, 1_000,
                    () -> BeTreeValidator.check(tree));
        }
        assertEquals(0, tree.bytesInUse());
    }

    @ParameterizedTest(name = "bulk appends interleaved with random operations, seed {0}")
    @MethodSource("seeds")
    void bulkAppendInterleavedWithUpdates(final long seed) {
        try (BeTree tree = Indexes.beTree().pageSize(512).splitRatio(0.8).bulkFillFactor(0.9).build()) {
            new LongIndexOracle(seed, KeyPattern.MIXED).sizeCheckEvery(37).runWithBulkAppends(tree, 60, 2_000,
                    () -> BeTreeValidator.check(tree));
        }
    }

    /**
     * Deleting the largest keys leaves deletes buffered above the new largest key: a run appended next must not
     * meet them (its keys that might go in as messages), nor fall into a leaf left of the right-most one.
     */
    @Test
    void bulkAppendAfterDeletingTheLargestKeys() {
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        try (BeTree tree = Indexes.beTree().pageSize(512).build()) {
            for (long key = 0; key < 5_000; key++) {
                tree.put(key * 10, key);
                oracle.put(key * 10, key);
            }
            for (long key = 4_999; key >= 2_000; key--) {
                tree.remove(key * 10);
                oracle.remove(key * 10);
            }
            assertEquals(19_990, tree.lastKey());
            final long[] keys = new long[6_000];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = 20_000 + 5L * i; // revisits deleted keys, then goes past every key ever written
                oracle.put(keys[i], ~keys[i]);
            }
            final long[] values = Arrays.stream(keys).map(k -> ~k).toArray();
            tree.bulkAppend(keys, values, 0, keys.length);
            BeTreeValidator.check(tree);
            assertEquals(oracle, tree.asNavigableMap());
            assertTrue(tree.stats().bulkLoadedEntries() > 0, tree.stats().toString());
            assertEquals(5_000 + 6_000 - tree.stats().bulkLoadedEntries(), tree.stats().topInserts());
        }
    }

    /** The OSM-tree §5 grid, plus scrambled: ingested, a third deleted, read back. */
    static Stream<Arguments> grid() {
        return KLGrid.cells().map(c -> Arguments.of(c[0], c[1], c[2] != 0));
    }

    @ParameterizedTest(name = "K={0}% L={1}% scrambled={2}")
    @MethodSource("grid")
    void generatedWorkloadsAcrossTheGrid(final double k, final double l, final boolean scrambled) {
        final long[] keys = KLGrid.keys(20_000, k, l, scrambled, 5, 99);
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        for (final long key : keys) {
            oracle.put(key, ~key);
        }
        for (final double ratio : new double[] {0.5, 0.8}) {
            try (BeTree tree = Indexes.beTree().pageSize(1024).splitRatio(ratio).build()) {
                for (final long key : keys) {
                    tree.put(key, ~key);
                }
                BeTreeValidator.check(tree);
                assertEquals(oracle, tree.asNavigableMap());
                for (int i = 0; i < keys.length; i += 3) {
                    tree.remove(keys[i]);
                }
                BeTreeValidator.check(tree);
                assertEquals(keys.length - (keys.length + 2) / 3, tree.size());
                for (int i = 0; i < keys.length; i += 7) {
                    assertEquals(i % 3 == 0 ? -1 : ~keys[i], tree.getOrDefault(keys[i], -1));
                }
            }
        }
    }

    /**
     * Long runs on tiny nodes:
     * {@code ./mvnw -B -ntp -pl core test -Dnearsort.excludedGroups=none -Dgroups=slow -Dtest=BeTreeOracleTest}.
     */
    @Tag("slow")
    @Test
    void tenMillionOperations() {
        for (final KeyPattern pattern : KeyPattern.values()) {
            final BeTree tree = Indexes.beTree().pageSize(512).splitRatio(0.8).build();
            try (tree) {
                new LongIndexOracle(31, pattern).sizeCheckEvery(1_009).batchLookupsEvery(1_009).run(tree, 10_000_000,
                        () -> BeTreeValidator.check(tree));
            }
        }
    }

    static Stream<Long> seeds() {
        return Stream.of(11L, 12L);
    }
}
