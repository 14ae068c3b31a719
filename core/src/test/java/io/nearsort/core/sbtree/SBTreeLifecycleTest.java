package io.nearsort.core.sbtree;

import io.nearsort.core.Indexes;
import io.nearsort.core.LongCursor;
import io.nearsort.core.LongIndex;
import io.nearsort.core.memory.SlabPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The builder's validation, and the index's lifecycle: {@code close()} frees every byte, ends the search-layer
 * thread, refuses everything afterwards, waits for the threads inside the index, and refuses to run from inside
 * a scan.
 */
@Timeout(value = 300, unit = java.util.concurrent.TimeUnit.SECONDS) // a hang fails, rather than stalls the build
class SBTreeLifecycleTest {

    @Test
    void indexesSbTreeBuildsALongIndex() {
        try (LongIndex index = Indexes.sbTree().build()) {
            index.put(1, 2);
            assertEquals(2, index.getOrDefault(1, 0));
            assertTrue(index instanceof SBTree);
            assertEquals(SBTreeBuilder.DEFAULT_BLOCK_SIZE, 4096);
        }
    }

    @Test
    void builderRejectsBadConfigurationNamingTheParameter() {
        final SBTreeBuilder b = Indexes.sbTree();
        assertMessage(() -> b.blockSize(1000), "blockSize must be a power of two in [512, 1048576] (got: 1000)");
        assertMessage(() -> b.blockSize(256), "blockSize must be a power of two in [512, 1048576] (got: 256)");
        assertMessage(() -> b.maxPerThreadBlocks(0), "maxPerThreadBlocks must be in [1, 131064] (got: 0)");
        assertMessage(() -> b.searchTableBucketSize(3), "searchTableBucketSize must be a power of two in [2, 64] (got: 3)");
        assertMessage(() -> b.searchTableBucketSize(128), "searchTableBucketSize must be a power of two in [2, 64] (got: 128)");
        assertMessage(() -> b.fillFactor(0.4), "fillFactor must be in [0.5, 1.0] (got: 0.4)");
        assertMessage(() -> b.fillFactor(Double.NaN), "fillFactor must be in [0.5, 1.0] (got: NaN)");
        assertMessage(() -> b.allocatorThreadCache(1), "allocatorThreadCache must be in [2, 65536] (got: 1)");
        assertMessage(() -> b.perThreadBlockCapacity(0), "perThreadBlockCapacity must be in [1, 52425] (got: 0)");
        assertMessage(() -> Indexes.sbTree().blockSize(512).perThreadBlockCapacity(23).build(),
                "perThreadBlockCapacity must be in [1, 22] for blockSize 512 (got: 23)");
        assertMessage(() -> b.slabPool(null), "slabPool must not be null (use SlabPool.disabled() for none)");
        assertMessage(() -> b.blockSize(512).maxBytes(1000), "maxBytes must be at least 64 blocks (32768 bytes for "
                + "blockSize 512) (got: 1000)");
        // A slot array holds (blockSize - 64) / 8 per-thread blocks: checked against the block size at build().
        assertMessage(() -> Indexes.sbTree().blockSize(512).maxPerThreadBlocks(57).build(),
                "maxPerThreadBlocks must be in [1, 56] for blockSize 512 (got: 57)");
        assertMessage(() -> Indexes.sbTree().blockSize(4096).maxBytes(64 * 4096).blockSize(65536).build(),
                "maxBytes must be at least 64 blocks (4194304 bytes for blockSize 65536) (got: 262144)");
    }

    private static void assertMessage(final Executable call, final String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, call).getMessage());
    }

    @Test
    void closeFreesEveryByteAndEndsTheSearchLayerThread() throws Exception {
        final SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(2).slabPool(SlabPool.disabled())
                .build();
        assertEquals(null, tree.searchLayerThread(), "no background work yet, no thread");
        final List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            final int me = t;
            writers.add(new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    tree.put(i * 3L + me, i);
                    if (i % 4 == 0) {
                        tree.remove(i * 3L + me - 3);
                    }
                }
            }));
        }
        writers.forEach(Thread::start);
        for (final Thread w : writers) {
            w.join();
        }
        assertTrue(tree.bytesInUse() > 0);
        final Thread searchLayer = tree.searchLayerThread();
        assertTrue(searchLayer != null && searchLayer.isAlive(), "the background work started the thread");
        assertTrue(searchLayer.getName().startsWith(SearchLayerThread.NAME_PREFIX));
        tree.close();
        assertEquals(0, tree.bytesInUse());
        assertEquals(0, tree.bytesAllocated());
        assertFalse(searchLayer.isAlive(), "the search-layer thread outlived its index");
        for (final Thread t : Thread.getAllStackTraces().keySet()) {
            assertFalse(t == searchLayer, "the search-layer thread is still listed");
        }
        tree.close(); // idempotent
    }

    /** A small index never needs its search-layer thread, and never starts it. */
    @Test
    void aSmallIndexStartsNoThread() {
        final SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(1).perThreadBlockCapacity(2).build();
        for (int i = 0; i < 6; i++) {
            tree.put(i, i);
        }
        assertTrue(tree.stats().counter(SBTree.CONVERSIONS) > 0);
        assertEquals(null, tree.searchLayerThread());
        assertEquals(6, tree.size());
        tree.close();
        assertEquals(null, tree.searchLayerThread());
        assertEquals(0, tree.bytesInUse());
    }

    @Test
    void everyCallAfterCloseThrows() {
        final SBTree tree = Indexes.sbTree().build();
        tree.put(1, 1);
        final LongCursor cursor = tree.cursor();
        assertTrue(cursor.seekFirst());
        tree.close();
        final List<Executable> calls = List.of(
                () -> tree.put(1, 2), () -> tree.put(Long.MIN_VALUE, 2), () -> tree.remove(1),
                () -> tree.getOrDefault(1, 0), () -> tree.containsKey(1), () -> tree.size(), () -> tree.isEmpty(),
                () -> tree.forEachInRange(0, 10, (k, v) -> { }), () -> tree.forEachInRange(10, 0, (k, v) -> { }),
                () -> tree.scan(0, 10, (k, v) -> { }), () -> tree.scan(0, 0, (k, v) -> { }), tree::stats,
                tree::cursor, tree::asNavigableMap, cursor::next, cursor::seekLast, () -> cursor.seekHigher(Long.MAX_VALUE),
                () -> tree.putAll(new long[] {1}, new long[] {1}, 0, 1));
        for (final Executable call : calls) {
            final IllegalStateException e = assertThrows(IllegalStateException.class, call);
            assertEquals("SBTree is closed", e.getMessage());
        }
        // A thread that never used the index is refused too.
        final AtomicReference<Throwable> fromOtherThread = new AtomicReference<>();
        final Thread other = new Thread(() -> {
            try {
                tree.put(5, 5);
            } catch (final Throwable t) {
                fromOtherThread.set(t);
            }
        });
        other.start();
        assertDoesNotHang(other);
        assertTrue(fromOtherThread.get() instanceof IllegalStateException, String.valueOf(fromOtherThread.get()));
    }

    @Test
    void closeFromInsideAScanIsRefused() {
        final SBTree tree = Indexes.sbTree().build();
        tree.put(1, 1);
        assertThrows(IllegalStateException.class, () -> tree.forEachInRange(0, 5, (k, v) -> tree.close()));
        assertEquals(1, tree.getOrDefault(1, 0), "still open");
        tree.close();
        assertEquals(0, tree.bytesInUse());
    }

    /** Writers and readers racing with close(): each stops with IllegalStateException; nothing else happens. */
    @Test
    void closeWhileThreadsWork() throws Exception {
        for (int round = 0; round < 5; round++) {
            final SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(2).build();
            final AtomicBoolean started = new AtomicBoolean();
            final AtomicReference<Throwable> unexpected = new AtomicReference<>();
            final List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                final int me = t;
                threads.add(new Thread(() -> {
                    try {
                        for (long i = 0; ; i++) {
                            started.set(true);
                            switch (me) {
                                case 0: tree.put(i, i); break;
                                case 1: tree.put(i * 7 % 1000, i); tree.remove(i % 1000); break;
                                case 2: tree.getOrDefault(i % 5000, 0); break;
                                default: tree.scan(i % 5000, 50, (k, v) -> { }); break;
                            }
                        }
                    } catch (final IllegalStateException e) {
                        if (!"SBTree is closed".equals(e.getMessage())) {
                            unexpected.set(e);
                        }
                    } catch (final Throwable e) {
                        unexpected.set(e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (int spins = 0; !started.get(); spins++) {
                SBTreeConcurrencyTest.backOff(spins);
            }
            Thread.sleep(20);
            tree.close();
            for (final Thread t : threads) {
                assertDoesNotHang(t);
            }
            assertEquals(null, unexpected.get());
            assertEquals(0, tree.bytesInUse());
            final Thread searchLayer = tree.searchLayerThread();
            assertTrue(searchLayer == null || !searchLayer.isAlive());
        }
    }

    /**
     * A conversion whose next segmented block cannot be allocated fails the index instead of leaving the sealed
     * block without a successor: writers waiting for the shortcut to move get the failure, and close works.
     */
    @Test
    void aConversionThatCannotAllocateFailsTheWritersInsteadOfHangingThem() {
        // A private pool keeps the slabs mapped after the arena is closed under the tree (no crash on a stray read).
        final SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(1).perThreadBlockCapacity(4)
                .slabPool(SlabPool.create(64L << 20)).build();
        for (int i = 0; i < 4; i++) {
            tree.put(i, i); // fills the only per-thread block: the next put converts
        }
        tree.arena().close(); // the conversion's allocation of the next segmented block now fails
        assertThrows(IllegalStateException.class, () -> tree.put(4, 4));
        final AtomicReference<Throwable> seen = new AtomicReference<>();
        final Thread writer = new Thread(() -> {
            try {
                tree.put(5, 5);
            } catch (final Throwable e) {
                seen.set(e);
            }
        });
        writer.start();
        assertDoesNotHang(writer);
        assertTrue(seen.get() instanceof IllegalStateException
                && seen.get().getMessage().contains("conversion failed"), String.valueOf(seen.get()));
        final IllegalStateException read = assertThrows(IllegalStateException.class, () -> tree.getOrDefault(1, -1));
        assertTrue(read.getMessage().contains("conversion failed"), read.getMessage());
        tree.close();
        assertEquals(0, tree.bytesInUse());
    }

    /** An idle search-layer thread parks without a timeout (no wake-ups every few milliseconds), and wakes for work. */
    @Test
    void anIdleSearchLayerThreadParksUntilThereIsWork() throws InterruptedException {
        try (SBTree tree = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(2).build()) {
            for (int i = 0; i < 20_000; i++) {
                tree.put(i, i);
            }
            SBTreeValidator.awaitCaughtUp(tree);
            final Thread thread = tree.searchLayerThread();
            final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            // Retired blocks wait for the epochs (polled), then the thread has nothing left to do.
            while (thread.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(Thread.State.WAITING, thread.getState());
            final long indexed = tree.stats().counter(SBTree.SEARCH_LAYER_LAG);
            for (int i = 20_000; i < 40_000; i++) {
                tree.put(i, i);
            }
            SBTreeValidator.awaitCaughtUp(tree);
            assertEquals(0, tree.stats().counter(SBTree.SEARCH_LAYER_LAG), "lag before: " + indexed);
            SBTreeValidator.check(tree);
        }
    }

    private static void assertDoesNotHang(final Thread thread) {
        try {
            thread.join(30_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        assertFalse(thread.isAlive(), "thread " + thread.getName() + " did not end");
    }
}
