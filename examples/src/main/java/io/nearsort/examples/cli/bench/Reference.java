package io.nearsort.examples.cli.bench;

import io.nearsort.core.sortedness.StableMergeSort;

import java.util.Arrays;

/**
 * What every structure must return for a workload, computed without any index: the (key, arrival) pairs sorted
 * stably by key, so that the value of a key after the first w writes is its last arrival before w (values are
 * arrival positions, see {@link Workload}).
 */
final class Reference {
    private final long[] sortedKeys;
    private final long[] arrivals;
    private final long[] distinctKeys;
    /** prefixSums[i] = sum of the final values of distinctKeys[0, i). */
    private final long[] prefixSums;

    Reference(final Workload workload) {
        final long[] keys = workload.keys();
        sortedKeys = keys.clone();
        arrivals = workload.arrivalValues();
        StableMergeSort.sortStable(sortedKeys, arrivals, 0, sortedKeys.length);
        int distinct = 0;
        final long[] distinctBuffer = new long[sortedKeys.length];
        final long[] sums = new long[sortedKeys.length + 1];
        for (int i = 0; i < sortedKeys.length; i++) {
            final boolean lastOfKey = i + 1 == sortedKeys.length || sortedKeys[i + 1] != sortedKeys[i];
            if (lastOfKey) {
                distinctBuffer[distinct] = sortedKeys[i];
                sums[distinct + 1] = sums[distinct] + arrivals[i];
                distinct++;
            }
        }
        distinctKeys = Arrays.copyOf(distinctBuffer, distinct);
        prefixSums = Arrays.copyOf(sums, distinct + 1);
    }

    /** Distinct keys: the size every structure must report after the whole ingest. */
    int distinct() {
        return distinctKeys.length;
    }

    /** The {@code i}-th smallest distinct key. */
    long distinctKey(final int i) {
        return distinctKeys[i];
    }

    /** The value of {@code key} after the whole workload, or {@code missing}. */
    long value(final long key, final long missing) {
        return valueBefore(key, arrivals.length, missing);
    }

    /** The value of {@code key} after the first {@code writes} writes: its last arrival before, or {@code missing}. */
    long valueBefore(final long key, final int writes, final long missing) {
        // The pairs of key are sortedKeys[first, end); their arrivals ascend (the sort is stable).
        final int end = upperBound(sortedKeys, 0, sortedKeys.length, key);
        final int first = lowerBound(sortedKeys, 0, end, key);
        final int last = lowerBound(arrivals, first, end, writes) - 1;
        return last >= first ? arrivals[last] : missing;
    }

    /** Count and sum of the final values of keys in [lo, hi]. */
    void scan(final long lo, final long hi, final long[] result) {
        final int from = lowerBound(distinctKeys, 0, distinctKeys.length, lo);
        final int to = Math.max(from, upperBound(distinctKeys, 0, distinctKeys.length, hi));
        result[0] = to - from;
        result[1] = prefixSums[to] - prefixSums[from];
    }

    private static int lowerBound(final long[] a, final int from, final int to, final long key) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static int upperBound(final long[] a, final int from, final int to, final long key) {
        return key == Long.MAX_VALUE ? to : lowerBound(a, from, to, key + 1);
    }
}
