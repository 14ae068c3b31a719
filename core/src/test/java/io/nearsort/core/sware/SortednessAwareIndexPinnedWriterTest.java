package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import io.nearsort.core.Indexes;
import io.nearsort.core.btree.BPlusTree;
import org.junit.jupiter.api.Test;

import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Concurrency#PINNED_WRITER}: the first writer owns the index for good, so that its own point reads can go
 * without a lock. What the pin forbids must be refused, not raced: the owner's reads would otherwise meet another
 * thread's writes or a close that frees the tree under them.
 */
class SortednessAwareIndexPinnedWriterTest {
    private static final int CAPACITY = 64;

    private static SortednessAwareIndex pinned(final BPlusTree tree) {
        return Indexes.saBPlusTree().bufferCapacity(CAPACITY).concurrency(Concurrency.PINNED_WRITER).over(tree);
    }

    private static BPlusTree tree() {
        return Indexes.bPlusTree().pageSize(512).concurrentReads(true).build();
    }

    /** Runs {@code action} on a new thread, after everything this thread did (start and join order it). */
    private static Throwable onAnotherThread(final Runnable action) throws InterruptedException {
        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        final Thread thread = new Thread(() -> {
            try {
                action.run();
            } catch (final Throwable t) {
                thrown.set(t);
            }
        }, "other");
        thread.start();
        thread.join();
        return thrown.get();
    }

    @Test
    void anotherThreadsWritesAreRefusedAndChangeNothing() throws InterruptedException {
        final BPlusTree tree = tree();
        try (SortednessAwareIndex index = pinned(tree)) {
            final TreeMap<Long, Long> oracle = new TreeMap<>();
            for (long k = 0; k < 3 * CAPACITY; k++) { // past the buffer: flush cycles, then lock-free appends
                index.put(k * 2, k);
                oracle.put(k * 2, k);
            }
            final Runnable[] writes = {
                () -> index.put(1, 1),
                () -> index.put(10_000, 1), // in order: the owner's lock-free append would take it
                () -> index.putAll(new long[] {20_001, 20_002}, new long[] {1, 2}, 0, 2),
                () -> index.putAll(new long[] {3, 1}, new long[] {1, 2}, 0, 2),
                () -> index.remove(4),
                index::flush,
            };
            for (final Runnable write : writes) {
                final Throwable refused = onAnotherThread(write);
                assertTrue(refused instanceof IllegalStateException, String.valueOf(refused));
                assertTrue(refused.getMessage().contains("pinned to thread " + Thread.currentThread().getName()),
                        refused.getMessage());
                assertTrue(refused.getMessage().contains("SINGLE_WRITER"), refused.getMessage());
            }
            assertEquals(oracle, index.asNavigableMap());
            // The owner goes on writing, in order and lock-free as before.
            index.put(100_000, 5);
            oracle.put(100_000L, 5L);
            assertEquals(oracle, index.asNavigableMap());
            // Other threads read.
            assertNull(onAnotherThread(() -> assertEquals(5, index.getOrDefault(100_000, -1))));
        }
        assertEquals(0, tree.bytesInUse());
    }

    @Test
    void anotherThreadClosesOnlyOnceTheOwnerHasTerminated() throws InterruptedException {
        final BPlusTree tree = tree();
        final SortednessAwareIndex index = pinned(tree);
        final CountDownLatch written = new CountDownLatch(1);
        final CountDownLatch finish = new CountDownLatch(1);
        final AtomicReference<Long> readAfterRefusal = new AtomicReference<>();
        final Thread owner = new Thread(() -> {
            for (long k = 0; k < 3 * CAPACITY; k++) {
                index.put(k, k);
            }
            written.countDown();
            try {
                finish.await();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            readAfterRefusal.set(index.getOrDefault(7, -1)); // still open: the close below was refused
        }, "owner");
        owner.start();
        written.await();
        final IllegalStateException refused = assertThrows(IllegalStateException.class, index::close);
        assertTrue(refused.getMessage().contains("pinned to thread owner while that thread is alive"),
                refused.getMessage());
        assertEquals(3 * CAPACITY, index.size());
        finish.countDown();
        owner.join();
        assertEquals(7L, readAfterRefusal.get());
        index.close(); // the owner has terminated
        assertEquals(0, tree.bytesInUse());
        index.close(); // idempotent, from any thread
        assertThrows(IllegalStateException.class, () -> index.getOrDefault(1, -1));
    }

    @Test
    void anIndexNoThreadWroteClosesFromAnyThread() throws InterruptedException {
        final BPlusTree tree = tree();
        final SortednessAwareIndex index = pinned(tree);
        assertNull(onAnotherThread(index::close));
        assertEquals(0, tree.bytesInUse());
        // Closed before any write: a first write finds it closed, and no thread is pinned.
        assertThrows(IllegalStateException.class, () -> index.put(1, 1));
        assertThrows(IllegalStateException.class, () -> index.getOrDefault(1, -1));
    }

    @Test
    void theOwnersReadsFailOnceItClosedTheIndex() {
        final BPlusTree tree = tree();
        final SortednessAwareIndex index = pinned(tree);
        index.put(1, 1);
        index.close();
        final IllegalStateException closed = assertThrows(IllegalStateException.class,
                () -> index.getOrDefault(1, -1));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        assertThrows(IllegalStateException.class, () -> index.containsKey(1));
        assertEquals(0, tree.bytesInUse());
    }

    /**
     * A single writer's reader asks the writer to sort the unsorted section at its next write (it may be
     * appending); the owner, who is that writer, sorts it at once, under the exclusive lock (§IV-C).
     */
    @Test
    void theOwnersReadSortsTheUnsortedSectionAtOnce() throws InterruptedException {
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(1_000).queryDrivenSortThreshold(0.1)
                .concurrency(Concurrency.PINNED_WRITER).build()) {
            for (long k = 0; k < 500; k++) {
                index.put((k * 7_919) % 1_000, k); // scrambled, all in the buffer
            }
            assertNull(onAnotherThread(() -> assertEquals(1, index.getOrDefault(7_919 % 1_000, -1))));
            assertEquals(0, index.stats().counter(SwareCounters.QUERY_DRIVEN_SORTS), "a reader does not sort");
            assertEquals(1, index.getOrDefault(7_919 % 1_000, -1));
            assertEquals(1, index.stats().counter(SwareCounters.QUERY_DRIVEN_SORTS), "the owner does");
            for (long k = 0; k < 500; k++) {
                assertEquals(k, index.getOrDefault((k * 7_919) % 1_000, -1));
                assertTrue(index.containsKey((k * 7_919) % 1_000));
            }
            assertFalse(index.containsKey(5_000));
        }
    }
}
