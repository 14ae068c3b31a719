package io.nearsort.core.btree;

import io.nearsort.core.Indexes;
import io.nearsort.core.memory.SlabPool;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Point reads beside the writer ({@link BPlusTreeBuilder#concurrentReads}): reader threads look up keys while one
 * thread inserts, updates, deletes and bulk-appends around them, on tiny pages so that nearly every write shifts,
 * splits or frees nodes, and the root grows and collapses. Keys {@code ≡ 0 (mod 4)} are written once before the
 * readers start and never touched again: every read of one must find its value. Keys {@code ≡ 2 (mod 4)} are never
 * written: every read must miss. The writer works on the odd keys in between, so its shifts and splits move the
 * stable keys around within and across nodes. Without the node versions (the writer's marks), readers find stable
 * keys missing or with a neighbour's value within milliseconds.
 */
@Timeout(value = 300, unit = java.util.concurrent.TimeUnit.SECONDS) // a hang fails, rather than stalls the build
class BPlusTreeConcurrentReadsTest {
    private static final int READERS = 3;
    /**
     * The writer's minimum run: it goes on until it wrote {@link #MIN_WRITES} times and each reader read
     * {@link #MIN_READS_EACH} times beside it, however the threads are scheduled (a reader descheduled for the whole
     * 700 ms on a loaded 2-core machine once left the run without reads).
     */
    private static final long RUN_NANOS = 700_000_000L;
    private static final long MIN_WRITES = 10_000;
    private static final long MIN_READS_EACH = 4_000;

    private static long valueOf(final long key) {
        return key * 31 + 7;
    }

    @ParameterizedTest(name = "{0} stable keys, {1}-byte pages")
    @CsvSource({"20000, 512", "3, 512", "50000, 4096"})
    void readsBesideTheWriterSeeEveryStableKeyAndNoAbsentOne(final int stableKeys, final int pageSize)
            throws InterruptedException {
        try (BPlusTree tree = Indexes.bPlusTree().pageSize(pageSize).concurrentReads(true)
                .slabPool(SlabPool.disabled()).build()) {
            for (long i = 0; i < stableKeys; i++) {
                tree.put(4 * i, valueOf(4 * i));
            }
            final long span = 4L * stableKeys;
            final AtomicBoolean stop = new AtomicBoolean();
            final AtomicReference<String> failure = new AtomicReference<>();
            final AtomicLong reads = new AtomicLong();
            final AtomicLongArray readsBy = new AtomicLongArray(READERS);
            final AtomicBoolean clockRanOut = new AtomicBoolean();
            final Thread[] readers = new Thread[READERS];
            for (int r = 0; r < READERS; r++) {
                final int seed = r;
                readers[r] = new Thread(() -> {
                    final SplittableRandom random = new SplittableRandom(seed);
                    long done = 0;
                    if (seed == 0) {
                        // Held until the writer's clock ran out, as a reader descheduled that long is: the writer
                        // must still wait for its reads (a clock-bound writer leaves it none, every run).
                        while (!clockRanOut.get()) {
                            Thread.onSpinWait();
                        }
                    }
                    try {
                        while (!stop.get() && failure.get() == null) {
                            final long stable = 4 * random.nextLong(stableKeys);
                            final long got = tree.getOrDefault(stable, Long.MIN_VALUE);
                            if (got != valueOf(stable) || !tree.containsKey(stable)) {
                                failure.compareAndSet(null, "stable key " + stable + " read as " + got);
                            }
                            final long absent = 4 * random.nextLong(stableKeys + 1) + 2;
                            if (tree.containsKey(absent) || tree.getOrDefault(absent, -1L) != -1L) {
                                failure.compareAndSet(null, "never-written key " + absent + " found");
                            }
                            done += 4;
                            readsBy.set(seed, done);
                        }
                    } catch (final RuntimeException | Error e) {
                        failure.compareAndSet(null, "reader-" + seed + " failed: " + e); // the writer stops
                    }
                    reads.addAndGet(done);
                }, "reader-" + r);
                readers[r].start();
            }
            final long writes = write(tree, span, stop, failure, clockRanOut, readsBy);
            for (final Thread reader : readers) {
                reader.join();
            }
            assertNull(failure.get());
            for (int r = 0; r < READERS; r++) {
                assertTrue(readsBy.get(r) >= MIN_READS_EACH, "reader-" + r + " read " + readsBy.get(r) + " times");
            }
            assertTrue(reads.get() > 10_000 && writes > 10_000, reads + " reads, " + writes + " writes");
            tree.reclaimRetired();
            assertEquals(0, tree.stats().counter(BPlusTree.RETIRED_PAGES));
            for (long i = 0; i < stableKeys; i++) {
                assertEquals(valueOf(4 * i), tree.getOrDefault(4 * i, Long.MIN_VALUE));
            }
        }
    }

    /**
     * The interleaving the order of a read's steps exists for, made to happen: a read has taken a child's address
     * from its parent when the writer splits that child, moving the key to the new sibling, and updates the parent;
     * the read then reads the child's (new, even) version. The child no longer holds the key, and nothing in it
     * will change again, so only the check that the parent's version has not moved since sends the read back to
     * the root, where it finds the key in the sibling.
     */
    @org.junit.jupiter.api.Test
    void aReadThatFollowedAPointerBeforeASplitStartsAgain() throws InterruptedException {
        try (BPlusTree tree = Indexes.bPlusTree().pageSize(512).concurrentReads(true).build()) {
            for (long key = 0; key < 60; key += 2) {
                tree.put(key, valueOf(key)); // one full 30-entry leaf
            }
            tree.put(10_000, valueOf(10_000)); // split 16:15 under a new root: 0, 2, ..., 30 stay in the first leaf
            for (long key = 1; key < 28; key += 2) {
                tree.put(key, valueOf(key)); // the first leaf is full again: 0..28 and 30
            }
            assertEquals(2, tree.height());
            assertEquals(1, tree.stats().leafSplits());
            final long target = 30; // the last entry of the first leaf: the next split there moves it right
            final java.util.concurrent.CountDownLatch atChild = new java.util.concurrent.CountDownLatch(1);
            final java.util.concurrent.CountDownLatch split = new java.util.concurrent.CountDownLatch(1);
            tree.descentHook = () -> {
                tree.descentHook = null; // the first descent only
                atChild.countDown();
                try {
                    split.await();
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            final AtomicLong read = new AtomicLong();
            final Thread reader = new Thread(() -> read.set(tree.getOrDefault(target, Long.MIN_VALUE)));
            reader.start();
            atChild.await();
            final long leafSplits = tree.stats().leafSplits();
            tree.put(-1, valueOf(-1)); // splits the first leaf
            assertEquals(leafSplits + 1, tree.stats().leafSplits());
            split.countDown();
            reader.join();
            assertEquals(valueOf(target), read.get());
        }
    }

    private static boolean readEnough(final AtomicLongArray readsBy) {
        for (int r = 0; r < readsBy.length(); r++) {
            if (readsBy.get(r) < MIN_READS_EACH) {
                return false;
            }
        }
        return true;
    }

    /**
     * The writer: runs of odd keys inserted in random order and deleted again (leaf splits, shifts, freed leaves
     * and internal nodes, a root that grows and collapses), updates, and bulk appends past the largest key that
     * are deleted again. Returns the number of writes.
     */
    private static long write(final BPlusTree tree, final long span, final AtomicBoolean stop,
                              final AtomicReference<String> failure, final AtomicBoolean clockRanOut,
                              final AtomicLongArray readsBy) {
        final SplittableRandom random = new SplittableRandom(99);
        final long deadline = System.nanoTime() + RUN_NANOS;
        long writes = 0;
        try {
            // The clock is a minimum: the writer goes on until every reader has read beside it (CI has two cores).
            while (failure.get() == null && (!clockRanOut.get() || writes < MIN_WRITES || !readEnough(readsBy))) {
                if (System.nanoTime() >= deadline) {
                    clockRanOut.set(true);
                }
                final int burst = 1 + random.nextInt(2_000);
                final long from = random.nextLong(span);
                final long[] keys = new long[burst];
                for (int i = 0; i < burst; i++) {
                    keys[i] = (from + 2L * random.nextInt(4 * burst)) | 1; // odd keys around the stable ones
                }
                if (random.nextBoolean()) {
                    for (final long key : keys) {
                        tree.put(key, -key);
                    }
                } else {
                    // As an SA flush writes its top-inserts: one leaf's inserts published together.
                    java.util.Arrays.sort(keys);
                    final long[] values = new long[burst];
                    for (int i = 0; i < burst; i++) {
                        values[i] = -keys[i];
                    }
                    tree.putAscending(keys, values, 0, burst);
                }
                // The writer reads its own writes without the readers' checks (getOrDefaultByWriter).
                for (int i = 0; i < burst; i += 7) {
                    final long stable = 4 * random.nextLong(span / 4);
                    if (tree.getOrDefaultByWriter(keys[i], Long.MIN_VALUE) != -keys[i]
                            || !tree.containsKeyByWriter(keys[i])
                            || tree.getOrDefaultByWriter(stable, Long.MIN_VALUE) != valueOf(stable)
                            || tree.containsKeyByWriter(stable + 2)) {
                        failure.compareAndSet(null, "the writer's own read of " + keys[i] + ", " + stable + " or "
                                + (stable + 2) + " was wrong");
                    }
                }
                for (int i = 0; i < burst; i += 3) {
                    tree.put(keys[i], keys[i]); // an update in place
                }
                for (final long key : keys) {
                    tree.remove(key);
                }
                writes += 2L * burst + burst / 3;
                if (random.nextInt(8) == 0) {
                    final long base = tree.lastKey() + 1;
                    final long[] run = new long[1 + random.nextInt(300)];
                    for (int i = 0; i < run.length; i++) {
                        run[i] = base + 2L * i + (base % 2 == 0 ? 1 : 0);
                    }
                    tree.bulkAppend(run, run, 0, run.length);
                    for (final long key : run) {
                        tree.remove(key);
                    }
                    writes += 2L * run.length;
                }
            }
        } catch (final RuntimeException | Error e) {
            failure.compareAndSet(null, "the writer failed: " + e);
        } finally {
            clockRanOut.set(true);
            stop.set(true);
        }
        return writes;
    }
}
