package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import io.nearsort.core.IndexStats;
import io.nearsort.core.Indexes;
import io.nearsort.core.LongIndex;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23 (memory honesty): {@code stats().heapBytes()} of an SA B+-tree reports the Java heap its SWARE buffer
 * and sort scratch hold, checked against the bytes the building and writing thread really allocated (HotSpot's
 * per-thread allocation counter): never more than that, and close to it for an empty index, whose allocation is
 * almost all buffer. A single-thread index, so that every array is allocated by this thread.
 */
class SortednessAwareIndexHeapBytesTest {
    private static final long MIB = 1 << 20;

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void anEmptyIndexReportsItsBufferWhichIsMostOfWhatBuildingAllocated() {
        final long before = allocatedByThisThread();
        try (LongIndex index = Indexes.saBPlusTree().concurrency(Concurrency.SINGLE_THREAD).build()) {
            final long allocated = allocatedByThisThread() - before;
            final IndexStats stats = index.stats();
            final long capacity = SortednessAwareIndexBuilder.DEFAULT_BUFFER_CAPACITY;
            // keys, values and tombstones (17 bytes an entry) plus the Bloom filters, before any sort.
            assertTrue(stats.heapBytes() >= 17 * capacity + stats.counter("bloomFilterBytes"), stats::toString);
            assertTrue(stats.heapBytes() <= allocated, () -> stats.heapBytes() + " > allocated " + allocated);
            assertTrue(allocated - stats.heapBytes() < MIB, () -> "allocated " + allocated + ", reported "
                    + stats.heapBytes() + ": more than 1 MiB unaccounted for");
            // The figure the Javadoc gives for the default capacity (SortednessAwareIndex, "Memory"): 19.7 MiB.
            assertEquals(19.6, stats.heapBytes() / (double) MIB, 0.1);
        }
    }

    @Test
    void sortingAndFlushingAddMergeBuffersDetachedRunAndScratch() {
        final int capacity = 1 << 14;
        final long before = allocatedByThisThread();
        try (LongIndex index = Indexes.saBPlusTree().bufferCapacity(capacity)
                .concurrency(Concurrency.SINGLE_THREAD).build()) {
            final long empty = index.stats().heapBytes();
            final SplittableRandom random = new SplittableRandom(23);
            for (int i = 0; i < 8 * capacity; i++) {
                index.put(random.nextLong(), i); // scrambled: every flush sorts the whole buffer
            }
            final long allocated = allocatedByThisThread() - before;
            final IndexStats stats = index.stats();
            assertTrue(stats.counter("bufferFlushes") > 0, stats::toString);
            // Merge buffers and the detached run (17 bytes an entry each) at least, on top of the empty buffer.
            assertTrue(stats.heapBytes() >= empty + 2 * 17L * capacity, () -> "empty " + empty + ", now " + stats);
            assertTrue(stats.heapBytes() <= allocated, () -> stats.heapBytes() + " > allocated " + allocated);
        }
    }
}
