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
import static org.junit.jupiter.api.Assertions.fail;

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

    /**
     * {@code putAscending} (an SA flush's top-inserts) at the bound: refused as puts are, the run's entries before
     * the refused one stored, none after it; the B+-tree never passes its bound.
     */
    @Test
    void ascendingRunsAreRefusedAtTheBoundAsPutsAre() {
        final List<AppendableLongIndex> trees = List.of(Indexes.bPlusTree().pageSize(PAGE).maxBytes(BOUND).build(),
                Indexes.bPlusTree().pageSize(PAGE).tailLeafInserts(true).maxBytes(BOUND).build(),
                Indexes.beTree().pageSize(PAGE).maxBytes(BOUND).build());
        for (final AppendableLongIndex tree : trees) {
            try (tree) {
                final TreeMap<Long, Long> oracle = new TreeMap<>();
                final SplittableRandom random = new SplittableRandom(3);
                int refused = 0;
                for (int round = 0; round < 2_000 && refused < 20; round++) {
                    final long[] keys = new long[1 + random.nextInt(300)];
                    final long[] values = new long[keys.length];
                    final long base = random.nextLong();
                    for (int i = 0; i < keys.length; i++) {
                        keys[i] = base + random.nextInt(3 * keys.length);
                        values[i] = random.nextLong();
                    }
                    java.util.Arrays.sort(keys);
                    try {
                        tree.putAscending(keys, values, 0, keys.length);
                        for (int i = 0; i < keys.length; i++) {
                            oracle.put(keys[i], values[i]);
                        }
                    } catch (IllegalStateException e) {
                        assertTrue(e.getMessage().contains("maxBytes"), e.getMessage());
                        refused++;
                        assertStoredAPrefix(oracle, tree, keys, values);
                    }
                    final long bound = tree instanceof BPlusTree ? BOUND : 2 * BOUND; // a Bε flush under way may pass
                    assertTrue(tree.bytesInUse() <= bound, tree.bytesInUse() + " bytes in use");
                }
                assertTrue(refused > 0, tree.stats().structure() + " never refused a run");
                assertSameEntries(oracle, tree);
            }
            assertEquals(0, tree.bytesInUse());
        }
    }

    /** Adds to {@code oracle} the prefix of the refused run that {@code index} holds, and fails if none matches. */
    private static void assertStoredAPrefix(final TreeMap<Long, Long> oracle, final LongIndex index,
                                            final long[] keys, final long[] values) {
        final TreeMap<Long, Long> seen = new TreeMap<>();
        index.forEachInRange(Long.MIN_VALUE, Long.MAX_VALUE, seen::put);
        final TreeMap<Long, Long> candidate = new TreeMap<>(oracle);
        for (int stored = 0; ; stored++) {
            if (candidate.equals(seen)) {
                oracle.clear();
                oracle.putAll(seen);
                return;
            }
            if (stored == keys.length) {
                fail("the index holds no prefix of the refused run");
            }
            candidate.put(keys[stored], values[stored]);
        }
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
