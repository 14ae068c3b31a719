package io.nearsort.core.betree;

import io.nearsort.core.Concurrency;
import io.nearsort.core.Indexes;
import io.nearsort.core.sware.SortednessAwareIndex;
import io.nearsort.core.testing.KLGrid;
import io.nearsort.core.testing.LongIndexOracle;
import io.nearsort.core.testing.LongIndexOracle.KeyPattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The SA Bε-tree against {@link TreeMap}: the SWARE buffer of 1 to 10^4 entries over Bε-trees of 512-byte nodes
 * (buffers of 22 messages, flushing at every level), in the three concurrency modes; and the K/L grid.
 */
class SaBeTreeOracleTest {

    static Stream<Arguments> configurations() {
        final Concurrency multi = Concurrency.MULTI_WRITER;
        final Concurrency single = Concurrency.SINGLE_WRITER;
        final Concurrency thread = Concurrency.SINGLE_THREAD;
        return Stream.of(
                // concurrency, SWARE buffer, key pattern, seed, operations
                Arguments.of(multi, 1, KeyPattern.MIXED, 1L, 150_000),
                Arguments.of(multi, 100, KeyPattern.MIXED, 2L, 250_000),
                Arguments.of(multi, 1_000, KeyPattern.NEAR_SORTED, 3L, 250_000),
                Arguments.of(single, 7, KeyPattern.DESCENDING, 4L, 150_000),
                Arguments.of(single, 1_000, KeyPattern.NEAR_SORTED, 5L, 200_000),
                Arguments.of(thread, 100, KeyPattern.MIXED, 6L, 150_000),
                Arguments.of(thread, 10_000, KeyPattern.NEAR_SORTED, 7L, 200_000));
    }

    @ParameterizedTest(name = "{0}, buffer {1}, {2} keys, seed {3}")
    @MethodSource("configurations")
    void agreesWithTreeMap(final Concurrency concurrency, final int bufferCapacity, final KeyPattern pattern,
                           final long seed, final int operations) {
        final BeTree tree = Indexes.beTree().pageSize(512).splitRatio(0.8).build();
        try (SortednessAwareIndex index = Indexes.saBeTree().bufferCapacity(bufferCapacity).concurrency(concurrency)
                .over(tree)) {
            new LongIndexOracle(seed, pattern).sizeCheckEvery(bufferCapacity >= 1_000 ? 5_000 : 97)
                    .run(index, operations, () -> BeTreeValidator.check(tree));
        }
        assertEquals(0, tree.bytesInUse(), "bytesInUse after close");
    }

    /** The OSM-tree §5 grid and scrambled, with a buffer of 1% of n, ingested then deleted in part. */
    static Stream<Arguments> grid() {
        return KLGrid.cells().map(c -> Arguments.of(c[0], c[1], c[2] != 0));
    }

    @ParameterizedTest(name = "K={0}% L={1}% scrambled={2}")
    @MethodSource("grid")
    void generatedWorkloadsAcrossTheGrid(final double k, final double l, final boolean scrambled) {
        final int n = 30_000;
        try (SortednessAwareIndex index = Indexes.saBeTree().bufferCapacity(n / 100).pageSize(512).build()) {
            final TreeMap<Long, Long> oracle = KLGrid.ingestOverwriteAndDelete(index, KLGrid.keys(n, k, l, scrambled,
                    3, 17));
            index.flush();
            assertEquals(oracle, index.asNavigableMap());
        }
    }

    /**
     * Long runs: 10^7 operations per key pattern, a buffer of 1,000 entries over 512-byte nodes, so that each run
     * goes through thousands of flush cycles and node flushes at every level:
     * {@code ./mvnw -B -ntp -pl core test -Dnearsort.excludedGroups=none -Dgroups=slow -Dtest=SaBeTreeOracleTest}.
     */
    @Tag("slow")
    @Test
    void tenMillionOperations() {
        for (final KeyPattern pattern : KeyPattern.values()) {
            final BeTree tree = Indexes.beTree().pageSize(512).splitRatio(0.8).build();
            try (SortednessAwareIndex index = Indexes.saBeTree().bufferCapacity(1_000)
                    .concurrency(Concurrency.SINGLE_WRITER).over(tree)) {
                new LongIndexOracle(41, pattern).sizeCheckEvery(1_009).batchLookupsEvery(1_009).run(index, 10_000_000,
                        () -> BeTreeValidator.check(tree));
            }
            assertEquals(0, tree.bytesInUse(), "bytesInUse after close");
        }
    }
}
