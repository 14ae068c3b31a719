package io.nearsort.core.btree;

import io.nearsort.core.IndexStats;
import io.nearsort.core.Indexes;
import io.nearsort.core.LongCursor;
import io.nearsort.core.sortedness.KLGenerator;
import io.nearsort.core.testing.ClosedTrees;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.NoSuchElementException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ingestion paths and split behaviour of SWARE §III, and the tree's edge cases. */
class BPlusTreeBehaviourTest {

    private static long leafSplits(final double splitRatio, final long[] keys) {
        try (BPlusTree tree = Indexes.bPlusTree().splitRatio(splitRatio).build()) {
            for (final long key : keys) {
                tree.put(key, key);
            }
            TreeValidator.check(tree);
            return tree.stats().leafSplits();
        }
    }

    @Test
    void splitRatioFollowsTheDirectionOfSwareTableI() {
        // SWARE Table I: 80:20 splits fewer leaves than 50:50 on near-sorted data (K=2%, L=1%) ...
        final long[] nearSorted = KLGenerator.generate(200_000, 2, 1, 42);
        final long nearSorted50 = leafSplits(0.5, nearSorted);
        final long nearSorted80 = leafSplits(0.8, nearSorted);
        assertTrue(nearSorted80 < nearSorted50, "80:20 " + nearSorted80 + " vs 50:50 " + nearSorted50);
        // ... and 90:10 splits more than 50:50 on unsorted data (K=100%, L=50%).
        final long[] unsorted = KLGenerator.generate(200_000, 100, 50, 42);
        final long unsorted50 = leafSplits(0.5, unsorted);
        final long unsorted90 = leafSplits(0.9, unsorted);
        assertTrue(unsorted90 > unsorted50, "90:10 " + unsorted90 + " vs 50:50 " + unsorted50);
    }

    @Test
    void sortedInputThroughBulkAppendFillsLeavesToTheFillFactor() {
        final int n = 100_000;
        final long[] keys = new long[n];
        final long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = 3L * i - 1_000_000;
            values[i] = -i;
        }
        try (BPlusTree tree = Indexes.bPlusTree().build()) {
            for (int from = 0; from < n; from += 777) {
                tree.bulkAppend(keys, values, from, Math.min(n, from + 777));
            }
            TreeValidator.check(tree);
            final IndexStats stats = tree.stats();
            assertTrue(stats.averageLeafFill() >= 0.9, "fill " + stats.averageLeafFill());
            assertEquals(n, stats.bulkLoadedEntries());
            assertEquals(0, stats.topInserts());
            assertEquals(0, stats.leafSplits());
            for (int i = 0; i < n; i += 97) {
                assertEquals(-i, tree.getOrDefault(keys[i], 1));
            }
        }
    }

    @Test
    void sortedInputThroughTopInsertsWithEvenSplitsHalfFillsLeaves() {
        try (BPlusTree tree = Indexes.bPlusTree().build()) {
            for (long key = 0; key < 100_000; key++) {
                tree.put(key, key);
            }
            final double fill = tree.stats().averageLeafFill();
            assertTrue(fill > 0.48 && fill < 0.55, "fill " + fill);
            assertEquals(100_000, tree.stats().topInserts());
            assertEquals(0, tree.stats().tailLeafInserts());
        }
    }

    @Test
    void sortedInputThroughTailInsertsNeverTraversesAndHonoursTheSplitRatio() {
        try (BPlusTree tree = Indexes.bPlusTree().splitRatio(0.9).tailLeafInserts(true).build()) {
            for (long key = 0; key < 100_000; key++) {
                tree.put(key, key);
            }
            TreeValidator.check(tree);
            final IndexStats stats = tree.stats();
            assertEquals(1, stats.topInserts(), "only the first insert into the empty tree traverses");
            assertEquals(99_999, stats.tailLeafInserts());
            assertTrue(stats.averageLeafFill() > 0.85, "fill " + stats.averageLeafFill());
        }
    }

    @Test
    void putAscendingRejectsDescendingRunsAndWritesNothing() {
        try (BPlusTree tree = Indexes.bPlusTree().pageSize(512).build()) {
            tree.put(5, 5);
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> tree.putAscending(new long[] {1, 7, 7, 6}, new long[4], 0, 4));
            assertTrue(e.getMessage().contains("keys[3] = 6 follows 7"), e.getMessage());
            assertEquals(1, tree.size());
            assertThrows(IndexOutOfBoundsException.class, () -> tree.putAscending(new long[3], new long[2], 0, 3));
            tree.putAscending(new long[] {9, 1}, new long[] {1, 2}, 1, 1); // empty
            tree.putAscending(new long[] {Long.MIN_VALUE, 5, 5, Long.MAX_VALUE}, new long[] {1, 2, 3, 4}, 0, 4);
            assertEquals(3, tree.size());
            assertEquals(3, tree.getOrDefault(5, 0)); // of equal keys the last one's value
            assertEquals(1, tree.getOrDefault(Long.MIN_VALUE, 0));
            assertEquals(4, tree.getOrDefault(Long.MAX_VALUE, 0));
        }
    }

    /** Keys that share a leaf share its traversal; a key past the leaf's separator is found from the root. */
    @Test
    void putAscendingReusesTheLeafBelowItsSeparator() {
        try (BPlusTree tree = Indexes.bPlusTree().pageSize(512).build()) {
            final int n = 10 * tree.leafCapacity();
            for (long k = 0; k < n; k++) {
                tree.put(10 * k, k);
            }
            final long topBefore = tree.stats().topInserts();
            final long[] keys = new long[n];
            final long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = 10L * i + 5; // one between every two keys: a leaf's worth of neighbours at a time
                values[i] = -i;
            }
            tree.putAscending(keys, values, 0, n);
            TreeValidator.check(tree);
            final long fingers = tree.stats().counter(BPlusTree.FINGER_INSERTS);
            assertEquals(n, tree.stats().topInserts() - topBefore);
            // Every leaf split once or so; between splits consecutive keys stay on one leaf.
            assertTrue(fingers > n / 2, "finger inserts " + fingers + " of " + n);
            for (int i = 0; i < n; i++) {
                assertEquals(-i, tree.getOrDefault(10L * i + 5, 1));
                assertEquals(i, tree.getOrDefault(10L * i, -1));
            }
        }
    }

    @Test
    void bulkAppendRejectsRunsThatAreNotAboveTheTreeOrNotAscending() {
        try (BPlusTree tree = Indexes.bPlusTree().build()) {
            tree.put(10, 1);
            final IllegalArgumentException notAbove = assertThrows(IllegalArgumentException.class,
                    () -> tree.bulkAppend(new long[] {10, 11}, new long[2], 0, 2));
            assertTrue(notAbove.getMessage().contains("largest key 10"), notAbove.getMessage());
            final IllegalArgumentException notAscending = assertThrows(IllegalArgumentException.class,
                    () -> tree.bulkAppend(new long[] {11, 13, 13}, new long[3], 0, 3));
            assertTrue(notAscending.getMessage().contains("strictly ascending"), notAscending.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> tree.bulkAppend(new long[2], new long[1], 0, 2));
            assertEquals(1, tree.size(), "nothing written by rejected runs");
            tree.bulkAppend(new long[] {Long.MAX_VALUE}, new long[] {5}, 0, 1);
            assertEquals(Long.MAX_VALUE, tree.lastKey());
        }
    }

    @Test
    void extremeKeysAndValuesAreOrdinaryEntries() {
        try (BPlusTree tree = Indexes.bPlusTree().pageSize(512).tailLeafInserts(true).build()) {
            tree.put(Long.MAX_VALUE, Long.MIN_VALUE);
            tree.put(Long.MIN_VALUE, Long.MAX_VALUE);
            tree.put(0, 0);
            assertEquals(Long.MIN_VALUE, tree.getOrDefault(Long.MAX_VALUE, 1));
            assertEquals(Long.MAX_VALUE, tree.getOrDefault(Long.MIN_VALUE, 1));
            assertEquals(3, tree.forEachInRange(Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> { }));
            assertEquals(0, tree.forEachInRange(1, 0, (k, v) -> { }), "inverted range");
            assertEquals(0, tree.forEachInRange(1, Long.MAX_VALUE - 1, (k, v) -> { }), "empty range");
            assertEquals(1, tree.forEachInRange(Long.MAX_VALUE, Long.MAX_VALUE, (k, v) -> { }));
            final LongCursor cursor = tree.cursor();
            assertTrue(cursor.seekLast());
            assertEquals(Long.MAX_VALUE, cursor.key());
            assertFalse(cursor.seekHigher(Long.MAX_VALUE));
            assertFalse(cursor.seekLower(Long.MIN_VALUE));
            assertTrue(cursor.seekFirst());
            assertEquals(Long.MIN_VALUE, cursor.key());
        }
    }

    @Test
    void emptyTree() {
        try (BPlusTree tree = Indexes.bPlusTree().build()) {
            assertEquals(0, tree.size());
            assertTrue(tree.isEmpty());
            assertFalse(tree.containsKey(0));
            assertEquals(7, tree.getOrDefault(0, 7));
            assertThrows(NoSuchElementException.class, tree::lastKey);
            assertFalse(tree.cursor().seekFirst());
            assertFalse(tree.cursor().seekLast());
            assertThrows(IllegalStateException.class, () -> tree.cursor().key());
            tree.remove(3);
            assertEquals(1, tree.stats().height());
        }
    }

    @Test
    void deletingEverythingFreesAllButTheRootLeaf() {
        try (BPlusTree tree = Indexes.bPlusTree().pageSize(512).build()) {
            final long[] keys = KLGenerator.workload(50_000).scrambled(true).seed(3).generate();
            for (final long key : keys) {
                tree.put(key, key);
            }
            assertTrue(tree.stats().height() >= 3);
            for (final long key : keys) {
                tree.remove(key);
            }
            TreeValidator.check(tree);
            assertEquals(0, tree.size());
            assertEquals(1, tree.stats().height());
            assertEquals(1, tree.stats().leafCount());
            assertEquals(512, tree.bytesInUse());
        }
    }

    @Test
    void cursorSurvivesModificationsByReseeking() {
        try (BPlusTree tree = Indexes.bPlusTree().pageSize(512).build()) {
            for (long key = 0; key < 1000; key += 2) {
                tree.put(key, key);
            }
            final LongCursor cursor = tree.cursor();
            assertTrue(cursor.seekCeiling(101));
            assertEquals(102, cursor.key());
            tree.remove(102);
            for (long key = 1; key < 1000; key += 2) {
                tree.put(key, -key); // forces splits that move entries
            }
            assertTrue(cursor.next());
            assertEquals(103, cursor.key());
            assertEquals(-103, cursor.value());
            assertTrue(cursor.previous());
            assertEquals(101, cursor.key());
        }
    }

    @Test
    void aConsumerThatModifiesTheTreeIsDetected() {
        try (BPlusTree tree = Indexes.bPlusTree().build()) {
            tree.put(1, 1);
            tree.put(2, 2);
            assertThrows(ConcurrentModificationException.class,
                    () -> tree.forEachInRange(0, 5, (k, v) -> tree.put(k + 100, v)));
            final List<Long> read = new ArrayList<>();
            tree.forEachInRange(0, 5, (k, v) -> read.add(tree.getOrDefault(k, -1)));
            assertEquals(List.of(1L, 2L), read, "reads from inside a scan are allowed");
        }
    }

    @Test
    void closeFreesEveryByteAndLaterCallsFail() {
        final BPlusTree tree = Indexes.bPlusTree().build();
        for (long key = 0; key < 10_000; key++) {
            tree.put(key * 7919 % 10_007, key);
        }
        ClosedTrees.closeAndAssertUnusable(tree);
    }

    @Test
    void builderRejectsOutOfRangeKnobsNamingThem() {
        final BPlusTreeBuilder builder = Indexes.bPlusTree();
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.pageSize(1000)), "pageSize", "1000");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.pageSize(256)), "pageSize", "256");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.pageSize(1 << 21)), "pageSize", "");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.splitRatio(0.49)), "splitRatio",
                "0.49");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.splitRatio(Double.NaN)),
                "splitRatio", "NaN");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.leafSplitRatio(0.96)),
                "leafSplitRatio", "0.96");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.internalSplitRatio(1.0)),
                "internalSplitRatio", "1.0");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.bulkFillFactor(1.01)),
                "bulkFillFactor", "1.01");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> builder.bulkFillFactor(0.1)),
                "bulkFillFactor", "0.1");
        try (BPlusTree tree = builder.build()) {
            assertMessage(assertThrows(IllegalArgumentException.class, () -> tree.splitRatio(0.4)), "splitRatio",
                    "0.4");
        }
    }

    /** A ratio set on a live tree governs the splits from then on, as a builder's does (SWARE §III). */
    @Test
    void theSplitRatioCanChangeOnALiveTree() {
        final long[] keys = KLGenerator.workload(100_000).scrambled(true).seed(5).generate();
        try (BPlusTree built = Indexes.bPlusTree().splitRatio(0.9).build();
             BPlusTree changed = Indexes.bPlusTree().build()) {
            changed.splitRatio(0.9);
            for (final long key : keys) {
                built.put(key, key);
                changed.put(key, key);
            }
            assertEquals(built.stats().leafSplits(), changed.stats().leafSplits());
            assertEquals(90, changed.stats().counter(BPlusTree.LEAF_SPLIT_PERCENT));
        }
    }

    @Test
    void defaultsAreThePapersBaseline() {
        final BPlusTreeBuilder builder = Indexes.bPlusTree();
        assertEquals(0.5, builder.leafSplitRatio());
        assertEquals(0.5, builder.internalSplitRatio());
        assertFalse(builder.tailLeafInserts());
        assertEquals(0.95, builder.bulkFillFactor());
        assertEquals(4096, builder.pageSize());
        try (BPlusTree tree = builder.build()) {
            assertEquals(254, tree.leafCapacity());
            assertEquals(253, tree.internalCapacity()); // (4096 - 32-byte header - 8) / 16
            assertEquals(241, tree.bulkLeafEntries());
        }
    }

    private static void assertMessage(final IllegalArgumentException e, final String parameter, final String got) {
        assertTrue(e.getMessage().contains(parameter) && e.getMessage().contains("got: " + got), e.getMessage());
    }
}
