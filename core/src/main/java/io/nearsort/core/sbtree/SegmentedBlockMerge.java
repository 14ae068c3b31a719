package io.nearsort.core.sbtree;

import io.nearsort.core.sortedness.AdaptiveSorter;

import java.util.Arrays;

/**
 * Merges and sorts the entries of a segmented block's per-thread data blocks (SB-Tree §IV-B, Figure 5) into
 * one ascending run with one entry per key: the conversion's first step, and what scans, seeks and
 * {@code size()} read of a segmented block.
 *
 * <p>Each per-thread block is one thread's arrivals, nearly sorted in time-series workloads (§IV-B: "KV entries
 * in the per-thread data blocks tend to be partially sorted"). A block that stayed strictly ascending is already a
 * sorted run; any other is sorted on its own by the library's {@link AdaptiveSorter} (the (K,L)-adaptive sort when
 * the run's estimated K or L is small, which it measures in one pass), where the paper uses {@code std::sort}.
 * The runs are then merged with a heap. Of the copies of one key, the one with the newest write stamp wins
 * ({@link WriteStamps}; ties: the later slot and position); a winning tombstone drops the key.
 *
 * <p>An instance keeps its arrays between calls and is confined to one thread at a time.
 */
final class SegmentedBlockMerge {
    private final PerThreadBlockDescriptor d;
    private final AdaptiveSorter sorter = new AdaptiveSorter();

    // Runs: per-thread blocks' entries in [lo, hi], keys with references (run << 32 | position).
    private long[] runBlocks = new long[16];
    private int[] runStarts = new int[17];
    private int runCount;
    private long[] runKeys = new long[256];
    private long[] runRefs = new long[256];
    private long[] prefixMax = new long[256];
    private int[] heap = new int[16];
    private int[] heads = new int[16];

    // Output: ascending keys, one live entry per key.
    private long[] keys = new long[256];
    private long[] values = new long[256];
    private int size;
    private long tombstonesDropped;

    SegmentedBlockMerge(final PerThreadBlockDescriptor d) {
        this.d = d;
    }

    /**
     * Merges the published entries of every per-thread block of segmented block {@code block} with keys in
     * {@code [lo, hi]}.
     *
     * @return the number of live entries, then in {@link #keys()} and {@link #values()}
     */
    int mergeSegmentedBlock(final long block, final long lo, final long hi) {
        startRuns();
        final int slots = SegmentedBlock.slotsHandedOut(block);
        for (int slot = 0; slot < slots; slot++) {
            final long ptb = SegmentedBlock.perThreadBlock(block, slot);
            if (ptb != 0) {
                addRun(ptb, PerThreadBlock.published(d, ptb), lo, hi);
            }
        }
        return mergeRuns();
    }

    /**
     * Merges exactly the first {@code counts[i]} entries of each of the sealed per-thread blocks
     * {@code blocks[0, n)}, given in slot order: the conversion's input.
     */
    int mergeSealed(final long[] blocks, final int[] counts, final int n) {
        startRuns();
        for (int i = 0; i < n; i++) {
            addRun(blocks[i], counts[i], Long.MIN_VALUE, Long.MAX_VALUE);
        }
        return mergeRuns();
    }

    long[] keys() {
        return keys;
    }

    long[] values() {
        return values;
    }

    int size() {
        return size;
    }

    /** Keys whose newest entry was a tombstone, dropped by the merges so far. */
    long tombstonesDropped() {
        return tombstonesDropped;
    }

    private void startRuns() {
        runCount = 0;
        runStarts[0] = 0;
    }

    /** Adds the block's entries in [lo, hi] among its first {@code count} as one sorted run. */
    private void addRun(final long ptb, final int count, final long lo, final long hi) {
        if (count == 0 || PerThreadBlock.maxKey(ptb) < lo || PerThreadBlock.minKey(ptb) > hi) {
            return;
        }
        final int run = runCount;
        if (run == runBlocks.length) {
            runBlocks = Arrays.copyOf(runBlocks, run * 2);
            runStarts = Arrays.copyOf(runStarts, run * 2 + 1);
        }
        final int start = runStarts[run];
        ensureRunCapacity(start + count);
        final long ref = (long) run << 32;
        int n = start;
        if (PerThreadBlock.isAscending(ptb)) {
            final int from = lowerBound(ptb, count, lo);
            for (int pos = from; pos < count; pos++) {
                final long key = PerThreadBlock.key(ptb, pos);
                if (key > hi) {
                    break;
                }
                runKeys[n] = key;
                runRefs[n++] = ref | pos;
            }
        } else {
            for (int pos = 0; pos < count; pos++) {
                final long key = PerThreadBlock.key(ptb, pos);
                if (key >= lo && key <= hi) {
                    runKeys[n] = key;
                    runRefs[n++] = ref | pos;
                }
            }
            sortNearlySorted(start, n);
        }
        if (n > start) {
            runBlocks[run] = ptb;
            runCount = run + 1;
            runStarts[run + 1] = n;
        }
    }

    private static int lowerBound(final long ptb, final int count, final long key) {
        int lo = 0;
        int hi = count;
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (PerThreadBlock.key(ptb, mid) < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Sorts {@code runKeys[from, to)} with their references, stably, by the adaptive sort SWARE §IV-C picks from
     * the run's K (entries below the running maximum) and L (how far back the farthest of them belongs), both
     * measured here in one pass and a binary search per late entry.
     */
    private void sortNearlySorted(final int from, final int to) {
        final int n = to - from;
        if (n < 2) {
            return;
        }
        long max = Long.MIN_VALUE;
        long k = 0;
        long l = 0;
        for (int i = 0; i < n; i++) {
            final long key = runKeys[from + i];
            if (i > 0 && key < max) {
                k++;
                // prefixMax is non-decreasing: the key belongs before the first position whose maximum exceeds it.
                int lo = 0;
                int hi = i;
                while (lo < hi) {
                    final int mid = (lo + hi) >>> 1;
                    if (prefixMax[mid] > key) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                l = Math.max(l, i - lo);
            }
            max = Math.max(max, key);
            prefixMax[i] = max;
        }
        if (k > 0) {
            sorter.sort(runKeys, runRefs, from, to, k, l);
        }
    }

    /** Merges the runs into {@link #keys} and {@link #values}, keeping the newest entry of each key. */
    private int mergeRuns() {
        final int total = runStarts[runCount];
        if (keys.length < total) {
            keys = new long[Math.max(total, keys.length * 2)];
            values = new long[keys.length];
        }
        size = 0;
        if (runCount == 0) {
            return 0;
        }
        if (heap.length < runCount) {
            heap = new int[runCount * 2];
            heads = new int[runCount * 2];
        }
        int heapSize = 0;
        for (int run = 0; run < runCount; run++) {
            heads[run] = runStarts[run];
            heap[heapSize++] = run;
            siftUp(heapSize - 1);
        }
        boolean pending = false;
        long pendingKey = 0;
        long pendingRef = 0;
        int pendingStamp = 0;
        while (heapSize > 0) {
            final int run = heap[0];
            final int at = heads[run]++;
            final long key = runKeys[at];
            final long ref = runRefs[at];
            final int stamp = PerThreadBlock.stamp(d, runBlocks[(int) (ref >>> 32)], (int) ref);
            if (pending && key == pendingKey) {
                // Equal keys leave the heap in slot order, and in arrival order within a run: ties go to the later.
                if (WriteStamps.isNewer(stamp, pendingStamp) || WriteStamps.isSame(stamp, pendingStamp)) {
                    pendingRef = ref;
                    pendingStamp = stamp;
                }
            } else {
                if (pending) {
                    emit(pendingKey, pendingRef, pendingStamp);
                }
                pending = true;
                pendingKey = key;
                pendingRef = ref;
                pendingStamp = stamp;
            }
            if (heads[run] == runStarts[run + 1]) {
                heap[0] = heap[--heapSize];
            }
            siftDown(0, heapSize);
        }
        if (pending) {
            emit(pendingKey, pendingRef, pendingStamp);
        }
        return size;
    }

    private void emit(final long key, final long ref, final int stamp) {
        if (PerThreadBlock.isTombstone(stamp)) {
            tombstonesDropped++;
            return;
        }
        keys[size] = key;
        values[size++] = PerThreadBlock.value(runBlocks[(int) (ref >>> 32)], (int) ref);
    }

    /** Heap order: the run whose head key is smaller, then the lower run (earlier slot). */
    private boolean less(final int a, final int b) {
        final long ka = runKeys[heads[a]];
        final long kb = runKeys[heads[b]];
        return ka < kb || (ka == kb && a < b);
    }

    private void siftUp(final int index) {
        int i = index;
        final int run = heap[i];
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            if (!less(run, heap[parent])) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = run;
    }

    private void siftDown(final int index, final int heapSize) {
        if (heapSize == 0) {
            return;
        }
        int i = index;
        final int run = heap[i];
        while (true) {
            final int left = 2 * i + 1;
            if (left >= heapSize) {
                break;
            }
            final int right = left + 1;
            final int child = right < heapSize && less(heap[right], heap[left]) ? right : left;
            if (!less(heap[child], run)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = run;
    }

    private void ensureRunCapacity(final int entries) {
        if (runKeys.length < entries) {
            final int length = Math.max(entries, runKeys.length * 2);
            runKeys = Arrays.copyOf(runKeys, length);
            runRefs = Arrays.copyOf(runRefs, length);
            prefixMax = new long[length];
        }
    }
}
