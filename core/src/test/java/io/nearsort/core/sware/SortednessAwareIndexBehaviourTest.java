package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import io.nearsort.core.IndexStats;
import io.nearsort.core.Indexes;
import io.nearsort.core.btree.BPlusTree;
import io.nearsort.core.sortedness.KLGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.ConcurrentModificationException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The behaviour SWARE §IV and §V describe, through the index's statistics. */
class SortednessAwareIndexBehaviourTest {
    /** 512-byte pages: 30 entries per leaf, 28 at the 95% bulk fill factor, so zones hold 28 entries. */
    private static final int ZONE = 28;

    private static SortednessAwareIndex smallZones(final int bufferCapacity) {
        return Indexes.saBPlusTree().pageSize(512).bufferCapacity(bufferCapacity).build();
    }

    private static long lastSortedZone(final SortednessAwareIndex index) {
        return index.stats().counter("lastSortedZone");
    }

    /**
     * §IV-C: each flush sorts the buffer's new entries with the (K,L)-adaptive sort when K or L is small, with the
     * stable (radix) sort otherwise. K is counted per append; L is estimated from the entries only when K does not
     * decide, as late events (every key a little late: K near 100%) need.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"K=5% L=5%, adaptive", "late events D=0.02%, adaptive",
        "late events D=2%, stable", "scrambled, stable"})
    void eachFlushSortsWithTheAlgorithmTheStreamsKAndLPick(final String stream, final String expected) {
        // Flushes sort about 25,000 new entries: L below 5% of that is about 5 zones of 241 entries. Late events
        // by up to 200 positions are displaced by a zone or two; by up to 20,000, by the walk's 64 zones.
        final int n = 1_000_000;
        final KLGenerator generator = KLGenerator.workload(n).seed(5);
        final long[] keys = switch (stream) {
            case "K=5% L=5%" -> generator.kPercent(5).lPercent(5).generate();
            case "late events D=0.02%" -> generator.lateEvents(0.02).generate();
            case "late events D=2%" -> generator.lateEvents(2).generate();
            default -> generator.scrambled(true).generate();
        };
        for (final Concurrency concurrency : new Concurrency[] {Concurrency.MULTI_WRITER, Concurrency.SINGLE_WRITER}) {
            try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(50_000).concurrency(concurrency)
                    .build()) {
                for (final long key : keys) {
                    index.put(key, key);
                }
                // stats() is a read: it may sort the unsorted section for queries first (one more sort).
                final IndexStats stats = index.stats();
                final long flushes = stats.counter("bufferFlushes");
                final long adaptive = stats.counter(SwareCounters.KL_SORTS);
                final long stable = stats.counter(SwareCounters.RADIX_SORTS) + stats.counter(SwareCounters.MERGE_SORTS);
                assertTrue(flushes >= 15, stats::toString);
                assertEquals(0, stats.counter(SwareCounters.KL_FALLBACKS), stats::toString);
                if (expected.equals("adaptive")) {
                    assertTrue(adaptive >= flushes, stats::toString);
                } else {
                    assertTrue(stable >= flushes, stats::toString);
                    assertEquals(0, adaptive, stats::toString);
                }
                assertEquals(Arrays.stream(keys).distinct().count(), index.size());
            }
        }
    }

    /**
     * The adaptive flush fraction ({@link FlushRetention}) against the paper's fixed half, 1M keys one {@code put}
     * each, buffer 10,000. At K=5%/L=5% displaced keys come back from five buffers away, further than any kept part
     * reaches: the cycles keep less, flush about half as often, and top-insert about as many keys. At K=20%/L=1%
     * the kept half absorbs them: it stays, and the cycles are the fixed share's.
     */
    @ParameterizedTest(name = "K={0}% L={1}%")
    @CsvSource({"5, 5, true", "20, 1, false"})
    void eachFlushKeepsWhatLateEntriesUse(final double k, final double l, final boolean keepsLess) {
        final long[] keys = KLGenerator.workload(1_000_000).seed(5).kPercent(k).lPercent(l).generate();
        for (final Concurrency concurrency : new Concurrency[] {Concurrency.MULTI_WRITER, Concurrency.SINGLE_WRITER}) {
            final IndexStats[] runs = fixedThenAdaptive(keys, concurrency);
            final IndexStats fixed = runs[0];
            final IndexStats adaptive = runs[1];
            final String both = "fixed: " + fixed + "\nadaptive: " + adaptive;
            assertEquals(0, fixed.counter(SwareCounters.KEPT_SHRINKS), both);
            if (keepsLess) {
                assertTrue(adaptive.counter(SwareCounters.KEPT_SHRINKS) >= 2, both);
                assertTrue(adaptive.counter(SwareCounters.KEPT_ENTRIES) <= fixed.counter(SwareCounters.KEPT_ENTRIES) / 4,
                        both);
                assertTrue(adaptive.counter(SwareCounters.BUFFER_FLUSHES)
                        < 0.6 * fixed.counter(SwareCounters.BUFFER_FLUSHES), both);
                assertTrue(adaptive.topInserts() < 1.15 * fixed.topInserts(), both);
            } else {
                assertEquals(0, adaptive.counter(SwareCounters.KEPT_SHRINKS), both);
                assertEquals(fixed.counter(SwareCounters.BUFFER_FLUSHES),
                        adaptive.counter(SwareCounters.BUFFER_FLUSHES), both);
                assertEquals(fixed.topInserts(), adaptive.topInserts(), both);
            }
            assertEquals(fixed.size(), adaptive.size(), both);
        }
    }

    /**
     * Keys that arrive early (K = 5%, L = 50% of 1M: some keys arrive up to 500,000 positions ahead) wait in the
     * buffer until the stream reaches them. Flushed with the fixed half, they become the tree's largest keys, and
     * the in-order keys that follow are top-inserts: 615,817 of 1M. Adaptive cycles flush nothing above the
     * stream's frontier: 24,851.
     */
    @Test
    void keysThatArriveEarlyWaitForTheStream() {
        final long[] keys = KLGenerator.workload(1_000_000).seed(42).kPercent(5).lPercent(50).generate();
        for (final Concurrency concurrency : new Concurrency[] {Concurrency.MULTI_WRITER, Concurrency.SINGLE_WRITER}) {
            final IndexStats[] runs = fixedThenAdaptive(keys, concurrency);
            final String both = "fixed: " + runs[0] + "\nadaptive: " + runs[1];
            assertTrue(runs[0].topInserts() > 500_000, both);
            assertTrue(runs[1].topInserts() < runs[0].topInserts() / 10, both);
        }
    }

    /**
     * The statistics after {@code keys} are written one {@code put} each into SA B+-trees with a buffer of 10,000
     * built for {@code concurrency}: keeping the fixed half, then with the adaptive share.
     */
    private static IndexStats[] fixedThenAdaptive(final long[] keys, final Concurrency concurrency) {
        final SortednessAwareIndexBuilder fixed = Indexes.saBPlusTree().bufferCapacity(10_000)
                .concurrency(concurrency).adaptiveFlushFraction(false);
        final SortednessAwareIndexBuilder adaptive = Indexes.saBPlusTree().bufferCapacity(10_000)
                .concurrency(concurrency);
        return new IndexStats[] {ingest(keys, fixed), ingest(keys, adaptive)};
    }

    /** Writes {@code keys} one {@code put} each into the index {@code builder} builds; returns its statistics. */
    private static IndexStats ingest(final long[] keys, final SortednessAwareIndexBuilder builder) {
        try (SortednessAwareIndex index = builder.build()) {
            for (final long key : keys) {
                index.put(key, key);
            }
            assertEquals(Arrays.stream(keys).distinct().count(), index.size());
            return index.stats();
        }
    }

    @Test
    void sortedInputIsIngestedEntirelyByBulkLoading() {
        final int n = 500_000;
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(n / 100).build()) {
            for (long key = 1; key <= n; key++) {
                index.put(key, -key);
            }
            index.flush();
            final IndexStats stats = index.stats();
            assertEquals(n, stats.bulkLoadedEntries());
            assertEquals(0, stats.topInserts());
            assertEquals(0, stats.tailLeafInserts());
            assertEquals(0, stats.leafSplits());
            assertTrue(stats.averageLeafFill() > 0.94, "fill " + stats.averageLeafFill());
            assertEquals(n, index.size());
            assertEquals(-777, index.getOrDefault(777, 0));
        }
    }

    @Test
    void nearSortedInputIsMostlyBulkLoaded() {
        // SWARE §V: at K=10%, L=5% with a buffer of 1% of the data, only ~4% of entries are top-inserted.
        final int n = 1_000_000;
        final long[] keys = KLGenerator.generate(n, 10, 5, 1);
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(n / 100).build()) {
            for (final long key : keys) {
                index.put(key, key);
            }
            index.flush();
            final IndexStats stats = index.stats();
            final double topInserted = (double) stats.topInserts() / n;
            assertTrue(topInserted < 0.06, "top-inserted fraction " + topInserted);
            assertTrue(stats.bulkLoadedEntries() > 0.9 * n, stats.toString());
            assertTrue(stats.counter(SwareCounters.KL_SORTS) > stats.counter(SwareCounters.MERGE_SORTS),
                    "near-sorted buffers are sorted with the (K,L)-adaptive sort: " + stats);
            assertEquals(n, index.size());
        }
    }

    @Test
    void scrambledInputFallsBackToTopInserts() {
        final int n = 300_000;
        final long[] keys = KLGenerator.workload(n).scrambled(true).seed(2).generate();
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(n / 100).build()) {
            for (final long key : keys) {
                index.put(key, key);
            }
            index.flush();
            final IndexStats stats = index.stats();
            assertTrue(stats.topInserts() > 0.9 * n, stats.toString());
            assertTrue(stats.counter(SwareCounters.RADIX_SORTS) > stats.counter(SwareCounters.KL_SORTS),
                    "scrambled buffers of keys 1..n are radix-sorted, not (K,L)-sorted: " + stats);
            assertEquals(n, index.size());
        }
    }

    /**
     * The split ratio follows the share of each flush that lands inside the tree (SWARE §III, Table I): scrambled
     * keys, nearly all top-inserts, split leaves about 50:50 and leave them about as full as the textbook tree's
     * random inserts do (~69%), where the paper's fixed 80:20 leaves them half empty; near-sorted keys, nearly all
     * bulk-appended, keep 80:20.
     */
    @Test
    void theSplitRatioFollowsTheShareOfTopInserts() {
        final int n = 300_000;
        final long[] scrambled = KLGenerator.workload(n).scrambled(true).seed(2).generate();
        final IndexStats[] adaptive = ingest(Indexes.saBPlusTree().bufferCapacity(n / 100), scrambled);
        final IndexStats[] fixed = ingest(Indexes.saBPlusTree().bufferCapacity(n / 100).adaptiveSplitRatio(false),
                scrambled);
        assertTrue(adaptive[0].counter(BPlusTree.LEAF_SPLIT_PERCENT) <= 52, adaptive[0].toString());
        assertEquals(80, fixed[0].counter(BPlusTree.LEAF_SPLIT_PERCENT), fixed[0].toString());
        assertTrue(adaptive[1].averageLeafFill() > 0.65 && fixed[1].averageLeafFill() < 0.55,
                adaptive[1].averageLeafFill() + " adaptive, " + fixed[1].averageLeafFill() + " fixed");
        assertTrue(adaptive[1].leafCount() < 0.8 * fixed[1].leafCount(),
                adaptive[1].leafCount() + " < " + fixed[1].leafCount());

        final long[] nearSorted = KLGenerator.workload(n).kPercent(2).lPercent(1).seed(2).generate();
        final IndexStats[] near = ingest(Indexes.saBPlusTree().bufferCapacity(n / 100), nearSorted);
        assertTrue(near[0].counter(BPlusTree.LEAF_SPLIT_PERCENT) >= 78, near[0].toString());
    }

    /** The statistics after writing {@code keys} one put each, and again after {@code flush()}. */
    private static IndexStats[] ingest(final SortednessAwareIndexBuilder builder, final long[] keys) {
        try (SortednessAwareIndex index = builder.build()) {
            for (final long key : keys) {
                index.put(key, key);
            }
            final IndexStats streaming = index.stats();
            index.flush();
            assertEquals(keys.length, index.size());
            return new IndexStats[] {streaming, index.stats()};
        }
    }

    /**
     * A single writer sorts a full buffer before it takes the exclusive lock for the flush cycle, so readers wait
     * for less; the other modes sort under the lock. Either way the index holds the same entries.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(io.nearsort.core.Concurrency.class)
    void aSingleWriterSortsAheadOfTheFlushCycle(final io.nearsort.core.Concurrency concurrency) {
        final int n = 200_000;
        final long[] keys = KLGenerator.workload(n).kPercent(5).lPercent(5).seed(8).generate();
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(n / 100).concurrency(concurrency)
                .build()) {
            for (final long key : keys) {
                index.put(key, -key);
            }
            final IndexStats stats = index.stats();
            if (concurrency == io.nearsort.core.Concurrency.SINGLE_WRITER
                    || concurrency == io.nearsort.core.Concurrency.PINNED_WRITER) {
                assertTrue(stats.counter(SwareCounters.SORTS_AHEAD) >= stats.counter(SwareCounters.BUFFER_FLUSHES)
                        - stats.counter(SwareCounters.UNSORTED_PREFIX_FLUSHES), stats.toString());
            } else {
                assertEquals(0, stats.counter(SwareCounters.SORTS_AHEAD), stats.toString());
            }
            for (final long key : keys) {
                assertEquals(-key, index.getOrDefault(key, 0));
            }
            assertEquals(n, index.size());
        }
    }

    @Test
    void lastSortedZoneFollowsFigure5() {
        try (SortednessAwareIndex index = smallZones(4 * ZONE)) {
            // (a) in-order entries move lastSortedZone right.
            for (long key = 1; key <= 60; key++) {
                index.put(key, key);
            }
            assertEquals(1, lastSortedZone(index));
            for (long key = 61; key <= 84; key++) {
                index.put(key, key);
            }
            assertEquals(2, lastSortedZone(index));
            assertEquals(84, index.stats().counter("previousBoundary"));
            // (b) an out-of-order entry overlapping zone 1 moves lastSortedZone left of it.
            index.put(30, -30);
            assertEquals(0, lastSortedZone(index));
            assertEquals(84, index.stats().counter("previousBoundary"), "the retained sorted section stays");
            // (c) a newer, larger entry does not move it.
            index.put(200, 200);
            assertEquals(0, lastSortedZone(index));
            // An entry overlapping zone 0 leaves no zone flushable without sorting.
            index.put(10, -10);
            assertEquals(-1, lastSortedZone(index));
            assertEquals(-30, index.getOrDefault(30, 0));
            assertEquals(-10, index.getOrDefault(10, 0));
        }
    }

    @Test
    void aFullBufferWhoseLastSortedZoneIsInTheFirstHalfFlushesWithoutSorting() {
        try (SortednessAwareIndex index = smallZones(4 * ZONE)) {
            for (long key = 1; key <= 56; key++) {
                index.put(key, key);
            }
            index.put(40, -40); // overlaps zone 1: only zone 0 stays flushable
            assertEquals(0, lastSortedZone(index));
            for (long key = 100; index.stats().counter("bufferEntries") < 4 * ZONE; key++) {
                index.put(key, key);
            }
            index.put(1_000, 1_000); // the buffer is full: this append flushes first
            final IndexStats stats = index.stats();
            assertEquals(1, stats.counter(SwareCounters.BUFFER_FLUSHES));
            assertEquals(1, stats.counter(SwareCounters.UNSORTED_PREFIX_FLUSHES));
            assertEquals(ZONE, stats.counter(SwareCounters.FLUSHED_ENTRIES));
            assertEquals(ZONE, stats.bulkLoadedEntries());
            assertEquals(-40, index.getOrDefault(40, 0));
            assertEquals(4 * ZONE - ZONE - 1 + 1, stats.counter("bufferEntries"),
                    "the rest was sorted, the older version of 40 dropped, and the new entry appended");
            // (d) after the flush the retained entries are sorted: lastSortedZone covers them.
            assertEquals(stats.counter("bufferEntries"), stats.counter("previousBoundary"));
        }
    }

    /**
     * A full buffer that has received one strictly ascending run since its last flush has had no late entry to
     * absorb: it goes to the tree whole. One late entry brings back §IV-A's cycle, which keeps half.
     */
    @ParameterizedTest
    @EnumSource(Concurrency.class)
    void aFullBufferOfOneAscendingRunFlushesWholeAndALateEntryBringsBackTheHalfKept(final Concurrency mode) {
        for (final boolean late : new boolean[] {false, true}) {
            try (SortednessAwareIndex index = Indexes.saBPlusTree().pageSize(512).bufferCapacity(1_000)
                    .concurrency(mode).build()) {
                for (long key = 1; key <= 1_001; key++) {
                    // with a late entry: 501 arrives before 500
                    final long k = late && key == 500 ? 501 : late && key == 501 ? 500 : key;
                    index.put(k, k);
                }
                final IndexStats stats = index.stats();
                assertEquals(1, stats.counter(SwareCounters.BUFFER_FLUSHES), stats.toString());
                final long flushed = stats.counter(SwareCounters.FLUSHED_ENTRIES);
                if (late) {
                    assertTrue(flushed >= 400 && flushed <= 500, "about half flushed: " + flushed);
                } else {
                    assertEquals(1_000, flushed);
                }
                assertEquals(1_001 - flushed, stats.counter("bufferEntries"));
                assertEquals(1_001, index.size());
                for (long key = 1; key <= 1_001; key++) {
                    assertEquals(key, index.getOrDefault(key, -1));
                }
            }
        }
    }

    @Test
    void deletesInsideTheBufferRangeAreTombstonesAndOutsideGoToTheTree() {
        try (SortednessAwareIndex index = smallZones(1_000)) {
            // In order: full buffers flush whole, so 4,001..4,900 are buffered (not full: a delete appends).
            for (long key = 1; key <= 4_900; key++) {
                index.put(key, key);
            }
            index.remove(10); // flushed long ago: below the buffer's key range
            index.remove(4_890); // in the buffer
            index.remove(4_500); // in the buffer's range
            final IndexStats stats = index.stats();
            assertEquals(1, stats.counter(SwareCounters.DIRECT_TREE_DELETES));
            assertEquals(2, stats.counter(SwareCounters.TOMBSTONES));
            assertFalse(index.containsKey(10));
            assertFalse(index.containsKey(4_890));
            assertFalse(index.containsKey(4_500));
            assertEquals(4_897, index.size());
            index.put(4_890, 1); // a newer write after the tombstone wins
            assertEquals(1, index.getOrDefault(4_890, 0));
            index.flush();
            assertFalse(index.containsKey(4_500));
            assertEquals(4_898, index.size());
        }
    }

    @Test
    void bloomFiltersAndZonemapsSkipWork() {
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(10_000).queryDrivenSortThreshold(0)
                .build()) {
            final long[] keys = KLGenerator.workload(9_000).scrambled(true).seed(3).generate();
            for (final long key : keys) {
                index.put(key * 2, key); // even keys only
            }
            for (long probe = 1; probe < 18_000; probe += 2) {
                assertFalse(index.containsKey(probe));
            }
            final IndexStats stats = index.stats();
            assertTrue(stats.counter(SwareCounters.BLOOM_NEGATIVES) > 8_000, stats.toString());
            assertTrue(stats.counter(SwareCounters.ZONES_SCANNED) < 1_000, stats.toString());
            for (long probe = 2; probe < 100; probe += 2) {
                assertEquals(probe / 2, index.getOrDefault(probe, -1));
            }
            final long skips = index.stats().counter(SwareCounters.BUFFER_SKIPS);
            assertFalse(index.containsKey(1_000_000)); // outside the buffer's zonemap
            assertEquals(skips + 1, index.stats().counter(SwareCounters.BUFFER_SKIPS));
            assertTrue(index.stats().counter(SwareCounters.TREE_SKIPS) > 0, "the empty tree is skipped");
        }
    }

    @Test
    void bloomFiltersBuiltLazilyCoverEveryAppendBetweenLookups() {
        // The filters are filled by lookups, not appends: each lookup must cover what was appended since the last.
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(10_000).queryDrivenSortThreshold(0)
                .build()) {
            final long[] keys = KLGenerator.workload(9_000).scrambled(true).seed(5).generate();
            int appended = 0;
            for (final int step : new int[] {1, 1, 7, 300, 2, 4_000, 1, 4_688}) {
                for (final int end = appended + step; appended < end; appended++) {
                    index.put(keys[appended] * 2, keys[appended]);
                }
                for (int i = 0; i < appended; i++) {
                    assertEquals(keys[i], index.getOrDefault(keys[i] * 2, -1), "appended key " + keys[i] * 2);
                    assertFalse(index.containsKey(keys[i] * 2 + 1));
                }
            }
            assertEquals(9_000, appended);
            assertTrue(index.stats().counter(SwareCounters.BLOOM_NEGATIVES) > 0);
        }
    }

    @Test
    void readsSortTheUnsortedSectionOnceItPassesTheThreshold() {
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(1_000).build()) {
            final long[] keys = KLGenerator.workload(300).scrambled(true).seed(4).generate();
            for (int i = 0; i < 90; i++) {
                index.put(keys[i], keys[i]);
            }
            index.getOrDefault(5, 0);
            assertEquals(0, index.stats().counter(SwareCounters.QUERY_DRIVEN_SORTS), "below 10% of the buffer");
            for (int i = 90; i < keys.length; i++) {
                index.put(keys[i], keys[i]);
            }
            index.put(500, 500);
            assertEquals(500, index.getOrDefault(500, 0));
            final IndexStats stats = index.stats();
            assertEquals(1, stats.counter(SwareCounters.QUERY_DRIVEN_SORTS));
            assertEquals(1, stats.counter("querySortedBlocks"));
            assertTrue(stats.counter(SwareCounters.INTERPOLATION_STEPS) > 0);
            for (final long key : keys) {
                assertEquals(key, index.getOrDefault(key, 0));
            }
        }
    }

    /** Every mode; the consumer's writes come in order, which a single writer appends without its lock. */
    @ParameterizedTest
    @EnumSource(Concurrency.class)
    void aScanConsumerMustNotWrite(final Concurrency concurrency) {
        try (SortednessAwareIndex index = Indexes.saBPlusTree().pageSize(512).bufferCapacity(100)
                .concurrency(concurrency).build()) {
            index.put(1, 1);
            index.put(2, 2);
            assertThrows(ConcurrentModificationException.class,
                    () -> index.forEachInRange(0, 10, (k, v) -> index.put(k + 100, v)));
            final long[] sum = {0};
            index.forEachInRange(0, 10, (k, v) -> sum[0] += index.getOrDefault(k, 0));
            assertEquals(3, sum[0], "reads inside a scan are allowed");
            assertEquals(2, index.size());
            index.put(3, 3); // after the scans, in order again
            assertEquals(3, index.getOrDefault(3, 0));
        }
    }

    /** Every mode; the last writes before the close came in order, and so does the refused one. */
    @ParameterizedTest
    @EnumSource(Concurrency.class)
    void closeFreesTheTreeAndLaterCallsFail(final Concurrency concurrency) {
        final BPlusTree tree = Indexes.bPlusTree().splitRatio(0.8).build();
        final SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(100).concurrency(concurrency)
                .over(tree);
        for (long key = 0; key < 10_000; key++) {
            index.put(key * 31 % 10_007, key);
        }
        index.flush();
        for (long key = 20_000; key < 20_050; key++) {
            index.put(key, key);
        }
        assertTrue(tree.bytesInUse() > 0);
        index.close();
        index.close();
        assertEquals(0, tree.bytesInUse());
        assertEquals(0, tree.bytesAllocated());
        assertThrows(IllegalStateException.class, () -> index.put(20_050, 1));
        assertThrows(IllegalStateException.class, () -> index.put(1, 1));
        assertThrows(IllegalStateException.class, () -> index.remove(1));
        assertThrows(IllegalStateException.class, () -> index.getOrDefault(1, 1));
        assertThrows(IllegalStateException.class, () -> index.containsKey(1));
        assertThrows(IllegalStateException.class, () -> index.forEachInRange(0, 1, (k, v) -> { }));
        assertThrows(IllegalStateException.class, index::size);
        assertThrows(IllegalStateException.class, index::stats);
        assertThrows(IllegalStateException.class, index::cursor);
        assertThrows(IllegalStateException.class, index::flush);
    }

    @Test
    void builderValidatesEveryKnobNamingIt() {
        final SortednessAwareIndexBuilder b = Indexes.saBPlusTree();
        assertMessage(() -> b.bufferCapacity(0), "bufferCapacity", "0");
        assertMessage(() -> b.bufferCapacity((1 << 28) + 1), "bufferCapacity", String.valueOf((1 << 28) + 1));
        assertMessage(() -> b.flushFraction(0), "flushFraction", "0.0");
        assertMessage(() -> b.flushFraction(1.5), "flushFraction", "1.5");
        assertMessage(() -> b.queryDrivenSortThreshold(-0.1), "queryDrivenSortThreshold", "-0.1");
        assertMessage(() -> b.bloomBitsPerEntry(-1), "bloomBitsPerEntry", "-1");
        assertMessage(() -> b.bloomBitsPerEntry(65), "bloomBitsPerEntry", "65");
        assertMessage(() -> b.sortThresholds(2, 0.05), "kThreshold", "2.0");
        assertMessage(() -> b.splitRatio(0.3), "splitRatio", "0.3");
        assertMessage(() -> b.bulkFillFactor(0.2), "bulkFillFactor", "0.2");
        assertMessage(() -> b.pageSize(100), "pageSize", "100");
    }

    private static void assertMessage(final org.junit.jupiter.api.function.Executable call, final String parameter,
                                      final String got) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(parameter) && e.getMessage().contains("got: " + got), e.getMessage());
    }
}
