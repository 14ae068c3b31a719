package io.nearsort.core.sware;

/**
 * Searching the sorted runs of the SWARE buffer (SWARE §IV-B): interpolation search, which takes
 * O(log log n) probes on uniformly spread keys, falling back to binary search once it stops narrowing the
 * range quickly (skewed keys), so no search takes more than O(log n) probes.
 */
final class SortedSearch {
    private SortedSearch() {
    }

    /**
     * Index of the <em>last</em> entry equal to {@code key} in the non-decreasing {@code keys[from, to)}, or -1.
     * {@code steps[0]} is incremented by the number of probes made.
     */
    static int findLast(final long[] keys, final int from, final int to, final long key, final long[] steps) {
        int lo = from;
        int hi = to - 1;
        if (lo > hi || key < keys[lo] || key > keys[hi]) {
            return -1;
        }
        // Interpolation while it keeps cutting the range to well under half; then binary search.
        int budget = 2 + 2 * (32 - Integer.numberOfLeadingZeros(hi - lo + 1));
        while (lo <= hi && budget > 0) {
            final long low = keys[lo];
            final long high = keys[hi];
            if (key < low || key > high) {
                return -1;
            }
            final int pos;
            if (high == low) {
                pos = hi; // all equal to key here
            } else {
                // Doubles: keys may span the whole long range, where differences overflow.
                final double fraction = ((double) key - (double) low) / ((double) high - (double) low);
                pos = lo + (int) Math.min(hi - lo, Math.max(0, (long) (fraction * (hi - lo))));
            }
            steps[0]++;
            budget--;
            if (keys[pos] < key) {
                lo = pos + 1;
            } else if (keys[pos] > key) {
                hi = pos - 1;
            } else {
                return lastEqual(keys, pos, to, key);
            }
        }
        while (lo <= hi) {
            final int mid = (lo + hi) >>> 1;
            steps[0]++;
            if (keys[mid] < key) {
                lo = mid + 1;
            } else if (keys[mid] > key) {
                hi = mid - 1;
            } else {
                return lastEqual(keys, mid, to, key);
            }
        }
        return -1;
    }

    private static int lastEqual(final long[] keys, final int at, final int to, final long key) {
        int i = at;
        while (i + 1 < to && keys[i + 1] == key) {
            i++;
        }
        return i;
    }

    /** Index of the first entry {@code >= key} in the non-decreasing {@code keys[from, to)}, in [from, to]. */
    static int lowerBound(final long[] keys, final int from, final int to, final long key) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (keys[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Index of the first entry {@code > key} in the non-decreasing {@code keys[from, to)}, in [from, to]. */
    static int upperBound(final long[] keys, final int from, final int to, final long key) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (keys[mid] <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
