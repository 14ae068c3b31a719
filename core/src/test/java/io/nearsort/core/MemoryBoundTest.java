package io.nearsort.core;

import io.nearsort.core.betree.BeTree;
import io.nearsort.core.btree.BPlusTree;
import io.nearsort.core.btree.PagedTree;
import io.nearsort.core.btree.TreeBuilder;
import io.nearsort.core.sware.SortednessAwareIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory bound of the paged trees ({@link TreeBuilder#maxBytes}) and of the SA trees
 * ({@code SortednessAwareIndexBuilder.maxBytes}): a refused write changes nothing (a batch keeps its prefix), the
 * B+-tree never passes its bound, reads, updates and removes go on at the bound, and memory given back by removes
 * lets writes in again.
 */
class MemoryBoundTest {
    private static final int PAGE = 512;
    private static final long BOUND = 64L * PAGE;

    @Test
    void boundsBelowEightPagesAreRefusedNamingTheOption() {
        assertRefused(IllegalArgumentException.class, () -> Indexes.bPlusTree().pageSize(PAGE).maxBytes(8L * PAGE - 1), "maxBytes");
        // Set for 512-byte pages, then the pages grow: checked again at build.
        assertRefused(IllegalArgumentException.class, () -> Indexes.bPlusTree().pageSize(PAGE).maxBytes(8L * PAGE).pageSize(4096).build(), "maxBytes");
        assertRefused(IllegalArgumentException.class, () -> Indexes.saBPlusTree().pageSize(4096).maxBytes(4096), "maxBytes");
    }

    @Test
    void theSaBoundBelongsOnTheSaBuilderNotOnTheTrees() {
        assertRefused(IllegalArgumentException.class, () -> new io.nearsort.core.sware.SortednessAwareIndexBuilder(
                Indexes.bPlusTree().pageSize(PAGE).maxBytes(BOUND)).build(), "SortednessAwareIndexBuilder.maxBytes");
        try (BPlusTree bounded = Indexes.bPlusTree().pageSize(PAGE).maxBytes(BOUND).build()) {
            assertRefused(IllegalArgumentException.class, () -> Indexes.saBPlusTree().over(bounded), "SortednessAwareIndexBuilder.maxBytes");
        }
    }

    @Test
    void theBPlusTreeNeverPassesItsBoundAndARefusedPutChangesNothing() {
        for (final boolean tailInserts : new boolean[] {false, true}) {
            final BPlusTree tree = Indexes.bPlusTree().pageSize(PAGE).tailLeafInserts(tailInserts)
                    .maxBytes(BOUND).build();
            try (tree) {
                final TreeMap<Long, Long> oracle = new TreeMap<>();
                final int refused = fillUntilRefused(tree, oracle, new SplittableRandom(1), 20_000);
                assertTrue(refused > 100, "puts refused at the bound: " + refused);
                assertTrue(tree.bytesInUse() <= BOUND, tree.bytesInUse() + " bytes in use");
                assertSameEntries(oracle, tree);
                updatesAndRemovesGoOn(tree, oracle);
            }
            assertEquals(0, tree.bytesInUse());
        }
    }

    @Test
    void aBulkAppendThatDoesNotFitIsRefusedWhole() {
        try (BPlusTree tree = Indexes.bPlusTree().pageSize(PAGE).maxBytes(BOUND).build()) {
            final int n = tree.leafCapacity() * 100; // about 100 leaves: more than 64 pages
            final long[] keys = new long[n];
            final long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = i;
                values[i] = -i;
            }
            assertRefused(IllegalStateException.class, () -> tree.bulkAppend(keys, values, 0, n), "TreeBuilder.maxBytes", "bulk-appending " + n);
            assertEquals(0, tree.size());
            final int fits = tree.leafCapacity() * 20;
            tree.bulkAppend(keys, values, 0, fits);
            assertEquals(fits, tree.size());
            assertTrue(tree.bytesInUse() <= BOUND, tree.bytesInUse() + " bytes in use");
        }
    }

    @Test
    void theBeTreeRefusesWritesThatMayFlushOnceAtItsBound() {
        final BeTree tree = Indexes.beTree().pageSize(PAGE).maxBytes(BOUND).build();
        try (tree) {
            final TreeMap<Long, Long> oracle = new TreeMap<>();
            final int refused = fillUntilRefused(tree, oracle, new SplittableRandom(2), 20_000);
            assertTrue(refused > 100, "puts refused at the bound: " + refused);
            // One flush under way may pass the bound; none starts past it.
            assertTrue(tree.bytesInUse() < 2 * BOUND, tree.bytesInUse() + " bytes in use");
            assertSameEntries(oracle, tree);
            assertRefused(IllegalStateException.class, () -> tree.bulkAppend(new long[] {Long.MAX_VALUE}, new long[] {1}, 0, 1), "maxBytes");
            assertSameEntries(oracle, tree);
            updatesAndRemovesGoOn(tree, oracle);
        }
        assertEquals(0, tree.bytesInUse());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Concurrency.class)
    void anSaTreeRefusesPutsThatNeedAFlushOnceItsTreeIsAtTheBound(final Concurrency concurrency) {
        final SortednessAwareIndex index = Indexes.saBPlusTree().pageSize(PAGE).bufferCapacity(256)
                .concurrency(concurrency).maxBytes(BOUND).build();
        try (index) {
            final TreeMap<Long, Long> oracle = new TreeMap<>();
            final int refused = fillUntilRefused(index, oracle, new SplittableRandom(3), 20_000);
            assertTrue(refused > 100, "puts refused at the bound: " + refused);
            assertSameEntries(oracle, index);
            // Removes are never refused; flush() drains the entries already taken, past the bound.
            final List<Long> keys = new ArrayList<>(oracle.keySet());
            for (int i = 0; i < keys.size(); i += 2) {
                index.remove(keys.get(i));
                oracle.remove(keys.get(i));
            }
            assertSameEntries(oracle, index);
            index.flush();
            assertSameEntries(oracle, index);
            // Emptied leaves give their pages back, and new keys get in again.
            for (final long key : new ArrayList<>(oracle.keySet())) {
                index.remove(key);
                oracle.remove(key);
            }
            index.flush();
            assertSameEntries(oracle, index);
            assertEquals(0, fillUntilRefused(index, oracle, new SplittableRandom(4), 300));
            assertSameEntries(oracle, index);
        }
    }

    @Test
    void aRefusedBatchKeepsItsPrefixAndSaysWhere() {
        try (SortednessAwareIndex index = Indexes.saBPlusTree().pageSize(PAGE).bufferCapacity(256)
                .maxBytes(BOUND).build()) {
            final TreeMap<Long, Long> oracle = new TreeMap<>();
            fillUntilRefused(index, oracle, new SplittableRandom(5), 20_000);
            final SplittableRandom random = new SplittableRandom(6);
            final int n = 4_000;
            final long[] keys = new long[n];
            final long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = random.nextLong();
                values[i] = i;
            }
            final Throwable refusal = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> index.putAll(keys, values, 0, n));
            assertTrue(refusal.getMessage().contains("SortednessAwareIndexBuilder.maxBytes"), refusal.getMessage());
            final java.util.regex.Matcher stored = java.util.regex.Pattern
                    .compile("putAll stored keys\\[0, (\\d+)\\)").matcher(refusal.getMessage());
            assertTrue(stored.find(), refusal.getMessage());
            final int prefix = Integer.parseInt(stored.group(1));
            for (int i = 0; i < prefix; i++) {
                oracle.put(keys[i], values[i]);
            }
            assertSameEntries(oracle, index);
        }
    }

    /**
     * Puts random keys (a tenth of them updates of present keys) until {@code attempts} puts were tried, keeping
     * the oracle in step with what the index accepted; returns how many were refused. A refused put must leave the
     * index as it was.
     */
    private static int fillUntilRefused(final LongIndex index, final TreeMap<Long, Long> oracle,
                                        final SplittableRandom random, final int attempts) {
        int refused = 0;
        for (int i = 0; i < attempts; i++) {
            long key = random.nextLong();
            if (!oracle.isEmpty() && random.nextInt(10) == 0) {
                final Long present = oracle.ceilingKey(key);
                key = present != null ? present : oracle.firstKey();
            }
            final long value = random.nextLong();
            try {
                index.put(key, value);
                oracle.put(key, value);
            } catch (IllegalStateException e) {
                assertTrue(e.getMessage().contains("maxBytes"), e.getMessage());
                refused++;
                if (refused % 97 == 1) {
                    assertSameEntries(oracle, index);
                }
            }
            if (index instanceof PagedTree) {
                assertTrue(((PagedTree) index).bytesInUse() <= 2 * BOUND);
            }
        }
        return refused;
    }

    /**
     * At the bound: removes work, and in a B+-tree updates of present keys too, and (its removes free emptied
     * leaves at once) removing most entries lets inserts in again.
     */
    private static void updatesAndRemovesGoOn(final LongIndex index, final TreeMap<Long, Long> oracle) {
        if (index instanceof BPlusTree) { // a Bε-tree's update is a message, which may flush the root
            for (final Map.Entry<Long, Long> e : new ArrayList<>(oracle.entrySet()).subList(0, 50)) {
                index.put(e.getKey(), e.getValue() + 1);
                oracle.put(e.getKey(), e.getValue() + 1);
            }
        }
        assertSameEntries(oracle, index);
        final List<Long> keys = new ArrayList<>(oracle.keySet());
        for (int i = 0; i < keys.size() * 9 / 10; i++) {
            index.remove(keys.get(i));
            oracle.remove(keys.get(i));
        }
        assertSameEntries(oracle, index);
        if (index instanceof BPlusTree) {
            final int refused = fillUntilRefused(index, oracle, new SplittableRandom(99), 200);
            assertEquals(0, refused, "inserts refused after most entries were removed");
            assertSameEntries(oracle, index);
        }
    }

    private static void assertRefused(final Class<? extends RuntimeException> type,
                                      final org.junit.jupiter.api.function.Executable write,
                                      final String... messageParts) {
        final RuntimeException e = assertThrows(type, write);
        for (final String part : messageParts) {
            assertTrue(e.getMessage().contains(part), e.getMessage() + " should contain " + part);
        }
    }

    private static void assertSameEntries(final TreeMap<Long, Long> oracle, final LongIndex index) {
        final TreeMap<Long, Long> seen = new TreeMap<>();
        index.forEachInRange(Long.MIN_VALUE, Long.MAX_VALUE, seen::put);
        assertEquals(oracle, seen);
        assertEquals(oracle.size(), index.size());
    }
}
