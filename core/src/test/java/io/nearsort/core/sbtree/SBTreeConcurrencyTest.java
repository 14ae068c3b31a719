package io.nearsort.core.sbtree;

import io.nearsort.core.Indexes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Several writer and reader threads against oracles: per-thread key spaces, one shared key space written in
 * phases (the latest write wins across threads, also inside a segmented block), visibility of a completed put to
 * other threads across conversions, weakly consistent scans, the §V-A stream ingested by several threads, and
 * deletes with unlinking. Tiny blocks make conversions, splits and a lagging search layer constant. Each test
 * ends with the structural check and a full comparison.
 */
@Timeout(value = 300, unit = java.util.concurrent.TimeUnit.SECONDS) // a hang fails, rather than stalls the build
class SBTreeConcurrencyTest {
    private static final int THREADS = 4;

    /**
     * Added to every seed of the threads' random choices and of the time-series stream: 0 in the default run,
     * other values when {@code SBTreeSlowTest} repeats the tests.
     */
    long seedOffset;

    /** Each thread owns the keys congruent to its number: the union of the per-thread oracles is the index. */
    @ParameterizedTest(name = "per-thread key spaces, max per-thread blocks {0}")
    @ValueSource(ints = {1, 3, 16})
    void perThreadKeySpaces(final int maxBlocks) throws Exception {
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(maxBlocks).build()) {
            final List<TreeMap<Long, Long>> oracles = new ArrayList<>();
            final AtomicBoolean writing = new AtomicBoolean(true);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final List<Thread> threads = new ArrayList<>();
            final AtomicLong clock = new AtomicLong(1_000);
            for (int t = 0; t < THREADS; t++) {
                final int me = t;
                final TreeMap<Long, Long> oracle = new TreeMap<>();
                oracles.add(oracle);
                threads.add(thread(failure, () -> {
                    final SplittableRandom random = new SplittableRandom(seedOffset + me);
                    final List<Long> mine = new ArrayList<>();
                    for (int op = 0; op < 40_000; op++) {
                        final int dice = random.nextInt(100);
                        if (dice < 70 || mine.isEmpty()) {
                            // A shared clock keeps the threads' keys interleaved, as time stamps are; 10% delayed.
                            final long time = random.nextInt(10) == 0 ? random.nextLong(clock.get())
                                    : clock.incrementAndGet();
                            final long key = time * THREADS + me;
                            final long value = random.nextLong();
                            tree.put(key, value);
                            oracle.put(key, value);
                            mine.add(key);
                        } else if (dice < 80) {
                            final long key = mine.get(random.nextInt(mine.size()));
                            tree.remove(key);
                            oracle.remove(key);
                        } else {
                            final long key = mine.get(random.nextInt(mine.size()));
                            final Long expected = oracle.get(key);
                            assertEquals(expected == null ? -1L : expected, tree.getOrDefault(key, -1L),
                                    "own key " + key);
                        }
                    }
                }));
            }
            final Thread reader = thread(failure, () -> {
                final SplittableRandom random = new SplittableRandom(seedOffset + 99);
                while (writing.get()) {
                    final long lo = random.nextLong(Math.max(1, clock.get() * THREADS));
                    final long[] last = {Long.MIN_VALUE};
                    final boolean[] first = {true};
                    tree.forEachInRange(lo, lo + 2_000, (k, v) -> {
                        if (!first[0] && k <= last[0]) {
                            fail("scan out of order: " + k + " after " + last[0]);
                        }
                        first[0] = false;
                        last[0] = k;
                    });
                    tree.size();
                }
            });
            startAll(threads);
            reader.start();
            joinAll(threads);
            writing.set(false);
            reader.join();
            rethrow(failure);
            final TreeMap<Long, Long> union = new TreeMap<>();
            oracles.forEach(union::putAll);
            SBTreeOracleTest.assertSameContent(tree, union);
            SBTreeValidator.check(tree);
        }
    }

    /**
     * All threads write one small key space in phases separated by a barrier; inside a phase their writes race.
     * After each phase every key must hold the last write of one of the threads that wrote it in that phase (or
     * be unchanged): a write from an earlier phase never wins. The key space moves up every few phases, so the
     * races happen inside segmented blocks (the write stamps decide) as well as in data blocks (the lock does).
     */
    @ParameterizedTest(name = "shared keys, block size {0}")
    @ValueSource(ints = {512, 4096})
    void sharedKeysLatestWriteWins(final int blockSize) throws Exception {
        final int keys = 300;
        final int phases = 40;
        try (SBTree tree = Indexes.sbTree().blockSize(blockSize).maxPerThreadBlocks(8).build()) {
            final Map<Long, Long> state = new HashMap<>();
            // Per thread: key -> the thread's last value in the phase (null: a remove).
            final List<Map<Long, Long>> lastWrites = new ArrayList<>(java.util.Collections.nCopies(THREADS, null));
            final CyclicBarrier start = new CyclicBarrier(THREADS + 1);
            final CyclicBarrier end = new CyclicBarrier(THREADS + 1);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                final int me = t;
                threads.add(thread(failure, () -> {
                    final SplittableRandom random = new SplittableRandom(seedOffset + me * 31L);
                    for (int p = 0; p < phases; p++) {
                        start.await(60, java.util.concurrent.TimeUnit.SECONDS);
                        final long base = (p / 4) * 1_000_000L;
                        final Map<Long, Long> mine = new HashMap<>();
                        for (int i = 0; i < 400; i++) {
                            final long key = base + random.nextInt(keys);
                            if (random.nextInt(8) == 0) {
                                tree.remove(key);
                                mine.put(key, null);
                            } else {
                                final long value = ((long) p << 40) | ((long) me << 32) | i;
                                tree.put(key, value);
                                mine.put(key, value);
                            }
                        }
                        lastWrites.set(me, mine);
                        end.await(60, java.util.concurrent.TimeUnit.SECONDS);
                    }
                }));
            }
            startAll(threads);
            for (int p = 0; p < phases; p++) {
                start.await(60, java.util.concurrent.TimeUnit.SECONDS);
                end.await(60, java.util.concurrent.TimeUnit.SECONDS);
                final Map<Long, List<Long>> candidates = new HashMap<>();
                final Map<Long, Boolean> removable = new HashMap<>();
                for (int t = 0; t < THREADS; t++) {
                    for (final Map.Entry<Long, Long> e : lastWrites.get(t).entrySet()) {
                        candidates.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
                        if (e.getValue() == null) {
                            removable.put(e.getKey(), true);
                        }
                    }
                }
                for (final Map.Entry<Long, List<Long>> e : candidates.entrySet()) {
                    final long key = e.getKey();
                    final boolean present = tree.containsKey(key);
                    final long value = tree.getOrDefault(key, -1L);
                    if (!present) {
                        assertTrue(removable.containsKey(key), "key " + key + " lost in phase " + p);
                        state.remove(key);
                    } else {
                        assertTrue(e.getValue().contains(value), "key " + key + " holds " + Long.toHexString(value)
                                + ", not a last write of phase " + p + ": " + e.getValue());
                        state.put(key, value);
                    }
                }
                for (final Map.Entry<Long, Long> e : state.entrySet()) {
                    if (!candidates.containsKey(e.getKey())) {
                        assertEquals(e.getValue(), tree.getOrDefault(e.getKey(), -1L), "untouched key " + e.getKey());
                    }
                }
            }
            joinAll(threads);
            rethrow(failure);
            SBTreeOracleTest.assertSameContent(tree, new TreeMap<>(state));
            SBTreeValidator.check(tree);
        }
    }

    /**
     * Once {@code put} returns, every read that starts afterwards sees it, in any thread, whatever conversion is
     * under way; once {@code remove} returns, none does. The writer announces the keys it is about to remove
     * before removing them ({@code removingBelow}) and the keys it has removed after ({@code removedBelow}): a
     * reader expects a key present only when it is below neither bound read after its lookup, and absent only
     * when it was below {@code removedBelow} before. Readers sometimes stall until the writer reaches the removal
     * of the key they are about to read, so the lookup often lands between a remove and the next bound (a stalled
     * reader on a loaded machine did that, and the single bound read then flagged a correct absence).
     */
    @Test
    void aCompletedWriteIsVisibleToEveryThread() throws Exception {
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(2).build()) {
            final AtomicLong written = new AtomicLong(-1);
            final AtomicLong removedBelow = new AtomicLong(0);
            final AtomicLong removingBelow = new AtomicLong(0);
            final int n = 200_000;
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread writer = thread(failure, () -> {
                for (int i = 0; i < n; i++) {
                    tree.put(i, -i);
                    written.set(i);
                    if (i % 3 == 0 && i > 1000) {
                        final long old = i - 1002; // 0, 3, 6, ...: every key below removedBelow
                        removingBelow.set(old + 3);
                        tree.remove(old);
                        tree.remove(old + 1);
                        tree.remove(old + 2);
                        removedBelow.set(old + 3);
                    }
                }
            });
            final List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                final int seed = r;
                readers.add(thread(failure, () -> {
                    final SplittableRandom random = new SplittableRandom(seedOffset + seed);
                    while (written.get() < n - 1) {
                        final long gone = removedBelow.get();
                        final long last = written.get();
                        if (last >= 0) {
                            final long recent = Math.max(gone, last - random.nextInt(50));
                            if (random.nextInt(64) == 0) {
                                // Stall until the writer is about to remove the key (as a descheduled reader does).
                                while (written.get() < Math.min(recent + 1002, n - 1)) {
                                    Thread.onSpinWait();
                                }
                            }
                            final long value = tree.getOrDefault(recent, 1L);
                            // Unless the writer removed it meanwhile, the key is there.
                            if (recent <= last && recent >= removingBelow.get()) {
                                assertEquals(-recent, value, "written " + recent);
                            }
                        }
                        if (gone > 0) {
                            final long old = random.nextLong(gone);
                            assertFalse(tree.containsKey(old), "removed " + old);
                        }
                    }
                }));
            }
            writer.start();
            startAll(readers);
            writer.join();
            joinAll(readers);
            rethrow(failure);
            assertEquals(n - removedBelow.get(), tree.size());
            SBTreeValidator.check(tree);
        }
    }

    /**
     * Scans racing with writers: the even keys never change and must all be seen, in order, with their values;
     * odd keys come and go and may or may not be.
     */
    @Test
    void scansAreWeaklyConsistent() throws Exception {
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(3).build()) {
            final int stable = 20_000;
            for (int i = 0; i < stable; i++) {
                tree.put(2L * i, i);
            }
            final AtomicBoolean writing = new AtomicBoolean(true);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                final int seed = w;
                writers.add(thread(failure, () -> {
                    final SplittableRandom random = new SplittableRandom(seedOffset + seed + 7);
                    for (int op = 0; op < 100_000; op++) {
                        final long key = 2L * random.nextInt(stable + 5_000) + 1;
                        if (random.nextBoolean()) {
                            tree.put(key, -key);
                        } else {
                            tree.remove(key);
                        }
                    }
                }));
            }
            final List<Thread> scanners = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                final int seed = s;
                scanners.add(thread(failure, () -> {
                    final SplittableRandom random = new SplittableRandom(seedOffset + seed + 70);
                    while (writing.get()) {
                        final long lo = random.nextInt(2 * stable);
                        final long hi = lo + random.nextInt(3_000);
                        final long[] expectEven = {lo % 2 == 0 ? lo : lo + 1};
                        final long[] last = {Long.MIN_VALUE};
                        tree.forEachInRange(lo, hi, (k, v) -> {
                            assertTrue(k > last[0], "scan order");
                            last[0] = k;
                            if (k % 2 == 0) {
                                assertEquals(expectEven[0], k, "stable key missed before " + k);
                                assertEquals(k / 2, v);
                                expectEven[0] = k + 2;
                            } else {
                                assertEquals(-k, v);
                            }
                        });
                        final long end = Math.min(hi, 2L * (stable - 1));
                        assertTrue(expectEven[0] > end, "stable keys up to " + end + " seen, got to " + expectEven[0]);
                    }
                }));
            }
            startAll(writers);
            startAll(scanners);
            joinAll(writers);
            writing.set(false);
            joinAll(scanners);
            rethrow(failure);
            SBTreeValidator.check(tree);
        }
    }

    /** The §V-A stream claimed in chunks by several threads (a shared clock), 0–50% delayed data (§V-D). */
    @ParameterizedTest(name = "time series by {0} threads with delayed data")
    @ValueSource(ints = {0, 10, 50})
    void timeSeriesIngestedByManyThreads(final int delayedPercent) throws Exception {
        final int n = 300_000;
        final long[] stream = new long[n];
        final TimeSeriesStream generator = new TimeSeriesStream(seedOffset + delayedPercent, delayedPercent / 100.0,
                1);
        final Map<Long, Integer> lastIndex = new HashMap<>();
        for (int i = 0; i < n; i++) {
            stream[i] = generator.next();
            lastIndex.put(stream[i], i);
        }
        try (SBTree tree = Indexes.sbTree().blockSize(1024).maxPerThreadBlocks(8).build()) {
            final AtomicInteger cursor = new AtomicInteger();
            final ConcurrentHashMap<Long, Long> written = new ConcurrentHashMap<>();
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                threads.add(thread(failure, () -> {
                    for (int from; (from = cursor.getAndAdd(16)) < n; ) {
                        for (int i = from; i < Math.min(n, from + 16); i++) {
                            // Duplicates of a key may race: only the last occurrence's thread writes it.
                            if (lastIndex.get(stream[i]) == i) {
                                tree.put(stream[i], i);
                                written.put(stream[i], (long) i);
                            }
                        }
                    }
                }));
            }
            startAll(threads);
            joinAll(threads);
            rethrow(failure);
            SBTreeOracleTest.assertSameContent(tree, new TreeMap<>(written));
            SBTreeValidator.check(tree);
            assertTrue(tree.stats().counter(SBTree.CONVERSIONS) > 0);
        }
    }

    /** Old data deleted by one thread while others append new data: blocks are unlinked and reused. */
    @Test
    void retentionDeletesWhileIngesting() throws Exception {
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(4).build()) {
            final int writers = 2;
            final AtomicLong next = new AtomicLong();
            // Each writer publishes a lower bound of the key it is writing: keys below every bound are written.
            final java.util.concurrent.atomic.AtomicLongArray inFlight = new java.util.concurrent.atomic.AtomicLongArray(
                    writers);
            final AtomicLong deletedBelow = new AtomicLong();
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < writers; t++) {
                final int me = t;
                threads.add(thread(failure, () -> {
                    for (int i = 0; i < 60_000; i++) {
                        inFlight.set(me, next.get());
                        final long key = next.getAndIncrement();
                        tree.put(key, key);
                    }
                    inFlight.set(me, Long.MAX_VALUE);
                }));
            }
            final Thread deleter = thread(failure, () -> {
                long k = 0;
                int idle = 0;
                while (k < 100_000) {
                    long written = next.get();
                    for (int t = 0; t < writers; t++) {
                        written = Math.min(written, inFlight.get(t));
                    }
                    if (k + 5_000 < written) {
                        tree.remove(k);
                        deletedBelow.set(++k);
                        idle = 0;
                    } else {
                        backOff(idle++); // the writers need the cores (CI has two)
                    }
                }
            });
            startAll(threads);
            deleter.start();
            joinAll(threads);
            deleter.join();
            rethrow(failure);
            final TreeMap<Long, Long> expected = new TreeMap<>();
            for (long k = deletedBelow.get(); k < next.get(); k++) {
                expected.put(k, k);
            }
            SBTreeOracleTest.assertSameContent(tree, expected);
            SBTreeValidator.check(tree);
            assertTrue(tree.stats().counter(SBTree.UNLINKED_BLOCKS) > 100, tree.stats()::toString);
        }
    }

    /** Waiting for other test threads: spins briefly, yields, then parks, so that waiters leave the cores free. */
    static void backOff(final int spins) {
        VersionLock.backOff(spins);
    }

    static Thread thread(final AtomicReference<Throwable> failure, final ThrowingRunnable body) {
        final Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (final Throwable t) {
                failure.compareAndSet(null, t);
            }
        });
        thread.setDaemon(true);
        return thread;
    }

    static void startAll(final List<Thread> threads) {
        threads.forEach(Thread::start);
    }

    static void joinAll(final List<Thread> threads) throws InterruptedException {
        for (final Thread thread : threads) {
            thread.join(120_000);
            assertFalse(thread.isAlive(), "thread still running: " + thread.getName());
        }
    }

    static void rethrow(final AtomicReference<Throwable> failure) {
        final Throwable t = failure.get();
        if (t != null) {
            throw new AssertionError("a thread failed: " + t, t);
        }
        assertNull(t);
    }

    /** A thread body that may throw. */
    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
