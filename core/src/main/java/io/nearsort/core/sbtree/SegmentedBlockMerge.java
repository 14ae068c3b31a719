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
 * A thread's ascending blocks that follow one another in key order form one run, so a single writer's segmented
 * block is one run, copied in a linear pass, and T writers' are T runs, merged with a heap. Of the copies of one
 * key, the one with the newest write stamp wins ({@link WriteStamps}; ties: the later slot and position); a
 * winning tombstone drops the key.
 *
 * <p>An instance keeps its arrays between calls and is confined to one thread at a time.
 */
final class SegmentedBlockMerge {
    private final PerThreadBlockDescriptor d;
    private final AdaptiveSorter sorter = new AdaptiveSorter();

    // Sources: the per-thread blocks read, with their entry counts; entries are referenced as (source << 32 | pos).
    private long[] sources = new long[16];
    private int[] sourceCounts = new int[16];
    private int[] sourceOwners = new int[16];
    private int sourceCount;
    private Integer[] order = new Integer[16];
    // Runs: sorted stretches of entries in [lo, hi], one per thread where its blocks follow one another.
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
        sourceCount = 0;
        final int slots = SegmentedBlock.slotsHandedOut(block);
        for (int slot = 0; slot < slots; slot++) {
            final long ptb = SegmentedBlock.perThreadBlock(block, slot);
            if (ptb != 0) {
                addSource(ptb, PerThreadBlock.published(d, ptb));
            }
        }
        return merge(lo, hi);
    }

    /**
     * Whether segmented block {@code block} holds exactly the entries it held at this instance's last
     * {@link #mergeSegmentedBlock} of it: the same per-thread blocks with entries, each with the same published
     * count (per-thread blocks are append-only, so equal counts mean equal content). Reads the slots only.
     */
    boolean unchangedSince(final long block) {
        int source = 0;
        final int slots = SegmentedBlock.slotsHandedOut(block);
        for (int slot = 0; slot < slots; slot++) {
            final long ptb = SegmentedBlock.perThreadBlock(block, slot);
            final int count = ptb == 0 ? 0 : PerThreadBlock.published(d, ptb);
            if (count == 0) {
                continue; // addSource skips these too
            }
            if (source == sourceCount || sources[source] != ptb || sourceCounts[source] != count) {
                return false;
            }
            source++;
        }
        return source == sourceCount;
    }

    /**
     * Merges exactly the first {@code counts[i]} entries of each of the sealed per-thread blocks
     * {@code blocks[0, n)}, given in slot order: the conversion's input.
     */
    int mergeSealed(final long[] blocks, final int[] counts, final int n) {
        sourceCount = 0;
        for (int i = 0; i < n; i++) {
            addSource(blocks[i], counts[i]);
        }
        return merge(Long.MIN_VALUE, Long.MAX_VALUE);
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

    private void addSource(final long ptb, final int count) {
        if (count == 0) {
            return;
        }
        if (sourceCount == sources.length) {
            sources = Arrays.copyOf(sources, sourceCount * 2);
            sourceCounts = Arrays.copyOf(sourceCounts, sourceCount * 2);
            sourceOwners = Arrays.copyOf(sourceOwners, sourceCount * 2);
            order = Arrays.copyOf(order, sourceCount * 2);
        }
        sources[sourceCount] = ptb;
        sourceCounts[sourceCount] = count;
        sourceOwners[sourceCount++] = PerThreadBlock.owner(ptb);
    }

    /**
     * Gathers the sources' entries in [lo, hi] into runs, then merges them. The sources are taken thread by
     * thread, each thread's in slot order (a stable grouping: ties between one thread's copies of a key keep their
     * order, and copies from different threads carry different stamps). A thread's ascending blocks that follow
     * one another in key order extend one run, so that one writer's segmented block is a single run, merged by a
     * linear pass, and T writers' give T runs.
     */
    private int merge(final long lo, final long hi) {
        for (int i = 0; i < sourceCount; i++) {
            order[i] = i;
        }
        Arrays.sort(order, 0, sourceCount, (a, b) -> Integer.compare(sourceOwners[a], sourceOwners[b]));
        runCount = 0;
        runStarts[0] = 0;
        int n = 0;
        int runOwner = 0;
        boolean runOpen = false;
        for (int i = 0; i < sourceCount; i++) {
            final int source = order[i];
            final long ptb = sources[source];
            final int count = sourceCounts[source];
            if (PerThreadBlock.maxKey(ptb) < lo || PerThreadBlock.minKey(ptb) > hi) {
                continue;
            }
            ensureRunCapacity(n + count);
            final long ref = (long) source << 32;
            final boolean ascending = PerThreadBlock.isAscending(ptb);
            final int from = ascending ? lowerBound(ptb, count, lo) : 0;
            final boolean extend = runOpen && ascending && runOwner == sourceOwners[source] && n > runStarts[runCount]
                    && from < count && PerThreadBlock.key(ptb, from) > runKeys[n - 1];
            if (!extend) {
                closeRun(n);
                runOpen = true;
                runOwner = sourceOwners[source];
            }
            final int start = n;
            for (int pos = from; pos < count; pos++) {
                final long key = PerThreadBlock.key(ptb, pos);
                if (key > hi) {
                    if (ascending) {
                        break;
                    }
                    continue;
                }
                if (key >= lo) {
                    runKeys[n] = key;
                    runRefs[n++] = ref | pos;
                }
            }
            if (!ascending) {
                sortNearlySorted(start, n);
                closeRun(n); // an unsorted block's run is not extended
                runOpen = false;
            }
        }
        closeRun(n);
        return mergeRuns();
    }

    /** Ends the current run at {@code end} if it holds entries. */
    private void closeRun(final int end) {
        if (end > runStarts[runCount]) {
            runCount++;
            if (runCount + 1 > runStarts.length) {
                runStarts = Arrays.copyOf(runStarts, runStarts.length * 2);
            }
            runStarts[runCount] = end;
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
        if (runCount == 1) {
            return copyRun(total);
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
            final int stamp = PerThreadBlock.stamp(d, sources[(int) (ref >>> 32)], (int) ref);
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

    /** The merge of a single run: a linear pass keeping the last of equal keys (the same thread's later write). */
    private int copyRun(final int total) {
        int i = 0;
        while (i < total) {
            final long key = runKeys[i];
            long ref = runRefs[i];
            int stamp = PerThreadBlock.stamp(d, sources[(int) (ref >>> 32)], (int) ref);
            while (++i < total && runKeys[i] == key) {
                final long other = runRefs[i];
                final int otherStamp = PerThreadBlock.stamp(d, sources[(int) (other >>> 32)], (int) other);
                if (WriteStamps.isNewer(otherStamp, stamp) || WriteStamps.isSame(otherStamp, stamp)) {
                    ref = other;
                    stamp = otherStamp;
                }
            }
            emit(key, ref, stamp);
        }
        return size;
    }

    private void emit(final long key, final long ref, final int stamp) {
        if (PerThreadBlock.isTombstone(stamp)) {
            tombstonesDropped++;
            return;
        }
        keys[size] = key;
        values[size++] = PerThreadBlock.value(sources[(int) (ref >>> 32)], (int) ref);
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
