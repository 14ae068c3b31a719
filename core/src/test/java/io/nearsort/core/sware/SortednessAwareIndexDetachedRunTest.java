package io.nearsort.core.sware;

import io.nearsort.core.AppendableLongIndex;
import io.nearsort.core.Concurrency;
import io.nearsort.core.IndexStats;
import io.nearsort.core.Indexes;
import io.nearsort.core.LongCursor;
import io.nearsort.core.LongLongConsumer;
import io.nearsort.core.btree.BPlusTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ConcurrentModificationException;
import java.util.NavigableMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A flush cycle's run goes to the tree after the buffer's lock is released (§IV-D). A tree that stalls inside
 * that write shows what proceeds meanwhile (appends, reads the buffer answers) and what waits (reads of the
 * tree, and tree writes, which must not overtake the run); a tree that fails shows the index refusing further
 * use rather than answering without the entries that were lost.
 */
@Timeout(60)
class SortednessAwareIndexDetachedRunTest {
    /** Buffer of 64 over 512-byte pages: zones of 28 entries, so a flush of the sorted buffer detaches 0..27. */
    private static final int CAPACITY = 64;

    @Test
    void bufferWorkProceedsWhileARunIsOnItsWayAndTreeReadsWaitForIt() throws Exception {
        final StallingTree tree = new StallingTree(Indexes.bPlusTree().pageSize(512).build());
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(CAPACITY).over(tree)) {
            final Thread flusher = stallAFlush(index, tree);
            try {
                // The buffer's lock is free: appends and reads the buffer answers go ahead.
                index.put(1_000, 1);
                index.putAll(new long[] {1_001, 1_002}, new long[] {2, 3}, 0, 2);
                index.remove(50); // inside the buffer's key range: a tombstone
                assertEquals(1, index.getOrDefault(1_000, -1));
                assertEquals(63, index.getOrDefault(63, -1));
                assertEquals(-1, index.getOrDefault(50, -1));

                // A read of a detached key waits for the run rather than missing it.
                final FutureTask<Long> reader = new FutureTask<>(() -> index.getOrDefault(2, -1));
                start(reader);
                assertThrows(TimeoutException.class, () -> reader.get(200, TimeUnit.MILLISECONDS));
                tree.release();
                assertEquals(2, reader.get(10, TimeUnit.SECONDS));
                flusher.join();
            } finally {
                tree.release(); // after a failed assertion too, so that close() does not wait forever
            }
            final long[] sum = {0};
            final long count = index.forEachInRange(Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> sum[0] += k);
            assertEquals(CAPACITY + 1 - 1 + 3, count);
            assertEquals(CAPACITY * (CAPACITY + 1L) / 2 - 50 + 1_000 + 1_001 + 1_002, sum[0]);
            assertEquals(count, index.size());
        }
        assertEquals(0, tree.delegate.bytesInUse());
    }

    /**
     * Over a tree that takes point reads beside its writer, point reads do not wait for the run: a read of a
     * detached key (or of its tombstone) finds it in the run, any other read asks the tree. Scans still wait.
     */
    @ParameterizedTest
    @EnumSource(value = Concurrency.class, names = {"MULTI_WRITER", "SINGLE_WRITER"})
    void pointReadsGoOnBesideTheRunOnItsWay(final Concurrency concurrency) throws Exception {
        final StallingTree tree = new StallingTree(
                Indexes.bPlusTree().pageSize(512).concurrentReads(true).build(), true);
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(CAPACITY).concurrency(concurrency)
                .over(tree)) {
            for (long key = 0; key < CAPACITY - 1; key++) {
                index.put(key, key);
            }
            index.remove(10); // a tombstone: the flush keeps it as key 10's newest entry, in the run
            tree.stallNextWrite();
            final Thread flusher = start(() -> index.put(CAPACITY, CAPACITY));
            assertTrue(tree.stalled.await(10, TimeUnit.SECONDS), "the run should reach the tree");
            try {
                final FutureTask<long[]> reader = new FutureTask<>(() -> new long[] {
                    index.getOrDefault(2, -1), index.getOrDefault(10, -1), index.containsKey(10) ? 1 : 0,
                    index.getOrDefault(5_000, -1), index.containsKey(27) ? 1 : 0, index.getOrDefault(40, -1)});
                start(reader);
                assertEquals(java.util.List.of(2L, -1L, 0L, -1L, 1L, 40L),
                        java.util.Arrays.stream(reader.get(10, TimeUnit.SECONDS)).boxed().toList());
                assertEquals(0, tree.readsAloneBesideWrite.get(), "a read skipped the tree's checks beside its write");
                final FutureTask<Long> scanner = new FutureTask<>(() -> index.forEachInRange(0, 5, (k, v) -> { }));
                start(scanner);
                assertThrows(TimeoutException.class, () -> scanner.get(200, TimeUnit.MILLISECONDS));
                tree.release();
                assertEquals(6, scanner.get(10, TimeUnit.SECONDS));
                flusher.join();
            } finally {
                tree.release();
            }
            assertEquals(-1, index.getOrDefault(10, -1));
            assertEquals(CAPACITY - 1, index.size());
        }
        assertEquals(0, tree.delegate.bytesInUse());
    }

    /**
     * A strictly ascending batch past the empty buffer goes to the tree beside point reads (a single writer takes
     * no lock for it, a multi-writer index releases the buffer's lock before the tree write): a tree stalled
     * halfway through it shows point reads going on, seeing none of the batch (not even the half already in the
     * tree) until it is all there, and scans, sizes and other writers waiting for it. With the bulk append under
     * the buffer's exclusive lock, as before, the point reads wait; with the tree's largest key as the bound of
     * what they read, they see half the batch. None of those reads may skip the tree's version checks (a single
     * writer's readers because the writer announced the batch, a multi-writer index's because the batch is on its
     * way), and once the batch is in, reads skip them again: the tree counts the reads that skip them.
     */
    @ParameterizedTest
    @EnumSource(value = Concurrency.class, names = {"MULTI_WRITER", "SINGLE_WRITER"})
    void aSortedBatchGoesToTheTreeBesidePointReadsAndIsSeenWhole(final Concurrency concurrency) throws Exception {
        final StallingTree tree = new StallingTree(
                Indexes.bPlusTree().pageSize(512).concurrentReads(true).build(), true);
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(CAPACITY).concurrency(concurrency)
                .over(tree)) {
            final CountDownLatch firstBatch = new CountDownLatch(1);
            final CountDownLatch armed = new CountDownLatch(1);
            final FutureTask<Void> writes = twoSortedBatches(index, firstBatch, armed);
            final Thread writer = start(writes);
            assertTrue(firstBatch.await(10, TimeUnit.SECONDS));
            tree.stallMidwayNextWrite();
            armed.countDown();
            assertTrue(tree.stalled.await(10, TimeUnit.SECONDS), "the batch should reach the tree");
            try {
                assertTrue(tree.delegate.containsKey(200), "half the batch is in the tree");
                final long[] batch = {139, 200, 100};
                final FutureTask<java.util.List<Long>> reader = new FutureTask<>(() -> {
                    final long[] found = new long[batch.length];
                    index.getAll(batch, found, 0, batch.length, 1);
                    return java.util.List.of(
                            index.getOrDefault(200, 1), index.getOrDefault(200 + CAPACITY, 1),
                            index.containsKey(200) ? 1L : 0L, index.getOrDefault(139, 1),
                            index.getOrDefault(100, 1), index.getOrDefault(140, 1), found[0], found[1], found[2]);
                });
                start(reader);
                assertEquals(java.util.List.of(1L, 1L, 0L, -139L, -100L, 1L, -139L, 1L, -100L),
                        reader.get(10, TimeUnit.SECONDS), "point reads go on and see none of the batch yet");
                assertEquals(0, tree.readsAloneBesideWrite.get(),
                        "a point read skipped the tree's version checks beside its write");
                final boolean multiWriter = concurrency == Concurrency.MULTI_WRITER;
                final FutureTask<Long> other = new FutureTask<>(() -> {
                    index.put(150, 7); // below the batch, in the buffer: it must not overtake the batch
                    return index.getOrDefault(150, 1);
                });
                if (multiWriter) {
                    start(other);
                    assertThrows(TimeoutException.class, () -> other.get(200, TimeUnit.MILLISECONDS));
                }
                final FutureTask<Long> scanner = new FutureTask<>(() -> index.forEachInRange(0, 300, (k, v) -> { }));
                final FutureTask<Long> sizer = new FutureTask<>(index::size);
                start(scanner);
                start(sizer);
                assertThrows(TimeoutException.class, () -> scanner.get(200, TimeUnit.MILLISECONDS));
                assertThrows(TimeoutException.class, () -> sizer.get(10, TimeUnit.MILLISECONDS));
                tree.release();
                writes.get(10, TimeUnit.SECONDS);
                assertTrue(scanner.get(10, TimeUnit.SECONDS) >= 40 + 101);
                assertTrue(sizer.get(10, TimeUnit.SECONDS) >= 40 + 3 * CAPACITY);
                if (multiWriter) {
                    assertEquals(7, other.get(10, TimeUnit.SECONDS));
                }
                writer.join();
            } finally {
                tree.release();
            }
            assertEquals(40 + 3 * CAPACITY + (concurrency == Concurrency.MULTI_WRITER ? 1 : 0), index.size());
            final int alone = tree.readsAlone.get();
            assertEquals(-200L - 3 * CAPACITY + 1, index.getOrDefault(200 + 3 * CAPACITY - 1, 1));
            assertEquals(-200, index.getOrDefault(200, 1));
            assertEquals(alone + 2, tree.readsAlone.get(), "with no tree write running, reads skip the checks");
            assertEquals(40 + 3 * CAPACITY, index.stats().counter(SwareCounters.ENTRIES_PAST_BUFFER));
            assertEquals(0, index.stats().counter(SwareCounters.FLUSHED_ENTRIES));
        }
        assertEquals(0, tree.delegate.bytesInUse());
    }

    /**
     * A single writer's sorted batch past the empty buffer waits, before its tree write, for a point read that is
     * reading the tree without the version checks ({@code ReadIndicator.announceTreeWrite}): the tree stalls such a
     * read, and the batch's bulk append must not begin until the read is let go.
     */
    @Test
    void aSingleWritersSortedBatchWaitsForTheReadWithoutChecks() throws Exception {
        final StallingTree tree = new StallingTree(
                Indexes.bPlusTree().pageSize(512).concurrentReads(true).build(), true);
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(CAPACITY)
                .concurrency(Concurrency.SINGLE_WRITER).over(tree)) {
            final CountDownLatch firstBatch = new CountDownLatch(1);
            final CountDownLatch go = new CountDownLatch(1);
            final FutureTask<Void> writes = twoSortedBatches(index, firstBatch, go);
            final Thread writer = start(writes);
            assertTrue(firstBatch.await(10, TimeUnit.SECONDS));
            final int appends = tree.bulkAppends.get();
            tree.stallNextReadAlone();
            final FutureTask<Long> reader = new FutureTask<>(() -> index.getOrDefault(139, 1));
            start(reader);
            try {
                assertTrue(tree.readStalled.await(10, TimeUnit.SECONDS), "the read should skip the checks");
                go.countDown();
                assertThrows(TimeoutException.class, () -> writes.get(200, TimeUnit.MILLISECONDS));
                assertEquals(appends, tree.bulkAppends.get(), "the batch went into the tree beside the read");
            } finally {
                tree.releaseRead();
            }
            assertEquals(-139, reader.get(10, TimeUnit.SECONDS));
            writes.get(10, TimeUnit.SECONDS);
            writer.join();
            assertEquals(appends + 1, tree.bulkAppends.get());
            assertEquals(-200, index.getOrDefault(200, 1));
        }
        assertEquals(0, tree.delegate.bytesInUse());
    }

    /**
     * The sorted-batch tests' writer, one thread: keys 100..139 (value -key) into the empty tree (the locked path),
     * then {@code firstBatch} counted down and {@code go} awaited, then keys 200.. (3 buffer capacities, so the
     * batch goes whole) past the empty buffer, by the same writer.
     */
    private static FutureTask<Void> twoSortedBatches(final SortednessAwareIndex index, final CountDownLatch firstBatch,
                                                     final CountDownLatch go) {
        return new FutureTask<>(() -> {
            index.putAll(ascending(100, 40), ascending(-100, 40), 0, 40);
            firstBatch.countDown();
            go.await();
            index.putAll(ascending(200, 3 * CAPACITY), ascending(-200, 3 * CAPACITY), 0, 3 * CAPACITY);
            return null;
        });
    }

    /** {@code n} ascending longs from {@code first}, stepping by 1 (or -1 for a negative first). */
    private static long[] ascending(final long first, final int n) {
        final long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = first < 0 ? first - i : first + i;
        }
        return a;
    }

    @Test
    void aTreeWriteWaitsForTheRunOnItsWay() throws Exception {
        final StallingTree tree = new StallingTree(Indexes.bPlusTree().pageSize(512).build());
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(CAPACITY).over(tree)) {
            final Thread flusher = stallAFlush(index, tree);
            try {
                // Below the buffer's keys, a delete goes to the tree: overtaking the run would bring the key back.
                final Thread remover = start(() -> index.remove(1));
                while (remover.getState() != Thread.State.WAITING) {
                    assertTrue(remover.isAlive(), "the delete should wait for the run");
                    Thread.onSpinWait();
                }
                tree.release();
                flusher.join();
                remover.join();
            } finally {
                tree.release();
            }
            assertEquals(-1, index.getOrDefault(1, -1), "the delete comes after the run");
            assertEquals(2, index.getOrDefault(2, -1));
            assertEquals(CAPACITY, index.size());
        }
    }

    /**
     * A single-writer or single-thread index refuses a second thread's write while the first is inside one (here
     * stalled writing a flushed run to the tree), and accepts it once the first has finished.
     */
    @ParameterizedTest
    @EnumSource(value = Concurrency.class, names = {"SINGLE_WRITER", "SINGLE_THREAD"})
    void aSecondWriterIsRefusedWhileTheFirstIsInsideAWrite(final Concurrency concurrency) throws Exception {
        final StallingTree tree = new StallingTree(Indexes.bPlusTree().pageSize(512).build());
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(CAPACITY).concurrency(concurrency)
                .over(tree)) {
            final Thread flusher = stallAFlush(index, tree);
            try {
                final ConcurrentModificationException refused =
                        assertThrows(ConcurrentModificationException.class, () -> index.put(1_000, 1));
                assertTrue(refused.getMessage().contains("MULTI_WRITER"), refused.getMessage());
                assertThrows(ConcurrentModificationException.class,
                        () -> index.putAll(new long[] {1_001}, new long[] {1}, 0, 1));
                assertThrows(ConcurrentModificationException.class, () -> index.remove(5));
                tree.release();
                flusher.join();
            } finally {
                tree.release();
            }
            index.put(1_000, 7); // the first writer is done: the hand-over (join) orders the writes
            assertEquals(7, index.getOrDefault(1_000, -1));
            assertEquals(5, index.getOrDefault(5, -1), "the refused delete did nothing");
            assertEquals(CAPACITY + 2, index.size());
        }
        assertEquals(0, tree.delegate.bytesInUse());
    }

    /** Fills the buffer with 0..63, then has another thread's put flush it; returns once 0..27 stall in the tree. */
    private static Thread stallAFlush(final SortednessAwareIndex index, final StallingTree tree)
            throws InterruptedException {
        // 0..63 with 62 before 61, a late key: the full buffer is sorted and its flush keeps the half §IV-A keeps
        // (a strictly ascending buffer would go to the tree whole).
        for (long key = 0; key < CAPACITY; key++) {
            final long late = key == CAPACITY - 3 ? key + 1 : key == CAPACITY - 2 ? key - 1 : key;
            index.put(late, late);
        }
        tree.stallNextWrite();
        final Thread flusher = start(() -> index.put(CAPACITY, CAPACITY));
        assertTrue(tree.stalled.await(10, TimeUnit.SECONDS), "the run should reach the tree");
        return flusher;
    }

    @Test
    void aRunTheTreeFailsToTakeMakesTheIndexRefuseEveryOperation() {
        final StallingTree tree = new StallingTree(Indexes.bPlusTree().pageSize(512).build());
        final SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(CAPACITY).over(tree);
        for (long key = 0; key < CAPACITY; key++) {
            index.put(key, key);
        }
        final IllegalStateException injected = new IllegalStateException("injected tree failure");
        tree.failure = injected;
        assertSame(injected, assertThrows(IllegalStateException.class, () -> index.put(CAPACITY, 0)));

        final IllegalStateException refused =
                assertThrows(IllegalStateException.class, () -> index.getOrDefault(63, -1));
        assertTrue(refused.getMessage().contains("unusable"), refused.getMessage());
        assertSame(injected, refused.getCause());
        assertThrows(IllegalStateException.class, () -> index.put(1, 1));
        assertThrows(IllegalStateException.class, () -> index.putAll(new long[] {1}, new long[] {1}, 0, 1));
        assertThrows(IllegalStateException.class, () -> index.remove(1));
        assertThrows(IllegalStateException.class, () -> index.forEachInRange(0, 10, (k, v) -> { }));
        assertThrows(IllegalStateException.class, index::size);
        assertThrows(IllegalStateException.class, index::flush);
        index.close();
        assertEquals(0, tree.delegate.bytesInUse());
        final IllegalStateException closed =
                assertThrows(IllegalStateException.class, () -> index.getOrDefault(1, -1));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
    }

    private static Thread start(final Runnable body) {
        final Thread thread = new Thread(body);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** A B+-tree whose next write stalls until released, or fails. */
    private static final class StallingTree implements AppendableLongIndex {

        final BPlusTree delegate;
        /** Whether it passes on the delegate's point reads beside its writer. */
        final boolean readsBesideWriter;
        volatile CountDownLatch stalled;
        volatile CountDownLatch gate;
        volatile RuntimeException failure;
        final AtomicBoolean armed = new AtomicBoolean();
        /** Whether the next write stalls halfway through a bulk append rather than before it. */
        volatile boolean midway;
        /** Whether a write is inside the tree. */
        private volatile boolean writing;
        /** Point reads without the version checks ({@link #getOrDefaultByWriter}, {@link #containsKeyByWriter}). */
        final AtomicInteger readsAlone = new AtomicInteger();
        /** Those of {@link #readsAlone} that began while a write was inside the tree: none may. */
        final AtomicInteger readsAloneBesideWrite = new AtomicInteger();
        /** Bulk appends begun. */
        final AtomicInteger bulkAppends = new AtomicInteger();
        /** {@link #stallNextReadAlone}: counted down when the read stalls; the read waits for {@link #readGate}. */
        volatile CountDownLatch readStalled;
        private volatile CountDownLatch readGate;
        private final AtomicBoolean readArmed = new AtomicBoolean();

        StallingTree(final BPlusTree delegate) {
            this(delegate, false);
        }

        StallingTree(final BPlusTree delegate, final boolean readsBesideWriter) {
            this.delegate = delegate;
            this.readsBesideWriter = readsBesideWriter;
        }

        @Override
        public boolean concurrentPointReads() {
            return readsBesideWriter && delegate.concurrentPointReads();
        }

        @Override
        public long bytesInUse() {
            return delegate.bytesInUse();
        }

        @Override
        public void reclaimRetired() {
            delegate.reclaimRetired();
        }

        void stallNextWrite() {
            midway = false;
            stalled = new CountDownLatch(1);
            gate = new CountDownLatch(1);
            armed.set(true);
        }

        void stallMidwayNextWrite() {
            stallNextWrite();
            midway = true;
        }

        /** Makes the next read without the checks wait, inside the tree, until {@link #releaseRead}. */
        void stallNextReadAlone() {
            readStalled = new CountDownLatch(1);
            readGate = new CountDownLatch(1);
            readArmed.set(true);
        }

        void releaseRead() {
            final CountDownLatch g = readGate;
            if (g != null) {
                g.countDown();
            }
        }

        void release() {
            final CountDownLatch g = gate;
            if (g != null) {
                g.countDown();
            }
        }

        private void beforeWrite() {
            final RuntimeException fail = failure;
            if (fail != null) {
                failure = null;
                throw fail;
            }
            final CountDownLatch g = gate;
            if (g != null && armed.compareAndSet(true, false)) { // the next write only
                stalled.countDown();
                try {
                    g.await();
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }

        @Override
        public void put(final long key, final long value) {
            writing = true;
            try {
                beforeWrite();
                delegate.put(key, value);
            } finally {
                writing = false;
            }
        }

        @Override
        public void remove(final long key) {
            writing = true;
            try {
                beforeWrite();
                delegate.remove(key);
            } finally {
                writing = false;
            }
        }

        @Override
        public void bulkAppend(final long[] keys, final long[] values, final int from, final int to) {
            bulkAppends.incrementAndGet();
            writing = true;
            try {
                if (midway && to - from > 1 && armed.get()) {
                    final int mid = (from + to) >>> 1;
                    delegate.bulkAppend(keys, values, from, mid);
                    beforeWrite();
                    delegate.bulkAppend(keys, values, mid, to);
                    return;
                }
                beforeWrite();
                delegate.bulkAppend(keys, values, from, to);
            } finally {
                writing = false;
            }
        }

        @Override
        public long getOrDefaultByWriter(final long key, final long defaultValue) {
            countReadAlone();
            return delegate.getOrDefaultByWriter(key, defaultValue);
        }

        @Override
        public boolean containsKeyByWriter(final long key) {
            countReadAlone();
            return delegate.containsKeyByWriter(key);
        }

        private void countReadAlone() {
            readsAlone.incrementAndGet();
            if (writing) {
                readsAloneBesideWrite.incrementAndGet();
            }
            if (readArmed.compareAndSet(true, false)) {
                readStalled.countDown();
                try {
                    readGate.await();
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }

        @Override
        public long lastKey() {
            return delegate.lastKey();
        }

        @Override
        public int bulkLeafEntries() {
            return delegate.bulkLeafEntries();
        }

        @Override
        public void splitRatio(final double ratio) {
            delegate.splitRatio(ratio);
        }

        @Override
        public long getOrDefault(final long key, final long defaultValue) {
            return delegate.getOrDefault(key, defaultValue);
        }

        @Override
        public boolean containsKey(final long key) {
            return delegate.containsKey(key);
        }

        @Override
        public long forEachInRange(final long lo, final long hi, final LongLongConsumer consumer) {
            return delegate.forEachInRange(lo, hi, consumer);
        }

        @Override
        public long size() {
            return delegate.size();
        }

        @Override
        public boolean isEmpty() {
            return delegate.isEmpty();
        }

        @Override
        public LongCursor cursor() {
            return delegate.cursor();
        }

        @Override
        public IndexStats stats() {
            return delegate.stats();
        }

        @Override
        public NavigableMap<Long, Long> asNavigableMap() {
            return delegate.asNavigableMap();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
