package io.nearsort.core.betree;

import io.nearsort.core.IndexStats;
import io.nearsort.core.Indexes;
import io.nearsort.core.LongCursor;
import io.nearsort.core.memory.PageArena;
import io.nearsort.core.testing.ClosedTrees;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Bε-tree's design (Bender et al. [8], SWARE §V), observed through its statistics and its pages. */
class BeTreeBehaviourTest {
    /** 512-byte pages: leaves of 30 entries (28 when bulk-appended), 5 pivots and 22 messages per internal node. */
    private static BeTree small() {
        return Indexes.beTree().pageSize(512).build();
    }

    /** Keys {@code from, from + step, ...}, {@code n} of them. */
    private static long[] run(final long from, final long step, final int n) {
        return LongStream.range(0, n).map(i -> from + i * step).toArray();
    }

    @Test
    void nodesGiveAboutRootBOfTheirPageToPivotsAndTheRestToTheBuffer() {
        // ε = 1/2 (SWARE §V): 4 KiB pages hold 254 entries as a leaf, so floor(sqrt(254)) = 15 pivots; the
        // remaining 4096 - 16 - 8 * 31 - 64 bytes (pivots, children, message splits) hold 221 messages of 17 bytes.
        final BeTreeBuilder builder = Indexes.beTree();
        assertEquals(15, builder.maxPivots());
        assertEquals(221, builder.bufferCapacity());
        assertEquals(5, builder.pageSize(512).maxPivots());
        assertEquals(22, builder.bufferCapacity());
        try (BeTree tree = Indexes.beTree().build()) {
            final IndexStats stats = tree.stats();
            assertEquals(15, stats.counter(BeTree.MAX_PIVOTS));
            assertEquals(221, stats.counter(BeTree.NODE_BUFFER_CAPACITY));
            assertEquals(241, tree.bulkLeafEntries(), "95% of a 254-entry leaf");
            assertEquals("Bε-tree", stats.structure());
        }
        for (int pageSize = PageArena.MIN_PAGE_SIZE; pageSize <= PageArena.MAX_PAGE_SIZE; pageSize *= 2) {
            assertTrue(Indexes.beTree().pageSize(pageSize).epsilon(BeTreeBuilder.MAX_EPSILON).bufferCapacity() >= 8,
                    "the largest epsilon leaves a buffer at page size " + pageSize);
            assertTrue(Indexes.beTree().pageSize(pageSize).epsilon(BeTreeBuilder.MIN_EPSILON).maxPivots() >= 2);
        }
    }

    @Test
    void writesAreMessagesInTheRootBufferAndTheNewestWins() {
        try (BeTree tree = small()) {
            final long[] keys = run(0, 10, 100);
            tree.bulkAppend(keys, keys, 0, keys.length);
            assertEquals(0, tree.stats().counter(BeTree.MESSAGES_BUFFERED), "bulk loads bypass the buffers");
            tree.put(55, 1);
            tree.put(55, 2); // replaces the first message in the root's buffer
            tree.put(30, -30);
            tree.remove(40);
            tree.remove(1_000); // above the largest key: nothing to delete
            final IndexStats stats = tree.stats();
            assertEquals(3, stats.counter(BeTree.MESSAGES_BUFFERED));
            assertEquals(1, stats.counter(BeTree.DELETE_MESSAGES));
            assertEquals(3, stats.topInserts());
            assertEquals(0, stats.counter(BeTree.NODE_FLUSHES));
            assertEquals(2, tree.getOrDefault(55, 0));
            assertEquals(-30, tree.getOrDefault(30, 0));
            assertFalse(tree.containsKey(40));
            assertEquals(100, tree.size(), "one new key, one deleted");
            assertEquals(List.of(30L, 50L, 55L, 60L), keysIn(tree, 25, 62));
            BeTreeValidator.check(tree);
        }
    }

    @Test
    void aFullRootFlushesTheChildReceivingTheMostMessages() {
        try (BeTree tree = small()) {
            // Bulk-appended leaves of 28 entries: [0, 280), [280, 560), [560, 840), [840, ...) under one root.
            final long[] keys = run(0, 10, 112);
            tree.bulkAppend(keys, keys, 0, keys.length);
            assertEquals(2, tree.height());
            for (long key = 1; key <= 5; key++) {
                tree.put(key, key); // 5 messages for the first leaf
            }
            for (long key = 561; key <= 577; key++) {
                tree.put(key, key); // 17 for the third (570 overwrites): the buffer of 22 is full
            }
            assertEquals(22, tree.stats().counter(BeTree.MESSAGES_BUFFERED));
            tree.put(6, 6); // no room: the 17 messages of the third leaf go down, the first leaf's 6 stay
            final IndexStats stats = tree.stats();
            assertEquals(1, stats.counter(BeTree.NODE_FLUSHES_LEVEL + 1));
            assertEquals(17, stats.counter(BeTree.MESSAGES_FLUSHED));
            assertEquals(17, stats.counter(BeTree.MESSAGES_APPLIED));
            assertEquals(6, stats.counter(BeTree.MESSAGES_BUFFERED));
            // 28 entries and 16 new keys (570 is there): the third leaf is cut into 16 and 28 entries.
            assertEquals(1, stats.leafSplits());
            assertEquals(112 + 22, tree.size());
            BeTreeValidator.check(tree);
        }
    }

    @Test
    void buffersFlushAtEveryLevelAndLeavesSplitByTheLeafSplitRatio() {
        final double[] fills = new double[2];
        final double[] ratios = {0.5, 0.8};
        for (int r = 0; r < ratios.length; r++) {
            try (BeTree tree = Indexes.beTree().pageSize(512).splitRatio(ratios[r]).build()) {
                for (long key = 0; key < 20_000; key++) {
                    tree.put(key, key);
                }
                final IndexStats stats = tree.stats();
                assertTrue(stats.height() >= 5, stats.toString());
                for (int level = 1; level < stats.height(); level++) {
                    assertTrue(stats.counter(BeTree.NODE_FLUSHES_LEVEL + level) > 0, "flushes at level " + level);
                }
                assertTrue(stats.internalSplits() > 0, stats.toString());
                fills[r] = stats.averageLeafFill();
                BeTreeValidator.check(tree);
            }
        }
        // Ascending keys: a leaf cut at ratio r keeps round(r * 31) of 30 entries, and the right-most piece grows.
        assertTrue(fills[0] > 0.5 && fills[0] < 0.6, "fill at 50:50 " + fills[0]);
        assertTrue(fills[1] > 0.8 && fills[1] < 0.9, "fill at 80:20 " + fills[1]);
    }

    @Test
    void theSplitRatioSetOnAnOpenTreeCutsTheLeavesThatSplitFromThenOn() {
        try (BeTree tree = Indexes.beTree().pageSize(512).splitRatio(0.8).build()) {
            for (long key = 0; key < 10_000; key++) {
                tree.put(key, key);
            }
            final double fillAt80 = tree.stats().averageLeafFill();
            tree.splitRatio(0.5); // what the SWARE buffer does after a flush of keys that landed inside the tree
            for (long key = 10_000; key < 200_000; key++) {
                tree.put(key, key);
            }
            final double fillAfter = tree.stats().averageLeafFill();
            assertTrue(fillAt80 > 0.8 && fillAfter < 0.6, "fill at 80:20 " + fillAt80 + ", then 50:50 " + fillAfter);
            BeTreeValidator.check(tree);
            assertMessage(assertThrows(IllegalArgumentException.class, () -> tree.splitRatio(0.3)), "splitRatio",
                    "0.3");
        }
    }

    @Test
    void bulkAppendFillsLeavesAndPivotsToTheFillFactorWithEmptyBuffers() {
        try (BeTree tree = Indexes.beTree().build()) {
            final long[] keys = run(-1_000_000, 3, 500_000);
            tree.bulkAppend(keys, keys, 0, 200_000);
            tree.bulkAppend(keys, keys, 200_000, keys.length);
            final IndexStats stats = tree.stats();
            assertEquals(500_000, stats.bulkLoadedEntries());
            assertEquals(0, stats.topInserts());
            assertEquals(0, stats.counter(BeTree.MESSAGES_BUFFERED));
            assertEquals(0, stats.leafSplits());
            assertEquals((500_000 + 240) / 241, stats.leafCount());
            assertTrue(stats.averageLeafFill() > 0.94, stats.toString());
            assertEquals(500_000, tree.size());
            assertEquals(keys[keys.length - 1], tree.lastKey());
            assertEquals(keys[123_456], tree.getOrDefault(keys[123_456], 0));
            BeTreeValidator.check(tree);
        }
    }

    @Test
    void bulkAppendRejectsARunThatIsNotAboveTheLargestKeyOrNotAscending() {
        try (BeTree tree = small()) {
            tree.put(10, 10);
            final IllegalArgumentException below = assertThrows(IllegalArgumentException.class,
                    () -> tree.bulkAppend(new long[] {10, 11}, new long[2], 0, 2));
            assertTrue(below.getMessage().contains("largest key 10"), below.getMessage());
            assertThrows(IllegalArgumentException.class, () -> tree.bulkAppend(new long[] {11, 13, 12}, new long[3],
                    0, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> tree.bulkAppend(new long[2], new long[1], 0, 2));
            assertEquals(1, tree.size(), "nothing written");
            tree.bulkAppend(new long[] {Long.MAX_VALUE}, new long[] {Long.MIN_VALUE}, 0, 1);
            assertEquals(Long.MIN_VALUE, tree.getOrDefault(Long.MAX_VALUE, 0));
        }
    }

    @Test
    void deletesAboveTheLargestKeyAreDroppedAndRemovingItFindsTheNextOne() {
        try (BeTree tree = small()) {
            for (long key = 0; key < 2_000; key++) {
                tree.put(key, -key);
            }
            final long messages = tree.stats().counter(BeTree.DELETE_MESSAGES);
            tree.remove(5_000);
            assertEquals(messages, tree.stats().counter(BeTree.DELETE_MESSAGES));
            for (long key = 1_999; key >= 1_000; key--) {
                tree.remove(key);
                assertEquals(key - 1, tree.lastKey());
            }
            tree.remove(500); // not the largest
            assertEquals(999, tree.lastKey());
            for (long key = 0; key < 2_000; key++) {
                tree.remove(key);
            }
            assertTrue(tree.isEmpty());
            assertThrows(NoSuchElementException.class, tree::lastKey);
            assertEquals(0, tree.size());
            assertEquals(-1, tree.getOrDefault(7, -1));
            BeTreeValidator.check(tree);
        }
    }

    @Test
    void everyLongIsAKeyAndAValue() {
        final long[] edges = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        try (BeTree tree = small()) {
            for (int i = 0; i < 500; i++) {
                tree.put(i * 1_000L, i);
            }
            for (final long key : edges) {
                tree.put(key, key); // values that could pass for a "deleted" marker are ordinary values
            }
            for (final long key : edges) {
                assertEquals(key, tree.getOrDefault(key, 42));
                assertTrue(tree.containsKey(key));
            }
            assertEquals(Long.MAX_VALUE, tree.lastKey());
            final LongCursor cursor = tree.cursor();
            assertTrue(cursor.seekFirst());
            assertEquals(Long.MIN_VALUE, cursor.key());
            assertTrue(cursor.seekLast());
            assertEquals(Long.MAX_VALUE, cursor.key());
            assertFalse(cursor.seekHigher(Long.MAX_VALUE));
            assertFalse(cursor.seekLower(Long.MIN_VALUE));
            tree.remove(Long.MAX_VALUE);
            tree.remove(Long.MIN_VALUE);
            assertEquals(Long.MAX_VALUE - 1, tree.lastKey());
            assertFalse(tree.containsKey(Long.MIN_VALUE));
            assertEquals(1, tree.forEachInRange(Long.MIN_VALUE, Long.MIN_VALUE + 1, (k, v) -> { }));
            BeTreeValidator.check(tree);
        }
    }

    @Test
    void cursorsMergeBuffersWithLeavesInBothDirectionsAndResumeAfterWrites() {
        try (BeTree tree = small()) {
            final NavigableMap<Long, Long> oracle = new java.util.TreeMap<>();
            for (long key = 0; key < 3_000; key += 3) {
                tree.put(key, key);
                oracle.put(key, key);
            }
            for (long key = 1; key < 3_000; key += 7) {
                tree.put(key, -key);
                oracle.put(key, -key);
                tree.remove(key + 2);
                oracle.remove(key + 2);
            }
            assertTrue(tree.stats().counter(BeTree.MESSAGES_BUFFERED) > 0);
            final LongCursor cursor = tree.cursor();
            final List<Long> forward = new ArrayList<>();
            for (boolean more = cursor.seekFirst(); more; more = cursor.next()) {
                forward.add(cursor.key());
                assertEquals(oracle.get(cursor.key()), cursor.value());
            }
            assertEquals(new ArrayList<>(oracle.keySet()), forward);
            final List<Long> backward = new ArrayList<>();
            for (boolean more = cursor.seekLast(); more; more = cursor.previous()) {
                backward.add(cursor.key());
            }
            assertEquals(new ArrayList<>(oracle.descendingKeySet()), backward);
            // Turning around, and writing between moves, re-seeks from the current key.
            assertTrue(cursor.seekCeiling(1_500));
            assertEquals(oracle.ceilingKey(1_500L), cursor.key());
            assertTrue(cursor.previous());
            assertEquals(oracle.lowerKey(oracle.ceilingKey(1_500L)), cursor.key());
            final long at = cursor.key();
            tree.remove(oracle.higherKey(at));
            oracle.remove(oracle.higherKey(at));
            assertTrue(cursor.next());
            assertEquals(oracle.higherKey(at), cursor.key());
        }
    }

    @Test
    void aScanConsumerThatWritesIsRefused() {
        try (BeTree tree = small()) {
            for (long key = 0; key < 100; key++) {
                tree.put(key, key);
            }
            assertThrows(ConcurrentModificationException.class,
                    () -> tree.forEachInRange(0, 99, (k, v) -> tree.put(k + 1_000, v)));
        }
    }

    @Test
    void sizeIsExactWithMessagesBuffered() {
        try (BeTree tree = small()) {
            for (long key = 0; key < 1_000; key++) {
                tree.put(key % 300, key);
                assertEquals(Math.min(key + 1, 300), tree.size());
            }
            for (long key = 0; key < 1_000; key += 2) {
                tree.remove(key % 300);
            }
            assertEquals(150, tree.size());
            assertTrue(tree.stats().counter(BeTree.MESSAGES_BUFFERED) > 0);
        }
    }

    @Test
    void closeFreesEveryByteAndLaterCallsFail() {
        final BeTree tree = small();
        for (long key = 0; key < 10_000; key++) {
            tree.put(key * 7 % 10_007, key);
        }
        ClosedTrees.closeAndAssertUnusable(tree);
    }

    @Test
    void builderRejectsOutOfRangeKnobsNamingThem() {
        final BeTreeBuilder builder = Indexes.beTree();
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.epsilon(0.05)), "epsilon", "0.05");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.epsilon(0.85)), "epsilon", "0.85");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.epsilon(Double.NaN)), "epsilon",
                "NaN");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.tailLeafInserts(true)),
                "tailLeafInserts", "true");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.pageSize(1000)), "pageSize", "1000");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.splitRatio(0.3)), "splitRatio",
                "0.3");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.leafSplitRatio(0.96)),
                "leafSplitRatio", "0.96");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.bulkFillFactor(0.2)),
                "bulkFillFactor", "0.2");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.slabPool(null)), "slabPool", "");
        builder.tailLeafInserts(false);
        assertEquals(0.5, builder.epsilon());
        assertEquals(0.5, builder.leafSplitRatio());
        assertEquals(4096, builder.pageSize());
        assertTrue(builder.toString().contains("epsilon=0.5"), builder.toString());
    }

    private static void assertMessage(final IllegalArgumentException e, final String parameter, final String got) {
        assertTrue(e.getMessage().contains(parameter) && e.getMessage().contains(got), e.getMessage());
    }

    private static List<Long> keysIn(final BeTree tree, final long lo, final long hi) {
        final List<Long> keys = new ArrayList<>();
        tree.forEachInRange(lo, hi, (k, v) -> keys.add(k));
        final long[] viaCursor = tree.asNavigableMap().subMap(lo, true, hi, true).keySet().stream()
                .mapToLong(Long::longValue).toArray();
        assertArrayEquals(keys.stream().mapToLong(Long::longValue).toArray(), viaCursor);
        return keys;
    }
}
