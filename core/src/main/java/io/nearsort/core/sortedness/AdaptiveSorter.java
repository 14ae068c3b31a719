package io.nearsort.core.sortedness;

/**
 * Sorts (key, value) runs with the algorithm SWARE §IV-C picks from the estimated sortedness: the
 * (K,L)-adaptive sort when {@code K < kThreshold·n} or {@code L < lThreshold·n}, a stable sort that does not
 * adapt otherwise. Unlike the paper, whose other sort is a merge sort, that sort is a radix sort when the run's
 * keys span few enough bytes for its length ({@link StableRadixSort}), a merge sort only otherwise: a stream of
 * late events (every key a little late: K near 100%, L small) fills the buffer with keys spanning about the
 * buffer's own width, which two or three radix passes sort, where a merge sort takes log<sub>2</sub> n levels
 * whatever L is. All keep arrival order among equal keys. Defaults are the SWARE paper's (K &lt; 20% or
 * L &lt; 5%); the OSM-tree paper's earlier rule is K &lt; 10%. The thresholds are compared in floating point:
 * the public C++ reference computes one of them with an integer division that disables it.
 *
 * <p>Counts how often each algorithm ran and how often the adaptive sort fell back. Confined to one thread.
 */
public final class AdaptiveSorter {
    /** K threshold of SWARE §IV-C, as a fraction of the run length. */
    public static final double DEFAULT_K_THRESHOLD = 0.20;
    /** L threshold of SWARE §IV-C, as a fraction of the run length. */
    public static final double DEFAULT_L_THRESHOLD = 0.05;

    /** The algorithm a sort used. */
    public enum Algorithm {
        /** The (K,L)-adaptive sort finished the run. */
        KL_ADAPTIVE,
        /** The (K,L)-adaptive sort was chosen but K or L were underestimated; merge sort finished. */
        KL_ADAPTIVE_FELL_BACK,
        /** The stable sort was chosen, and merge-sorted the run (its keys span too many bytes for a radix sort). */
        MERGE_SORT,
        /** The stable sort was chosen, and radix-sorted the run. */
        RADIX_SORT
    }

    private final double kThreshold;
    private final double lThreshold;
    private final KLAdaptiveSort klSort = new KLAdaptiveSort();
    private final StableRadixSort stableSort = new StableRadixSort();
    private long adaptiveSorts;
    private long fallbacks;
    private long mergeSorts;
    private long radixSorts;

    /** A sorter with the SWARE paper's thresholds. */
    public AdaptiveSorter() {
        this(DEFAULT_K_THRESHOLD, DEFAULT_L_THRESHOLD);
    }

    /**
     * A sorter with the given thresholds, each a fraction of the run length.
     *
     * @param kThreshold fraction of the run below which an estimated K picks the adaptive sort, in [0, 1]
     * @param lThreshold fraction of the run below which an estimated L picks the adaptive sort, in [0, 1]
     */
    public AdaptiveSorter(final double kThreshold, final double lThreshold) {
        this.kThreshold = checkFraction("kThreshold", kThreshold);
        this.lThreshold = checkFraction("lThreshold", lThreshold);
    }

    private static double checkFraction(final String name, final double value) {
        if (!(value >= 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(name + " must be in [0, 1] (got: " + value + ")");
        }
        return value;
    }

    /**
     * The algorithm SWARE §IV-C picks for a run of {@code n} entries with estimated K and L (counts).
     *
     * @param n the run's length in entries
     * @param kEstimate estimated out-of-place entries in the run (count)
     * @param lEstimate estimated maximum displacement in the run (count)
     * @return true for the (K,L)-adaptive sort ({@code K < kThreshold·n} or {@code L < lThreshold·n}), false for
     *         the stable sort
     */
    public boolean prefersAdaptive(final int n, final long kEstimate, final long lEstimate) {
        return kEstimate < kThreshold * n || lEstimate < lThreshold * n;
    }

    /**
     * Sorts {@code keys[from, to)} stably, moving {@code values} along.
     *
     * @param keys the keys; {@code keys[from, to)} is sorted in place
     * @param values the values, moved with their keys; {@code values[from, to)} is rearranged
     * @param from the first index of the run, inclusive
     * @param to the end of the run, exclusive
     * @param kEstimate estimated out-of-place entries in the run (count)
     * @param lEstimate estimated maximum displacement in the run (count)
     * @return the algorithm that sorted the run
     */
    public Algorithm sort(final long[] keys, final long[] values, final int from, final int to,
                          final long kEstimate, final long lEstimate) {
        return sort(keys, values, from, to, kEstimate, lEstimate, null);
    }

    /**
     * Sorts like {@link #sort(long[], long[], int, int, long, long)}; when the (K,L)-adaptive sort runs and its
     * greedy pass finishes, the entries it set aside are handed over sorted in {@code deferred} rather than
     * merged in (see {@link KLAdaptiveSort#sort(long[], long[], int, int, int, int, SortedOutliers)}):
     * {@code keys[from, to - deferred.count())} is then sorted, and the caller merges the outliers.
     *
     * @param keys the keys; {@code keys[from, to)} is sorted in place (but for deferred outliers)
     * @param values the values, moved with their keys
     * @param from the first index of the run, inclusive
     * @param to the end of the run, exclusive
     * @param kEstimate estimated out-of-place entries in the run (count)
     * @param lEstimate estimated maximum displacement in the run (count)
     * @param deferred receives the outliers (emptied when there are none); null to merge them here
     * @return the algorithm that sorted the run
     */
    public Algorithm sort(final long[] keys, final long[] values, final int from, final int to,
                          final long kEstimate, final long lEstimate, final SortedOutliers deferred) {
        return sort(keys, values, from, to, kEstimate, lEstimate, null, deferred);
    }

    /**
     * Sorts like {@link #sort(long[], long[], int, int, long, long, SortedOutliers)}, asking {@code lEstimate} for
     * L only when it is needed: when K alone does not pick the (K,L)-adaptive sort ({@code K >= kThreshold·n}),
     * or when that sort's greedy pass failed and its heap needs a window. It is asked with {@code keys[from, to)}
     * in arrival order. Near-sorted runs (small K) that the greedy pass sorts never ask.
     *
     * @param keys the keys; {@code keys[from, to)} is sorted in place (but for deferred outliers)
     * @param values the values, moved with their keys
     * @param from the first index of the run, inclusive
     * @param to the end of the run, exclusive
     * @param kEstimate estimated out-of-place entries in the run (count)
     * @param lEstimate estimates the maximum displacement in the run when asked
     * @param deferred receives the outliers (emptied when there are none); null to merge them here
     * @return the algorithm that sorted the run
     */
    public Algorithm sort(final long[] keys, final long[] values, final int from, final int to,
                          final long kEstimate, final DisplacementEstimator lEstimate,
                          final SortedOutliers deferred) {
        java.util.Objects.requireNonNull(lEstimate, "lEstimate");
        return sort(keys, values, from, to, kEstimate, 0, lEstimate, deferred);
    }

    /** The sorts above: L is {@code lKnown} when {@code lEstimate} is null, else asked of it when needed. */
    private Algorithm sort(final long[] keys, final long[] values, final int from, final int to,
                           final long kEstimate, final long lKnown, final DisplacementEstimator lEstimate,
                           final SortedOutliers deferred) {
        if (deferred != null) {
            deferred.count = 0;
        }
        final int n = to - from;
        long l = lKnown;
        boolean lKnownNow = lEstimate == null;
        boolean adaptive = kEstimate < kThreshold * n;
        if (!adaptive) {
            if (!lKnownNow) {
                l = KLAdaptiveSort.ask(lEstimate, keys, from, to, (long) Math.ceil(lThreshold * n));
                lKnownNow = true;
            }
            adaptive = l < lThreshold * n;
        }
        if (adaptive) {
            final int k = (int) Math.min(n, Math.max(0, kEstimate));
            final KLAdaptiveSort.Outcome outcome = lKnownNow
                    ? klSort.sort(keys, values, from, to, k, (int) Math.min(n, Math.max(0, l)), deferred)
                    : klSort.sort(keys, values, from, to, k, lEstimate, deferred);
            if (outcome == KLAdaptiveSort.Outcome.ADAPTIVE) {
                adaptiveSorts++;
                return Algorithm.KL_ADAPTIVE;
            }
            fallbacks++;
            return Algorithm.KL_ADAPTIVE_FELL_BACK;
        }
        if (stableSort.sort(keys, values, from, to)) {
            radixSorts++;
            return Algorithm.RADIX_SORT;
        }
        mergeSorts++;
        return Algorithm.MERGE_SORT;
    }

    /**
     * Bytes of Java heap the sorts' kept scratch arrays hold (array payloads): they grow to the longest run
     * sorted and stay, so a sorter reused for runs of n entries settles at a few times 16 bytes per entry.
     *
     * @return the bytes of the scratch arrays' payloads
     */
    public long heapBytes() {
        return klSort.heapBytes() + stableSort.heapBytes();
    }

    /**
     * Runs the (K,L)-adaptive sort finished.
     *
     * @return the count of {@link Algorithm#KL_ADAPTIVE} sorts so far
     */
    public long adaptiveSorts() {
        return adaptiveSorts;
    }

    /**
     * Runs where the adaptive sort fell back to merge sort.
     *
     * @return the count of {@link Algorithm#KL_ADAPTIVE_FELL_BACK} sorts so far
     */
    public long fallbacks() {
        return fallbacks;
    }

    /**
     * Runs sorted by the stable merge sort by choice.
     *
     * @return the count of {@link Algorithm#MERGE_SORT} sorts so far
     */
    public long mergeSorts() {
        return mergeSorts;
    }

    /**
     * Runs sorted by the stable radix sort by choice.
     *
     * @return the count of {@link Algorithm#RADIX_SORT} sorts so far
     */
    public long radixSorts() {
        return radixSorts;
    }
}
