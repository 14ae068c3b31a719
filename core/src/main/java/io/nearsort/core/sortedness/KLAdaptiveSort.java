package io.nearsort.core.sortedness;

/**
 * The (K,L)-adaptive sort (Ben-Moshe et al., cited as [7] by SWARE §II and §IV-C): sorts a (K,L)-near-sorted
 * run of (key, value) pairs in two passes with O(K + L) extra memory and O(n log(K + L)) time, keeping
 * arrival order among equal keys.
 *
 * <p><b>Pass 0.</b> A greedy scan first tries to split the run into a sorted part kept in place and at most K
 * displaced entries, which costs O(n + K log K) however large L is (see {@link #greedySplit}).
 *
 * <p><b>Pass 1.</b> Otherwise the input streams through a min-heap of {@code K + L + 1} entries ordered by (key, arrival).
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
    /** Entries the greedy pass looks ahead to recognise a key that arrived early. */
    private static final int LOOKAHEAD = 8;

    private final StableMergeSort mergeSort = new StableMergeSort();
    private final StableRadixSort outlierSort = new StableRadixSort();
    private final ArrivalHeap heap = new ArrivalHeap();
    private long[] outKeys = new long[0];
    private long[] outValues = new long[0];
    private int[] outArrivals = new int[0];
    private long[] sortedOutlierKeys = new long[0];
    private long[] sortedOutlierOrder = new long[0];
    private int outCount;

    /** A sorter whose heap and outlier arrays start empty and grow to the largest sort it is given. */
    public KLAdaptiveSort() {
    }

    /** How a call to {@link #sort} finished. */
    public enum Outcome {
        /** The two-pass (K,L) sort sorted the run. */
        ADAPTIVE,
        /** More than K outliers appeared; a stable merge sort finished the run. */
        FELL_BACK_TO_MERGE_SORT
    }

    /**
     * Bytes of Java heap its kept scratch arrays hold, those of its merge sort, outlier sort and heap included.
     *
     * @return the bytes of the scratch arrays' payloads
     */
    public long heapBytes() {
        return (long) Long.BYTES * (outKeys.length + outValues.length + sortedOutlierKeys.length
                + sortedOutlierOrder.length) + (long) Integer.BYTES * outArrivals.length + mergeSort.heapBytes()
                + outlierSort.heapBytes() + heap.heapBytes();
    }

    /**
     * Sorts {@code keys[from, to)} ascending, moving {@code values} along, stably.
     *
     * @param keys the keys; {@code keys[from, to)} is sorted in place
     * @param values the values, moved with their keys; {@code values[from, to)} is rearranged
     * @param from the first index of the run, inclusive
     * @param to the end of the run, exclusive
     * @param k estimated number of out-of-place entries (count), at least 0
     * @param l estimated maximum displacement (count), at least 0
     * @return whether the adaptive sort finished the job or fell back
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of both arrays
     * @throws IllegalArgumentException when {@code k} or {@code l} is negative
     */
    public Outcome sort(final long[] keys, final long[] values, final int from, final int to, final int k,
                        final int l) {
        return sort(keys, values, from, to, k, l, null);
    }

    /**
     * Sorts like {@link #sort(long[], long[], int, int, int, int)}, except that when the greedy pass sorts the run
     * its outliers are not merged back but handed over, sorted, in {@code deferred}: then {@code keys[from, to -
     * deferred.count())} holds the rest of the run, sorted, and the caller merges the two (Pass 2, done by the
     * caller). Otherwise {@code deferred} is left empty and the whole run is sorted.
     *
     * @param keys the keys; {@code keys[from, to)} is sorted in place (but for deferred outliers)
     * @param values the values, moved with their keys
     * @param from the first index of the run, inclusive
     * @param to the end of the run, exclusive
     * @param k estimated number of out-of-place entries (count), at least 0
     * @param l estimated maximum displacement (count), at least 0
     * @param deferred receives the outliers; null to merge them back here
     * @return whether the adaptive sort finished the job or fell back
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of both arrays
     * @throws IllegalArgumentException when {@code k} or {@code l} is negative
     */
    public Outcome sort(final long[] keys, final long[] values, final int from, final int to, final int k,
                        final int l, final SortedOutliers deferred) {
        if (k < 0 || l < 0) {
            throw new IllegalArgumentException("k and l must be >= 0 (got: k=" + k + ", l=" + l + ")");
        }
        return sort(keys, values, from, to, k, l, null, deferred);
    }

    /**
     * Sorts like {@link #sort(long[], long[], int, int, int, int, SortedOutliers)}, asking {@code l} for the
     * maximum displacement only if the greedy pass fails (the heap pass sizes its window by it), with
     * {@code keys[from, to)} back in arrival order.
     *
     * @param keys the keys; {@code keys[from, to)} is sorted in place (but for deferred outliers)
     * @param values the values, moved with their keys
     * @param from the first index of the run, inclusive
     * @param to the end of the run, exclusive
     * @param k estimated number of out-of-place entries (count), at least 0
     * @param l estimates the maximum displacement (count) when asked
     * @param deferred receives the outliers; null to merge them back here
     * @return whether the adaptive sort finished the job or fell back
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of both arrays
     * @throws IllegalArgumentException when {@code k} is negative, or {@code l} returns a negative estimate
     */
    public Outcome sort(final long[] keys, final long[] values, final int from, final int to, final int k,
                        final DisplacementEstimator l, final SortedOutliers deferred) {
        return sort(keys, values, from, to, k, 0, java.util.Objects.requireNonNull(l, "l"), deferred);
    }

    /** L asked of {@code estimator} for {@code keys[from, to)}, precise up to {@code enough}, checked. */
    static long ask(final DisplacementEstimator estimator, final long[] keys, final int from, final int to,
                    final long enough) {
        final long l = estimator.estimate(keys, from, to, enough);
        if (l < 0) {
            throw new IllegalArgumentException("the DisplacementEstimator returned a negative L: " + l);
        }
        return l;
    }

    /** The sorts above: L is {@code lKnown} when {@code lEstimate} is null, else asked of it if needed. */
    private Outcome sort(final long[] keys, final long[] values, final int from, final int to, final int k,
                         final int lKnown, final DisplacementEstimator lEstimate, final SortedOutliers deferred) {
        if (deferred != null) {
            deferred.count = 0;
        }
        java.util.Objects.checkFromToIndex(from, to, keys.length);
        java.util.Objects.checkFromToIndex(from, to, values.length);
        if (k < 0) {
            throw new IllegalArgumentException("k must be >= 0 (got: " + k + ")");
        }
        final int n = to - from;
        if (n < 2) {
            return Outcome.ADAPTIVE;
        }
        final int outlierCapacity = Math.min(n, k);
        ensureOutlierCapacity(outlierCapacity);
        if (greedySplit(keys, values, from, to, outlierCapacity, deferred)) {
            return Outcome.ADAPTIVE;
        }
        final long l = lEstimate == null ? lKnown : ask(lEstimate, keys, from, to, n);
        final int heapCapacity = (int) Math.min(n, k + l + 1);
        heap.reset(heapCapacity);
        outCount = 0;
        int write = from;
        boolean emitted = false;
        long lastKey = 0;
        int read = from;
        while (read < to || heap.size() > 0) {
            if (read < to && heap.size() < heapCapacity) {
                heap.push(keys[read], values[read], read);
                read++;
                continue;
            }
            // Pop the smallest (key, arrival) pending entry.
            final long key = heap.minKey();
            final long value = heap.minValue();
            final int arrival = (int) heap.minArrival();
            heap.popMin();
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
     * The cheap first attempt, O(n + K log K) whatever L is: one scan keeps a non-decreasing run in place and
     * sets aside every entry that breaks it, either because it is smaller than the last kept entry (it arrived
     * late) or because it is larger than its successor while the successor fits (it arrived early). This
     * captures the usual shape of near-sorted data, a few keys displaced far, without a window of L entries.
     * If more than {@code capacity} entries are set aside, the run is restored to arrival order and the caller
     * proceeds with the heap passes.
     *
     * <p>Stability: no kept entry before a late entry has its key and no kept entry after it can (the kept run
     * only grows), and symmetrically every kept entry equal to an early entry comes after it; so among equal
     * keys early entries precede the kept run and late entries follow it.
     */
    private boolean greedySplit(final long[] keys, final long[] values, final int from, final int to,
                                final int capacity, final SortedOutliers deferred) {
        outCount = 0;
        int write = from;
        boolean kept = false;
        long lastKept = 0;
        // The first j > i with keys[j] < keys[j - 1] (positions after i are still as they arrived): while it lies
        // beyond the lookahead, no entry there is smaller than keys[i], and arrivedEarly could only say no.
        int nextDescent = from;
        // The smallest key of the next descent's lookahead window that could still be kept (see below), and the
        // descent it was computed for (-1: none yet).
        long windowMin = 0;
        int windowDescent = -1;
        for (int i = from; i < to; i++) {
            final long key = keys[i];
            if (nextDescent <= i) {
                nextDescent = i + 1;
                while (nextDescent < to && keys[nextDescent] >= keys[nextDescent - 1]) {
                    nextDescent++;
                }
            }
            // A stretch with no descent within the lookahead of any of its entries, starting at or above the last
            // kept entry, is kept whole: it ascends, so none of it is late, and none can have arrived early.
            final boolean notLate = !kept || key >= lastKept;
            int stretchEnd = nextDescent >= to ? to : nextDescent - LOOKAHEAD;
            if (stretchEnd < to && notLate) {
                // Nor can an entry closer to the descent that no key of the descent's window undercuts among those
                // that could be kept (arrivedEarly would say no to each of them): keep those as well, rather than
                // scan the window once per entry. The window's keys are filtered with today's lastKept, which only
                // grows while the stretch is kept, so the minimum is never above the one arrivedEarly would use.
                if (windowDescent != nextDescent) {
                    windowMin = smallestKeepable(keys, nextDescent, Math.min(to, nextDescent + LOOKAHEAD), kept,
                            lastKept);
                    windowDescent = nextDescent;
                }
                int end = Math.max(stretchEnd, i);
                while (end < nextDescent && keys[end] <= windowMin) {
                    end++;
                }
                stretchEnd = end;
            }
            if (i < stretchEnd && notLate) {
                final int length = stretchEnd - i;
                if (write != i) {
                    System.arraycopy(keys, i, keys, write, length);
                    System.arraycopy(values, i, values, write, length);
                }
                write += length;
                lastKept = keys[stretchEnd - 1];
                kept = true;
                i = stretchEnd - 1;
                continue;
            }
            final boolean late = !notLate;
            final boolean early = notLate && nextDescent <= i + LOOKAHEAD && nextDescent < to
                    && arrivedEarly(keys, nextDescent, Math.min(to, i + 1 + LOOKAHEAD), key, kept, lastKept);
            if (late || early) {
                if (outCount == capacity) {
                    restoreArrivalOrder(keys, values, from, write, i);
                    return false;
                }
                outKeys[outCount] = key;
                outValues[outCount] = values[i];
                outArrivals[outCount] = early ? -1 - i : i; // the sign marks an early entry
                outCount++;
            } else {
                keys[write] = key;
                values[write] = values[i];
                write++;
                lastKept = key;
                kept = true;
            }
        }
        if (deferred != null) {
            handOverGreedyOutliers(deferred);
        } else {
            mergeGreedyOutliers(keys, values, from, write, to);
        }
        return true;
    }

    /**
     * Whether one of the next {@link #LOOKAHEAD} entries, {@code keys[descent, end)}, is smaller than {@code key}
     * but could still be kept: then keeping {@code key} would turn it (and what follows) into outliers. Looking a
     * few entries ahead catches early keys that arrive next to each other. The entries before the next descent
     * are skipped: they do not descend from {@code key}, so none is smaller.
     */
    private static boolean arrivedEarly(final long[] keys, final int descent, final int end, final long key,
                                        final boolean kept, final long lastKept) {
        for (int j = descent; j < end; j++) {
            if (keys[j] < key && (!kept || keys[j] >= lastKept)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The smallest of {@code keys[from, end)} that could still be kept (at or above {@code lastKept} when
     * {@code kept}), or {@link Long#MAX_VALUE} when there is none: an entry before the window whose key is at most
     * this did not arrive early.
     */
    private static long smallestKeepable(final long[] keys, final int from, final int end, final boolean kept,
                                         final long lastKept) {
        long min = Long.MAX_VALUE;
        for (int j = from; j < end; j++) {
            if (!kept || keys[j] >= lastKept) {
                min = Math.min(min, keys[j]);
            }
        }
        return min;
    }

    /** Undoes a partial greedy scan of {@code [from, scanned)}: kept entries fill the slots outliers left. */
    private void restoreArrivalOrder(final long[] keys, final long[] values, final int from, final int written,
                                     final int scanned) {
        int kept = written;
        int out = outCount - 1;
        for (int pos = scanned - 1; pos >= from; pos--) {
            if (out >= 0 && arrivalOf(outArrivals[out]) == pos) {
                keys[pos] = outKeys[out];
                values[pos] = outValues[out];
                out--;
            } else {
                kept--;
                keys[pos] = keys[kept];
                values[pos] = values[kept];
            }
        }
        outCount = 0;
    }

    private static int arrivalOf(final int mark) {
        return mark < 0 ? -1 - mark : mark;
    }

    /**
     * Sorts the greedy outliers by (key, arrival): their keys into {@link #sortedOutlierKeys}, their indices into
     * {@link #sortedOutlierOrder}.
     */
    private void sortGreedyOutliers() {
        if (sortedOutlierKeys.length < outCount) {
            sortedOutlierKeys = new long[outKeys.length];
            sortedOutlierOrder = new long[outKeys.length];
        }
        System.arraycopy(outKeys, 0, sortedOutlierKeys, 0, outCount);
        for (int i = 0; i < outCount; i++) {
            sortedOutlierOrder[i] = i;
        }
        outlierSort.sort(sortedOutlierKeys, sortedOutlierOrder, 0, outCount); // stable: recorded in arrival order
    }

    /** Sorts the greedy outliers and hands them over to {@code deferred}, with their place among equal keys. */
    private void handOverGreedyOutliers(final SortedOutliers deferred) {
        sortGreedyOutliers();
        deferred.ensureCapacity(outCount);
        for (int j = 0; j < outCount; j++) {
            final int o = (int) sortedOutlierOrder[j];
            deferred.keys[j] = sortedOutlierKeys[j];
            deferred.values[j] = outValues[o];
            deferred.precedesEqual[j] = outArrivals[o] < 0; // early outliers precede equal kept keys
        }
        deferred.count = outCount;
    }

    /** Sorts the greedy outliers and merges them from the back (see greedySplit on ties). */
    private void mergeGreedyOutliers(final long[] keys, final long[] values, final int from, final int written,
                                     final int to) {
        if (outCount == 0) {
            return;
        }
        sortGreedyOutliers();
        final long[] sortKeys = sortedOutlierKeys;
        final long[] order = sortedOutlierOrder;
        int i = written - 1;
        int j = outCount - 1;
        for (int d = to - 1; j >= 0; d--) {
            final int o = (int) order[j];
            final boolean takeKept = i >= from && (keys[i] > sortKeys[j]
                    || (keys[i] == sortKeys[j] && outArrivals[o] < 0)); // early outliers precede equal kept keys
            if (takeKept) {
                keys[d] = keys[i];
                values[d] = values[i--];
            } else {
                keys[d] = sortKeys[j];
                values[d] = outValues[o];
                j--;
            }
        }
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
        outlierSort.sort(outKeys, outValues, 0, outCount);
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
        final int pending = heap.size() + outCount + 1;
        final long[] pk = new long[pending];
        final long[] pv = new long[pending];
        final long[] order = new long[pending];
        int p = 0;
        for (int i = 0; i < heap.size(); i++, p++) {
            pk[p] = heap.key(i);
            pv[p] = heap.value(i);
            order[p] = heap.arrival(i);
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
        heap.reset(0);
        outCount = 0;
        mergeSort.sort(keys, values, from, to);
    }

    private void ensureOutlierCapacity(final int outlierCapacity) {
        if (outKeys.length < outlierCapacity) {
            outKeys = new long[outlierCapacity];
            outValues = new long[outlierCapacity];
            outArrivals = new int[outlierCapacity];
        }
    }
}
