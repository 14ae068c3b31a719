package io.nearsort.core.sware;

/**
 * Searching the sorted runs of the SWARE buffer (SWARE §IV-B): interpolation search, which takes
 * O(log log n) probes on uniformly spread keys, guarded by bisection (after Santoro and Sidney's
 * interpolation-binary search, 1985): two probes in a row that each leave more than half the range are followed
 * by a binary step, so every three probes at least halve it and no search takes more than about 3 log2 n probes,
 * however skewed the keys.
 */
final class SortedSearch {
    private SortedSearch() {
    }

    /**
     * Index of the <em>last</em> entry equal to {@code key} in the non-decreasing {@code keys[from, to)}, or -1.
     * {@code steps[0]} is incremented by the number of probes made.
     *
     * <p>Why the guard: a buffer's sorted run is rarely spread evenly. A near-sorted stream's run is mostly
     * consecutive keys with a few early ones far above them, and a straight line from the run's first key to its
     * last then guesses too low at every step, moving the range's low end a few entries at a time. The previous
     * search gave interpolation a budget of 2 log2 n probes before switching to binary search, and searches of
     * 100,000-entry runs of a K=10%/L=5% stream took 29 probes on average, 38–46 for 58% of them. Why two
     * probes, not one: on evenly spread keys a probe that lands just short of the key moves only the range's low
     * end, so it leaves more than half the range while the search is about to end. Over 100,000 keys, searches
     * took 4.2 probes on average on evenly spread keys and 46–51 on consecutive keys with 1–10% outliers before;
     * 5.8 and 6.6–7.4 with a binary step after every such probe; 4.7 and 7.8–8.1 after two in a row
     * (docs/benchmarks.md, "2026-12-07, twenty-first session").
     */
    static int findLast(final long[] keys, final int from, final int to, final long key, final long[] steps) {
        int lo = from;
        int hi = to - 1;
        if (lo > hi || key < keys[lo] || key > keys[hi]) {
            return -1;
        }
        int slowProbes = 0; // interpolation probes in a row that left more than half the range
        while (lo <= hi) {
            final long low = keys[lo];
            final long high = keys[hi];
            if (key < low || key > high) {
                return -1;
            }
            final int size = hi - lo;
            final int pos;
            final boolean bisect = slowProbes == 2;
            if (bisect) {
                pos = (lo + hi) >>> 1;
            } else if (high == low) {
                pos = hi; // all equal to key here
            } else {
                // Doubles: keys may span the whole long range, where differences overflow.
                final double fraction = ((double) key - (double) low) / ((double) high - (double) low);
                pos = lo + (int) Math.min(size, Math.max(0, (long) (fraction * size)));
            }
            steps[0]++;
            if (keys[pos] < key) {
                lo = pos + 1;
            } else if (keys[pos] > key) {
                hi = pos - 1;
            } else {
                return lastEqual(keys, pos, to, key);
            }
            slowProbes = bisect || hi - lo <= size / 2 ? 0 : slowProbes + 1;
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
