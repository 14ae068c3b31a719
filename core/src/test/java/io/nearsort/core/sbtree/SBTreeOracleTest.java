package io.nearsort.core.sbtree;

import io.nearsort.core.Indexes;
import io.nearsort.core.LongCursor;
import io.nearsort.core.testing.LongIndexOracle;
import io.nearsort.core.testing.LongIndexOracle.KeyPattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One thread against {@link TreeMap}: seeded random operations, the paper's time-series stream with 0–50% delayed
 * data (§V-D), monotonic keys, extreme keys, Algorithm 3's scan and cursor moves; tiny blocks make conversions,
 * splits and a lagging search layer happen all the time. Structural invariants are checked along the way
 * ({@link SBTreeValidator}), and every byte is freed on close.
 */
@Timeout(value = 300, unit = java.util.concurrent.TimeUnit.SECONDS) // a hang fails, rather than stalls the build
class SBTreeOracleTest {

    static Stream<Arguments> configurations() {
        return Stream.of(
                // block size, max per-thread blocks, search table bucket, fill factor, keys, seed, operations
                Arguments.of(512, 1, 2, 1.0, KeyPattern.MIXED, 1L, 200_000),
                Arguments.of(512, 2, 8, 1.0, KeyPattern.NEAR_SORTED, 2L, 300_000),
                Arguments.of(512, 3, 4, 0.5, KeyPattern.DESCENDING, 3L, 200_000),
                Arguments.of(1024, 8, 8, 0.8, KeyPattern.NEAR_SORTED, 4L, 300_000),
                Arguments.of(4096, 32, 8, 1.0, KeyPattern.MIXED, 5L, 300_000),
                Arguments.of(4096, 4, 64, 1.0, KeyPattern.NEAR_SORTED, 6L, 300_000));
    }

    @ParameterizedTest(name = "block {0}, max blocks {1}, bucket {2}, fill {3}, {4} keys, seed {5}")
    @MethodSource("configurations")
    void agreesWithTreeMap(final int blockSize, final int maxBlocks, final int bucket, final double fill,
                           final KeyPattern pattern, final long seed, final int operations) {
        final SBTree tree = Indexes.sbTree().blockSize(blockSize).maxPerThreadBlocks(maxBlocks)
                .searchTableBucketSize(bucket).fillFactor(fill).build();
        try (tree) {
            new LongIndexOracle(seed, pattern).sizeCheckEvery(101).run(tree, operations,
                    () -> SBTreeValidator.check(tree));
        }
        assertEquals(0, tree.bytesInUse());
        assertEquals(0, tree.bytesAllocated());
    }

    /** §V-A keys with §V-D's delayed data, interleaved with removes, lookups and scans. */
    @ParameterizedTest(name = "time series, {0}% delayed")
    @ValueSource(ints = {0, 1, 10, 30, 50})
    void timeSeriesWithDelayedData(final int delayedPercent) {
        timeSeries(delayedPercent, 150_000);
    }

    /** {@code operations} steps of the time-series stream against the oracle (also run longer, tagged slow). */
    static void timeSeries(final int delayedPercent, final int operations) {
        final TimeSeriesStream stream = new TimeSeriesStream(delayedPercent, delayedPercent / 100.0, 1_000_000);
        final SplittableRandom random = new SplittableRandom(delayedPercent + 100);
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        final List<Long> written = new ArrayList<>();
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(2).build()) {
            for (int op = 0; op < operations; op++) {
                final int dice = random.nextInt(100);
                if (dice < 80 || written.isEmpty()) {
                    final long key = stream.next();
                    final long value = random.nextLong();
                    tree.put(key, value);
                    oracle.put(key, value);
                    written.add(key);
                } else if (dice < 85) {
                    final long key = written.get(random.nextInt(written.size()));
                    tree.remove(key);
                    oracle.remove(key);
                } else if (dice < 95) {
                    final long key = random.nextBoolean() ? written.get(written.size() - 1 - random.nextInt(
                            Math.min(written.size(), 300))) : written.get(random.nextInt(written.size()));
                    assertEquals(oracle.getOrDefault(key, -7L), tree.getOrDefault(key, -7L), "get " + key);
                } else {
                    final long lo = written.get(random.nextInt(written.size()));
                    final int count = random.nextInt(120);
                    assertScan(tree, oracle, lo, count);
                }
            }
            assertSameContent(tree, oracle);
            SBTreeValidator.check(tree);
            final io.nearsort.core.IndexStats stats = tree.stats();
            assertTrue(stats.counter(SBTree.CONVERSIONS) > 0, stats::toString);
            if (delayedPercent >= 10) {
                assertTrue(stats.counter(SBTree.DELAYED_INSERTS) > 0, stats::toString);
                assertTrue(stats.counter(SBTree.BLOCK_SPLITS) > 0, stats::toString);
            }
        }
    }

    @Test
    void monotonicKeysAllTakeTheShortcutAndFillBlocks() {
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(4).build()) {
            final int n = 100_000;
            for (int i = 0; i < n; i++) {
                tree.put(TimeSeriesStream.key(1000 + i, i % TimeSeriesStream.SENSORS), i);
            }
            SBTreeValidator.check(tree);
            final io.nearsort.core.IndexStats stats = tree.stats();
            assertEquals(n, stats.size());
            assertEquals(n, stats.counter(SBTree.SHORTCUT_INSERTS));
            assertEquals(0, stats.counter(SBTree.DELAYED_INSERTS));
            assertEquals(0, stats.counter(SBTree.BLOCK_SPLITS));
            assertTrue(stats.counter(SBTree.CONVERSIONS) > 1000, stats::toString);
            assertTrue(stats.averageLeafFill() > 0.99, stats::toString);
            for (int i = 0; i < n; i += 7) {
                assertEquals(i, tree.getOrDefault(TimeSeriesStream.key(1000 + i, i % TimeSeriesStream.SENSORS), -1));
            }
        }
    }

    /**
     * One key from the future (a sensor with a wrong clock) moves the shortcut's fence ahead of the stream, so
     * every later in-order key is delayed data until the stream catches up (§IV-D). Those keys arrive in
     * ascending order: the blocks they fill split where they land and stay full, where 50:50 splits left every
     * block two thirds full (averageLeafFill 0.667 before this split rule). Reads agree with a TreeMap meanwhile.
     */
    @Test
    void delayedKeysInAscendingOrderFillTheirBlocks() {
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(4).build()) {
            final int n = 50_000;
            for (int i = 0; i < n; i++) {
                tree.put(i, -i);
                oracle.put((long) i, (long) -i);
            }
            tree.put(1L << 40, 1);
            oracle.put(1L << 40, 1L);
            final long shortcutBefore = tree.stats().counter(SBTree.SHORTCUT_INSERTS);
            for (int i = n; i < 3 * n; i++) {
                tree.put(i, -i);
                oracle.put((long) i, (long) -i);
                if (i % 997 == 0) {
                    assertEquals(-(i - 13), tree.getOrDefault(i - 13, 1));
                }
            }
            SBTreeValidator.check(tree);
            final io.nearsort.core.IndexStats stats = tree.stats();
            // Only until the segmented block holding the future key is converted (4 per-thread blocks).
            assertTrue(stats.counter(SBTree.SHORTCUT_INSERTS) - shortcutBefore < 1_000, "delayed: " + stats);
            assertTrue(stats.counter(SBTree.ASCENDING_SPLITS) > 0, stats::toString);
            assertTrue(stats.counter(SBTree.BLOCK_SPLITS) - stats.counter(SBTree.ASCENDING_SPLITS) <= 1,
                    stats::toString);
            assertTrue(stats.averageLeafFill() > 0.97, stats::toString);
            assertSameContent(tree, oracle);
        }
    }

    @Test
    void extremeKeysAndAFullRangeOfValues() {
        final long[] edges = LongIndexOracle.EDGE_KEYS;
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(1).build()) {
            // Long.MAX_VALUE reaches the segmented block early: the next one lies beyond it and takes no key.
            for (int round = 0; round < 50; round++) {
                for (int i = 0; i < edges.length; i++) {
                    final long key = edges[(i + round) % edges.length];
                    final long value = edges[(i * 3 + round) % edges.length];
                    tree.put(key, value);
                    oracle.put(key, value);
                }
                for (int i = 0; i < 30; i++) {
                    final long key = round * 1000L + i;
                    tree.put(key, -key);
                    oracle.put(key, -key);
                }
                if (round % 5 == 4) {
                    tree.remove(Long.MAX_VALUE);
                    oracle.remove(Long.MAX_VALUE);
                    tree.remove(Long.MIN_VALUE);
                    oracle.remove(Long.MIN_VALUE);
                }
                assertSameContent(tree, oracle);
            }
            for (final long key : edges) {
                assertEquals(oracle.containsKey(key), tree.containsKey(key));
                assertEquals(oracle.getOrDefault(key, 5L), tree.getOrDefault(key, 5L));
            }
            final LongCursor cursor = tree.cursor();
            assertTrue(cursor.seekLast());
            assertEquals(oracle.lastKey(), cursor.key());
            assertTrue(cursor.seekFirst());
            assertEquals(oracle.firstKey(), cursor.key());
            assertEquals(0, tree.forEachInRange(Long.MAX_VALUE, Long.MIN_VALUE, (k, v) -> { }));
            SBTreeValidator.check(tree);
        }
    }

    @Test
    void scanIsAlgorithm3() {
        final SplittableRandom random = new SplittableRandom(9);
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(2).build()) {
            final TimeSeriesStream stream = new TimeSeriesStream(9, 0.2, 10);
            for (int i = 0; i < 30_000; i++) {
                final long key = stream.next();
                tree.put(key, i);
                oracle.put(key, (long) i);
            }
            for (int i = 0; i < 2_000; i++) {
                final long start = random.nextBoolean() ? oracle.lastKey() - random.nextLong(1L << 22)
                        : random.nextLong(oracle.lastKey());
                assertScan(tree, oracle, start, random.nextInt(150));
            }
            assertScan(tree, oracle, Long.MIN_VALUE, Integer.MAX_VALUE);
            assertEquals(0, tree.scan(0, 0, (k, v) -> { }));
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> tree.scan(0, -1, (k, v) -> { }));
        }
    }

    @Test
    void cursorMovesMatchTreeMap() {
        final SplittableRandom random = new SplittableRandom(11);
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(2).build()) {
            for (int i = 0; i < 5_000; i++) {
                final long key = random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(20_000);
                tree.put(key, i);
                oracle.put(key, (long) i);
                if (random.nextInt(5) == 0) {
                    final long gone = random.nextInt(20_000);
                    tree.remove(gone);
                    oracle.remove(gone);
                }
            }
            final LongCursor cursor = tree.cursor();
            for (int i = 0; i < 5_000; i++) {
                final long key = random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(21_000) - 500;
                final int how = random.nextInt(4);
                final Map.Entry<Long, Long> expected = how == 0 ? oracle.ceilingEntry(key)
                        : how == 1 ? oracle.higherEntry(key) : how == 2 ? oracle.floorEntry(key) : oracle.lowerEntry(key);
                final boolean found = how == 0 ? cursor.seekCeiling(key) : how == 1 ? cursor.seekHigher(key)
                        : how == 2 ? cursor.seekFloor(key) : cursor.seekLower(key);
                assertEquals(expected != null, found, "seek " + how + " " + key);
                if (found) {
                    assertEquals(expected.getKey(), cursor.key());
                    assertEquals(expected.getValue(), cursor.value());
                    final boolean forward = random.nextBoolean();
                    final Map.Entry<Long, Long> following = forward ? oracle.higherEntry(cursor.key())
                            : oracle.lowerEntry(cursor.key());
                    assertEquals(following != null, forward ? cursor.next() : cursor.previous());
                    if (following != null) {
                        assertEquals(following.getKey(), cursor.key());
                    }
                }
            }
        }
    }

    /** The search-layer thread held back: every read still finds its block by walking the data layer (§IV-C). */
    @Test
    void readsAreCorrectWhileTheSearchLayerLags() {
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(1).build()) {
            for (long k = 0; k < 2_000; k++) {
                tree.put(k * 10, k);
                oracle.put(k * 10, k);
            }
            tree.pauseSearchLayer(true);
            final TimeSeriesStream stream = new TimeSeriesStream(3, 0.3, 2_000);
            for (int i = 0; i < 20_000; i++) {
                final long key = stream.next() >>> 12;
                tree.put(key, i);
                oracle.put(key, (long) i);
            }
            final io.nearsort.core.IndexStats lagging = tree.stats();
            assertTrue(lagging.counter(SBTree.SEARCH_LAYER_LAG) > 100, lagging::toString);
            assertSameContent(tree, oracle);
            for (final Map.Entry<Long, Long> e : oracle.entrySet()) {
                assertEquals(e.getValue(), tree.getOrDefault(e.getKey(), -1L));
            }
            assertTrue(tree.stats().counter(SBTree.DATA_LAYER_WALK_STEPS) > lagging.counter(SBTree.DATA_LAYER_WALK_STEPS));
            tree.pauseSearchLayer(false);
            SBTreeValidator.check(tree);
            assertEquals(0, tree.stats().counter(SBTree.SEARCH_LAYER_LAG));
        }
    }

    /** Deleting old data (retention) unlinks the emptied blocks and reuses their memory. */
    @Test
    void deletesGiveMemoryBack() throws InterruptedException {
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(4).build()) {
            final int n = 50_000;
            for (int i = 0; i < n; i++) {
                tree.put(i, i);
            }
            assertTrue(tree.awaitSearchLayer(120_000), "the search layer did not catch up");
            final long full = tree.bytesInUse();
            for (int i = 0; i < n - 100; i++) {
                tree.remove(i);
            }
            SBTreeValidator.check(tree);
            // The unlink requests, then the epochs: retired blocks are freed once every reader moved on. Generous
            // bounds (a loaded 2-core CI machine); the assertion is the same.
            assertTrue(tree.awaitSearchLayer(120_000), "the search layer did not apply the unlinks");
            final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
            long inUse = tree.bytesInUse();
            while (inUse >= full / 20 && System.nanoTime() < deadline) {
                Thread.sleep(10);
                inUse = tree.bytesInUse();
            }
            assertTrue(inUse < full / 20, "bytes in use " + inUse + " of " + full);
            final io.nearsort.core.IndexStats stats = tree.stats();
            assertTrue(stats.counter(SBTree.UNLINKED_BLOCKS) > 1000, stats::toString);
            assertEquals(100, tree.size());
            for (int i = n; i < 2 * n; i++) {
                tree.put(i, i);
            }
            assertEquals(n + 100, tree.size());
            SBTreeValidator.check(tree);
        }
    }

    @Test
    void writesPastTheMemoryBoundAreRefusedAndChangeNothing() {
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(2).maxBytes(64 * 512).build()) {
            final long key = putUntilRefused(tree, oracle);
            assertSameContent(tree, oracle);
            // Delayed data that needs a split is refused too; removes still work and give memory back.
            for (long k = 0; k < key; k += 2) {
                tree.remove(k);
                oracle.remove(k);
            }
            assertSameContent(tree, oracle);
            SBTreeValidator.check(tree);
        }
    }

    /**
     * Removes are never refused by the memory bound: at the bound, a remove of a recent key (in the segmented
     * block's range) needs a new per-thread block for its tombstone when the thread's block is full.
     */
    @Test
    void removesOfRecentKeysAreNotRefusedAtTheMemoryBound() {
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(32).maxBytes(64 * 512).build()) {
            final long key = putUntilRefused(tree, oracle);
            final long last = key - 1; // the last key put
            // The put was refused for want of a per-thread block: this thread's is full of recent keys.
            assertTrue(tree.shortcut().takes(last), "the last key is in the segmented block's range");
            for (long k = last; k > last - 50; k--) {
                tree.remove(k);
                oracle.remove(k);
            }
            assertSameContent(tree, oracle);
            SBTreeValidator.check(tree);
        }
    }

    /**
     * A cursor walking the segmented block steps through one merge of it instead of merging it again at every
     * move (forwards and backwards), and still sees the writes made between its moves.
     */
    @Test
    void cursorWalksTheSegmentedBlockIncrementally() {
        try (SBTree tree = Indexes.sbTree().build()) {
            final int n = 3_000; // below one segmented block (32 per-thread blocks of 201 entries): no conversion
            for (int i = 0; i < n; i++) {
                tree.put(10L * i, i);
            }
            assertTrue(tree.shortcut().takes(0), "every key is still in the segmented block");
            final SBTreeCursor cursor = (SBTreeCursor) tree.cursor();
            int visited = 0;
            for (boolean more = cursor.seekFirst(); more; more = cursor.next()) {
                assertEquals(10L * visited, cursor.key());
                assertEquals(visited, cursor.value());
                visited++;
            }
            assertEquals(n, visited);
            assertTrue(cursor.seeks() <= 2, "seeks: " + cursor.seeks());
            visited = 0;
            for (boolean more = cursor.seekLast(); more; more = cursor.previous()) {
                assertEquals(10L * (n - 1 - visited), cursor.key());
                visited++;
            }
            assertEquals(n, visited);
            assertTrue(cursor.seeks() <= 4, "seeks: " + cursor.seeks());
            // Writes between moves are seen: the step finds the block changed and seeks.
            assertTrue(cursor.seekCeiling(100));
            tree.put(105, -1);
            assertTrue(cursor.next());
            assertEquals(105, cursor.key());
            tree.remove(110);
            assertTrue(cursor.next());
            assertEquals(120, cursor.key());
            assertTrue(cursor.previous());
            assertEquals(105, cursor.key());
            assertEquals(-1, cursor.value());
        }
    }

    /** Cursor steps across conversions and delayed writes agree with a TreeMap (tiny blocks convert often). */
    @Test
    void cursorStepsAcrossConversionsMatchTreeMap() {
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        final SplittableRandom random = new SplittableRandom(77);
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(3).build()) {
            long next = 0;
            for (int i = 0; i < 2_000; i++) {
                tree.put(next, next);
                oracle.put(next, next);
                next += 2;
            }
            final LongCursor cursor = tree.cursor();
            assertTrue(cursor.seekCeiling(next - 600));
            for (int step = 0; step < 20_000; step++) {
                final int dice = random.nextInt(10);
                if (dice < 3) { // recent in-order key: the segmented block, conversions
                    tree.put(next, step);
                    oracle.put(next, (long) step);
                    next += 1 + random.nextInt(3);
                } else if (dice < 4) { // delayed or recent key, or a remove
                    final long k = next - 1 - random.nextInt(800);
                    if (random.nextBoolean()) {
                        tree.put(k, step);
                        oracle.put(k, (long) step);
                    } else {
                        tree.remove(k);
                        oracle.remove(k);
                    }
                }
                final long at = cursor.key();
                final boolean forward = random.nextInt(3) != 0;
                final Map.Entry<Long, Long> expected = forward ? oracle.higherEntry(at) : oracle.lowerEntry(at);
                final boolean moved = forward ? cursor.next() : cursor.previous();
                if (expected == null) {
                    assertFalse(moved, "step " + step);
                    assertTrue(cursor.seekCeiling(next - 600));
                    continue;
                }
                assertTrue(moved, "step " + step);
                assertEquals(expected.getKey(), cursor.key(), "step " + step);
                assertEquals(expected.getValue(), cursor.value(), "step " + step);
            }
        }
    }

    @Test
    void theConsumerMayReadButNotWrite() {
        try (SBTree tree = Indexes.sbTree().blockSize(512).build()) {
            for (int i = 0; i < 1000; i++) {
                tree.put(i, i);
            }
            final long[] seen = new long[1];
            tree.forEachInRange(0, 999, (k, v) -> {
                assertEquals(v, tree.getOrDefault(k, -1));
                seen[0] += tree.forEachInRange(k, k + 1, (a, b) -> { });
            });
            assertEquals(999 * 2 + 1, seen[0]);
            org.junit.jupiter.api.Assertions.assertThrows(java.util.ConcurrentModificationException.class,
                    () -> tree.forEachInRange(0, 10, (k, v) -> tree.put(k, v + 1)));
            org.junit.jupiter.api.Assertions.assertThrows(java.util.ConcurrentModificationException.class,
                    () -> tree.scan(0, 10, (k, v) -> tree.remove(k)));
            assertEquals(1000, tree.size());
            assertEquals(5, tree.getOrDefault(5, -1));
        }
    }

    /**
     * Puts ascending keys from 0 until the memory bound refuses one, checking the refusal's message.
     *
     * @return the refused key (keys below it are in the index and in {@code oracle})
     */
    static long putUntilRefused(final SBTree tree, final TreeMap<Long, Long> oracle) {
        for (long key = 0; key < 100_000; key++) {
            try {
                tree.put(key, key);
                oracle.put(key, key);
            } catch (final IllegalStateException e) {
                assertTrue(e.getMessage().contains("maxBytes"), e.getMessage());
                return key;
            }
        }
        throw new AssertionError("no put refused below key 100000");
    }

    static void assertScan(final SBTree tree, final TreeMap<Long, Long> oracle, final long start, final int count) {
        final List<long[]> seen = new ArrayList<>();
        final long visited = tree.scan(start, count, (k, v) -> seen.add(new long[] {k, v}));
        final List<Map.Entry<Long, Long>> expected = new ArrayList<>();
        for (final Map.Entry<Long, Long> e : oracle.tailMap(start, true).entrySet()) {
            if (expected.size() == count) {
                break;
            }
            expected.add(e);
        }
        assertEquals(expected.size(), visited, "scan(" + start + ", " + count + ")");
        assertEquals(expected.size(), seen.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals((long) expected.get(i).getKey(), seen.get(i)[0], "scan key #" + i);
            assertEquals((long) expected.get(i).getValue(), seen.get(i)[1], "scan value #" + i);
        }
    }

    static void assertSameContent(final SBTree tree, final TreeMap<Long, Long> oracle) {
        assertEquals(oracle.size(), tree.size(), "size");
        final List<long[]> seen = new ArrayList<>();
        tree.forEachInRange(Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> seen.add(new long[] {k, v}));
        assertEquals(oracle.size(), seen.size(), "full scan");
        int i = 0;
        for (final Map.Entry<Long, Long> e : oracle.entrySet()) {
            final long[] kv = seen.get(i++);
            assertEquals((long) e.getKey(), kv[0], "key #" + (i - 1));
            assertEquals((long) e.getValue(), kv[1], "value of " + e.getKey());
        }
        assertFalse(seen.size() > oracle.size());
    }
}
