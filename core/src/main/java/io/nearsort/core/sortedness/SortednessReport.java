package io.nearsort.core.sortedness;

import java.util.Locale;

/**
 * The sortedness of a key sequence in the (K,L) metric (SWARE §II, OSM-tree §5): with {@code p(i)} the arrival
 * position of the i-th smallest key (ties by arrival), K counts the ranks with {@code p(i) != i} and L is the
 * largest {@code |i - p(i)|}. Also the minimum number of removals that leave a sorted sequence
 * ({@code n -} longest non-decreasing subsequence), the number of maximal non-decreasing runs and the number of
 * repeated keys.
 *
 * @param n            entries measured
 * @param k            out-of-place entries (count)
 * @param l            largest displacement (count)
 * @param minRemovals  entries to remove to leave the sequence sorted
 * @param runs         maximal non-decreasing runs (0 for an empty sequence)
 * @param duplicates   entries whose key occurred before ({@code n -} distinct keys)
 * @param approximate  whether the figures come from a streaming estimate rather than an exact measurement
 */
public record SortednessReport(long n, long k, long l, long minRemovals, long runs, long duplicates,
                               boolean approximate) {
    /**
     * K as a fraction of n (0 when n is 0).
     *
     * @return {@code k / n} in [0, 1]; 0 when n is 0
     */
    public double kFraction() {
        return n == 0 ? 0.0 : (double) k / n;
    }

    /**
     * L as a fraction of n (0 when n is 0).
     *
     * @return {@code l / n} in [0, 1); 0 when n is 0
     */
    public double lFraction() {
        return n == 0 ? 0.0 : (double) l / n;
    }

    /**
     * Whether the sequence is non-decreasing.
     *
     * @return true when K is 0 (no entry is out of place)
     */
    public boolean isSorted() {
        return k == 0;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s{n=%d, K=%d (%.3f%%), L=%d (%.3f%%), minRemovals=%d, runs=%d, "
                        + "duplicates=%d}", approximate ? "SortednessEstimate" : "Sortedness", n, k,
                100 * kFraction(), l, 100 * lFraction(), minRemovals, runs, duplicates);
    }
}
