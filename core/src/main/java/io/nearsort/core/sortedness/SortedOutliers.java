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

    /** Outliers set aside by the last sort; 0 when it sorted the whole run. */
    public int count() {
        return count;
    }

    /** The {@code i}-th smallest outlier's key. */
    public long key(final int i) {
        return keys[i];
    }

    /** The {@code i}-th smallest outlier's value. */
    public long value(final int i) {
        return values[i];
    }

    /** Whether the {@code i}-th outlier goes before the run's entries with an equal key (it arrived early). */
    public boolean precedesEqualRunKeys(final int i) {
        return precedesEqual[i];
    }

    /** Bytes of Java heap its arrays hold (array payloads; they grow to the most outliers one sort set aside). */
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
