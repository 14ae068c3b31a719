package io.nearsort.core.sortedness;

/**
 * Exact (K,L) sortedness measurement (definitions in {@link SortednessReport} and {@code shared/DESIGN.md}),
 * in O(n log n) time and O(n) memory. For unbounded streams use {@link StreamingSortednessEstimator}.
 */
public final class Sortedness {
    private Sortedness() {
    }

    /**
     * Measures {@code keys} in arrival order.
     *
     * @param keys the keys in arrival order; any longs, duplicates included; not changed
     * @return the exact (K,L) report of the whole array
     */
    public static SortednessReport measure(final long[] keys) {
        return measure(keys, 0, keys.length);
    }

    /**
     * Measures {@code keys[from, to)} in arrival order.
     *
     * @param keys the keys in arrival order; any longs, duplicates included; not changed
     * @param from the first index to measure, inclusive
     * @param to the end of the sequence, exclusive
     * @return the exact (K,L) report of {@code keys[from, to)}, with ranks and displacements relative to it
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of {@code keys}
     */
    public static SortednessReport measure(final long[] keys, final int from, final int to) {
        java.util.Objects.checkFromToIndex(from, to, keys.length);
        final int n = to - from;
        final long[] sorted = java.util.Arrays.copyOfRange(keys, from, to);
        final long[] arrival = new long[n];
        for (int i = 0; i < n; i++) {
            arrival[i] = i;
        }
        // Stable: equal keys keep arrival order, so ties are ranked by arrival as the metric defines.
        StableMergeSort.sortStable(sorted, arrival, 0, n);
        long k = 0;
        long l = 0;
        long duplicates = 0;
        for (int rank = 0; rank < n; rank++) {
            final long displacement = Math.abs(rank - arrival[rank]);
            if (displacement != 0) {
                k++;
                l = Math.max(l, displacement);
            }
            if (rank > 0 && sorted[rank] == sorted[rank - 1]) {
                duplicates++;
            }
        }
        return new SortednessReport(n, k, l, n - longestNonDecreasing(keys, from, to), runs(keys, from, to),
                duplicates, false);
    }

    /** Length of the longest non-decreasing subsequence, by patience sorting in O(n log n). */
    static int longestNonDecreasing(final long[] keys, final int from, final int to) {
        final long[] tails = new long[Math.max(1, to - from)];
        int length = 0;
        for (int i = from; i < to; i++) {
            final long key = keys[i];
            // First tail strictly greater than key: a non-decreasing subsequence may repeat a key.
            int lo = 0;
            int hi = length;
            while (lo < hi) {
                final int mid = (lo + hi) >>> 1;
                if (tails[mid] <= key) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            tails[lo] = key;
            if (lo == length) {
                length++;
            }
        }
        return length;
    }

    /** Maximal non-decreasing runs in {@code keys[from, to)}. */
    static long runs(final long[] keys, final int from, final int to) {
        if (to == from) {
            return 0;
        }
        long runs = 1;
        for (int i = from + 1; i < to; i++) {
            if (keys[i] < keys[i - 1]) {
                runs++;
            }
        }
        return runs;
    }
}
