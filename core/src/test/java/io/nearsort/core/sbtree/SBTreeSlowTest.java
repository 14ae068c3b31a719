package io.nearsort.core.sbtree;

import io.nearsort.core.Indexes;
import io.nearsort.core.testing.LongIndexOracle;
import io.nearsort.core.testing.LongIndexOracle.KeyPattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The long randomized runs, left out of the default build ({@code slow} tag). Run them with
 *
 * <pre>
 * mvn -B -ntp -pl core test -Dnearsort.excludedGroups=none -Dgroups=slow -Dtest=SBTreeSlowTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * (about ten minutes on two cores).
 */
@Tag("slow")
class SBTreeSlowTest {

    @ParameterizedTest(name = "{0} keys, 3M operations per configuration")
    @ValueSource(strings = {"MIXED", "NEAR_SORTED", "DESCENDING"})
    void longOracleRuns(final String pattern) {
        final int[][] configurations = {{512, 1, 2}, {512, 4, 8}, {1024, 2, 16}, {4096, 32, 8}, {65536, 8, 64}};
        long seed = 1000;
        for (final int[] c : configurations) {
            final SBTree tree = Indexes.sbTree().blockSize(c[0]).maxPerThreadBlocks(c[1]).searchTableBucketSize(c[2])
                    .build();
            try (tree) {
                new LongIndexOracle(seed++, KeyPattern.valueOf(pattern)).sizeCheckEvery(1001).batchLookupsEvery(1_009)
                        .run(tree, 3_000_000, () -> SBTreeValidator.check(tree));
            }
            assertEquals(0, tree.bytesInUse());
        }
    }

    /** The concurrency tests of the default run, repeated ten times with other seeds (round 0: the default's). */
    @Test
    void concurrencyTestsManyTimes() throws Exception {
        for (int round = 0; round < 10; round++) {
            everyConcurrencyTest(round * 1_000_003L);
        }
    }

    /** Every test of {@link SBTreeConcurrencyTest} once, its seeds moved by {@code seedOffset}. */
    private static void everyConcurrencyTest(final long seedOffset) throws Exception {
        final SBTreeConcurrencyTest tests = new SBTreeConcurrencyTest();
        tests.seedOffset = seedOffset;
        for (final int maxBlocks : new int[] {1, 3, 16}) {
            tests.perThreadKeySpaces(maxBlocks);
        }
        tests.sharedKeysLatestWriteWins(512);
        tests.sharedKeysLatestWriteWins(4096);
        tests.aCompletedWriteIsVisibleToEveryThread();
        tests.scansAreWeaklyConsistent();
        for (final int delayed : new int[] {0, 10, 50}) {
            tests.timeSeriesIngestedByManyThreads(delayed);
        }
        tests.retentionDeletesWhileIngesting();
    }

    /**
     * The concurrency tests, repeated with new seeds for {@code nearsort.soak.minutes} minutes (default 10; issue
     * 22's soak of every concurrent structure's multi-threaded oracle tests). Run it alone with
     * {@code -Dtest=SBTreeSlowTest#soak}.
     */
    @Test
    void soak() throws Exception {
        final long end = System.nanoTime()
                + (long) (Double.parseDouble(System.getProperty("nearsort.soak.minutes", "10")) * 60e9);
        int rounds = 0;
        while (System.nanoTime() < end) {
            everyConcurrencyTest(7_000_001L * ++rounds);
        }
        System.out.println("soak: SB-Tree concurrency tests: " + rounds + " rounds, every one agreeing with its oracles");
    }

    /** close() racing writers, readers and scans, 200 times. */
    @Test
    void closeRacingEveryOperation() throws Exception {
        final SBTreeLifecycleTest tests = new SBTreeLifecycleTest();
        for (int round = 0; round < 40; round++) {
            tests.closeWhileThreadsWork();
        }
    }

    /** The time-series stream with 10% and half of it delayed, 3M operations each against the oracle. */
    @Test
    void longTimeSeries() {
        SBTreeOracleTest.timeSeries(10, 3_000_000);
        SBTreeOracleTest.timeSeries(50, 3_000_000);
    }
}
