package io.nearsort.core.sortedness;

/**
 * The (K,L)-adaptive sort (Ben-Moshe et al., cited as [7] by SWARE §II and §IV-C): sorts a (K,L)-near-sorted
 * run of (key, value) pairs in two passes with O(K + L) extra memory and O(n log(K + L)) time, keeping
 * arrival order among equal keys.
 *
 * <p><b>Pass 1.</b> The input streams through a min-heap of {@code K + L + 1} entries ordered by (key, arrival).
 * An entry displaced by at most L leaves the heap in order; the K slots beyond the window absorb entries that
 * arrived early (large keys), so they do not clog the window. The heap's output is written back in place; an
 * entry that would break the order (it arrived more than the window too late) is set aside as an
 * <em>outlier</em>, of which at most K are allowed.
 *
 * <p><b>Pass 2.</b> The outliers are sorted and merged into the in-place output from the back.
 *
 * <p><b>Underestimated K or L.</b> When more than K outliers appear, the estimates were wrong: the sort puts the
 * pending entries back in arrival order (which keeps stability, see {@link #fallBack}) and finishes with a
 * stable merge sort. {@link #sort} reports which way it went. An instance keeps its heap and outlier arrays
 * between calls and is confined to one thread.
 */
public final class KLAdaptiveSort {
    private final StableMergeSort mergeSort = new StableMergeSort();
    private long[] heapKeys = new long[0];
    private long[] heapValues = new long[0];
    private int[] heapArrivals = new int[0];
    private int heapSize;
    private long[] outKeys = new long[0];
    private long[] outValues = new long[0];
    private int[] outArrivals = new int[0];
    private int outCount;

    /** How a call to {@link #sort} finished. */
    public enum Outcome {
        /** The two-pass (K,L) sort sorted the run. */
        ADAPTIVE,
        /** More than K outliers appeared; a stable merge sort finished the run. */
        FELL_BACK_TO_MERGE_SORT
    }

    /**
     * Sorts {@code keys[from, to)} ascending, moving {@code values} along, stably.
     *
     * @param k estimated number of out-of-place entries (count), at least 0
     * @param l estimated maximum displacement (count), at least 0
     * @return whether the adaptive sort finished the job or fell back
     */
    public Outcome sort(final long[] keys, final long[] values, final int from, final int to, final int k,
                        final int l) {
        java.util.Objects.checkFromToIndex(from, to, keys.length);
        java.util.Objects.checkFromToIndex(from, to, values.length);
        if (k < 0 || l < 0) {
            throw new IllegalArgumentException("k and l must be >= 0 (got: k=" + k + ", l=" + l + ")");
        }
        final int n = to - from;
        if (n < 2) {
            return Outcome.ADAPTIVE;
        }
        final int heapCapacity = (int) Math.min(n, (long) k + l + 1);
        final int outlierCapacity = Math.min(n, k);
        ensureCapacity(heapCapacity, outlierCapacity);
        heapSize = 0;
        outCount = 0;
        int write = from;
        boolean emitted = false;
        long lastKey = 0;
        int read = from;
        while (read < to || heapSize > 0) {
            if (read < to && heapSize < heapCapacity) {
                push(keys[read], values[read], read);
                read++;
                continue;
            }
            // Pop the smallest (key, arrival) pending entry.
            final long key = heapKeys[0];
            final long value = heapValues[0];
            final int arrival = heapArrivals[0];
            popRoot();
            if (emitted && key < lastKey) {
                if (outCount == outlierCapacity) {
                    fallBack(keys, values, from, to, write, read, key, value, arrival);
                    return Outcome.FELL_BACK_TO_MERGE_SORT;
                }
                outKeys[outCount] = key;
                outValues[outCount] = value;
                outArrivals[outCount] = arrival;
                outCount++;
            } else {
                keys[write] = key;
                values[write] = value;
                write++;
                lastKey = key;
                emitted = true;
            }
        }
        mergeOutliers(keys, values, from, write, to);
        return Outcome.ADAPTIVE;
    }

    /**
     * Pass 2: outliers leave the heap in (key, arrival) order among equal keys, and every in-place entry with
     * the same key arrived before them, so a stable sort of the outliers and a merge that puts in-place entries
     * first among equals keeps the whole run stable.
     */
    private void mergeOutliers(final long[] keys, final long[] values, final int from, final int written,
                               final int to) {
        if (outCount == 0) {
            return;
        }
        mergeSort.sort(outKeys, outValues, 0, outCount);
        int i = written - 1;
        int j = outCount - 1;
        for (int d = to - 1; j >= 0; d--) {
            if (i >= from && keys[i] > outKeys[j]) {
                keys[d] = keys[i];
                values[d] = values[i--];
            } else {
                keys[d] = outKeys[j];
                values[d] = outValues[j--];
            }
        }
    }

    /**
     * Restores a run the adaptive pass cannot finish and stable-sorts it. The slots {@code [write, read)} are
     * free and as many as the pending entries (heap, outliers and the entry in hand). Every in-place entry
     * arrived before any pending entry with the same key, and every pending entry before any unread one, so
     * writing the pending entries back in arrival order leaves equal keys in arrival order throughout.
     */
    private void fallBack(final long[] keys, final long[] values, final int from, final int to, final int write,
                          final int read, final long key, final long value, final int arrival) {
        final int pending = heapSize + outCount + 1;
        final long[] pk = new long[pending];
        final long[] pv = new long[pending];
        final long[] order = new long[pending];
        int p = 0;
        for (int i = 0; i < heapSize; i++, p++) {
            pk[p] = heapKeys[i];
            pv[p] = heapValues[i];
            order[p] = heapArrivals[i];
        }
        for (int i = 0; i < outCount; i++, p++) {
            pk[p] = outKeys[i];
            pv[p] = outValues[i];
            order[p] = outArrivals[i];
        }
        pk[p] = key;
        pv[p] = value;
        order[p] = arrival;
        final long[] slot = new long[pending];
        for (int i = 0; i < pending; i++) {
            slot[i] = i;
        }
        mergeSort.sort(order, slot, 0, pending);
        for (int i = 0; i < pending; i++) {
            final int s = (int) slot[i];
            keys[write + i] = pk[s];
            values[write + i] = pv[s];
        }
        assert write + pending == read;
        heapSize = 0;
        outCount = 0;
        mergeSort.sort(keys, values, from, to);
    }

    private void push(final long key, final long value, final int arrival) {
        int i = heapSize++;
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            if (!less(key, arrival, heapKeys[parent], heapArrivals[parent])) {
                break;
            }
            heapKeys[i] = heapKeys[parent];
            heapValues[i] = heapValues[parent];
            heapArrivals[i] = heapArrivals[parent];
            i = parent;
        }
        heapKeys[i] = key;
        heapValues[i] = value;
        heapArrivals[i] = arrival;
    }

    private void popRoot() {
        final int last = --heapSize;
        if (last == 0) {
            return;
        }
        final long key = heapKeys[last];
        final long value = heapValues[last];
        final int arrival = heapArrivals[last];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= last) {
                break;
            }
            if (child + 1 < last && less(heapKeys[child + 1], heapArrivals[child + 1], heapKeys[child],
                    heapArrivals[child])) {
                child++;
            }
            if (!less(heapKeys[child], heapArrivals[child], key, arrival)) {
                break;
            }
            heapKeys[i] = heapKeys[child];
            heapValues[i] = heapValues[child];
            heapArrivals[i] = heapArrivals[child];
            i = child;
        }
        heapKeys[i] = key;
        heapValues[i] = value;
        heapArrivals[i] = arrival;
    }

    private static boolean less(final long k1, final int a1, final long k2, final int a2) {
        return k1 < k2 || (k1 == k2 && a1 < a2);
    }

    private void ensureCapacity(final int heapCapacity, final int outlierCapacity) {
        if (heapKeys.length < heapCapacity) {
            heapKeys = new long[heapCapacity];
            heapValues = new long[heapCapacity];
            heapArrivals = new int[heapCapacity];
        }
        if (outKeys.length < outlierCapacity) {
            outKeys = new long[outlierCapacity];
            outValues = new long[outlierCapacity];
            outArrivals = new int[outlierCapacity];
        }
    }
}
