package io.nearsort.core.sortedness;

/**
 * The outliers of a (K,L)-adaptive sort's greedy pass, handed over sorted instead of merged into the run
 * ({@link KLAdaptiveSort#sort(long[], long[], int, int, int, int, SortedOutliers)}), so that a caller about to
 * merge the run with something else anyway merges them in the same pass and the run is written once.
 *
 * <p>Order among equal keys, which is arrival order: an outlier that arrived early precedes the run's entries
 * with its key ({@link #precedesEqualRunKeys}), one that arrived late follows them, and outliers with one key
 * keep their arrival order among themselves. Filled and reused by one sort; read by the thread that sorted.
 *
 * <p>Internal: the hand-over between the adaptive sort and the SWARE flush; not part of the API, may change in
 * any release.
 */
public final class SortedOutliers {
    long[] keys = new long[0];
    long[] values = new long[0];
    boolean[] precedesEqual = new boolean[0];
    int count;

    /** An empty hand-over, holding no outliers; its arrays grow to the most outliers a sort sets aside. */
    public SortedOutliers() {
    }

    /**
     * Outliers set aside by the last sort; 0 when it sorted the whole run.
     *
     * @return the number of outliers, {@code >= 0}
     */
    public int count() {
        return count;
    }

    /**
     * The {@code i}-th smallest outlier's key.
     *
     * @param i the outlier's rank among the outliers, in {@code [0, count())} (not checked against the count)
     * @return the key of outlier {@code i}
     */
    public long key(final int i) {
        return keys[i];
    }

    /**
     * The {@code i}-th smallest outlier's value.
     *
     * @param i the outlier's rank among the outliers, in {@code [0, count())} (not checked against the count)
     * @return the value of outlier {@code i}
     */
    public long value(final int i) {
        return values[i];
    }

    /**
     * Whether the {@code i}-th outlier goes before the run's entries with an equal key (it arrived early).
     *
     * @param i the outlier's rank among the outliers, in {@code [0, count())} (not checked against the count)
     * @return true when outlier {@code i} arrived before the run's entries with its key
     */
    public boolean precedesEqualRunKeys(final int i) {
        return precedesEqual[i];
    }

    /**
     * Bytes of Java heap its arrays hold (array payloads; they grow to the most outliers one sort set aside).
     *
     * @return the bytes of the arrays' payloads
     */
    public long heapBytes() {
        return (long) Long.BYTES * (keys.length + values.length) + precedesEqual.length;
    }

    void ensureCapacity(final int n) {
        if (keys.length < n) {
            keys = new long[n];
            values = new long[n];
            precedesEqual = new boolean[n];
        }
    }
}
