package io.nearsort.core.sortedness;

/**
 * Estimates the (K,L) sortedness of an unbounded stream in O(window) memory and O(log window) time per key.
 *
 * <p>The stream passes through a min-heap of {@code window} entries ordered by (key, arrival), the first pass
 * of the (K,L)-adaptive sort: a heap of L + 1 entries emits any sequence whose displacements are at most L in
 * exactly sorted order. The i-th emitted entry therefore has rank i, and comparing that rank with its arrival
 * position gives the exact K and L of {@link Sortedness#measure} whenever the stream's L is below the window.
 * An entry that leaves the heap smaller than its predecessor arrived more than a window late: it is counted
 * as an <em>outlier</em>, displaced by at least the window. With outliers present, K may be overestimated (the
 * entries an early key overtook look displaced by one until the outlier resynchronises the ranks) and L is a
 * lower bound. {@link #outliers()} says which case applies.
 *
 * <p>Duplicates and runs are exact while there are no outliers; minimum removals are computed exactly inside
 * tumbling windows and summed, a lower bound of the exact figure. Confined to one thread.
 */
public final class StreamingSortednessEstimator {
    private final int window;
    private final ArrivalHeap heap = new ArrivalHeap();
    private final Tally tally = new Tally();
    private final long[] removalWindow;
    private int removalFill;
    private long arrivals;
    private boolean hasLastArrival;
    private long lastArrival;
    private long runs;

    /**
     * An estimator of an empty stream whose heap holds {@code window} entries.
     *
     * @param window entries held at once, from 2 to 2^27; K and L are exact for streams whose L is smaller
     */
    public StreamingSortednessEstimator(final int window) {
        if (window < 2 || window > (1 << 27)) {
            throw new IllegalArgumentException("window must be in [2, 2^27] (got: " + window + ")");
        }
        this.window = window;
        this.heap.reset(window);
        this.removalWindow = new long[window];
    }

    /**
     * Adds the next arrival.
     *
     * @param key the next key of the stream; any long
     */
    public void add(final long key) {
        if (!hasLastArrival || key < lastArrival) {
            runs++;
        }
        hasLastArrival = true;
        lastArrival = key;
        removalWindow[removalFill++] = key;
        if (removalFill == window) {
            tally.removals += window - Sortedness.longestNonDecreasing(removalWindow, 0, window);
            removalFill = 0;
        }
        if (heap.size() == window) {
            tally.emit(heap.minKey(), heap.minArrival(), window);
            heap.popMin();
        }
        heap.push(key, 0L, arrivals++);
    }

    /**
     * Arrivals seen so far.
     *
     * @return the number of keys added so far
     */
    public long count() {
        return arrivals;
    }

    /**
     * Entries that arrived more than a window late so far (0 means K and L are exact).
     *
     * @return the number of outliers so far; 0 when K and L are exact
     */
    public long outliers() {
        return tally.outliers;
    }

    /**
     * The estimate over every arrival so far; does not disturb the stream state.
     *
     * @return a report with {@code approximate} set, covering every key added so far
     */
    public SortednessReport report() {
        final Tally t = tally.copy();
        final int pending = heap.size();
        final long[] arrivalKeys = new long[pending];
        final long[] byArrival = new long[pending];
        for (int i = 0; i < pending; i++) {
            arrivalKeys[i] = heap.key(i);
            byArrival[i] = heap.arrival(i);
        }
        // Pending entries leave in (key, arrival) order: a stable sort by key of arrival-ordered copies gives it.
        StableMergeSort.sortStable(byArrival, arrivalKeys, 0, pending);
        StableMergeSort.sortStable(arrivalKeys, byArrival, 0, pending);
        for (int i = 0; i < pending; i++) {
            t.emit(arrivalKeys[i], byArrival[i], window);
        }
        t.removals += removalFill - Sortedness.longestNonDecreasing(removalWindow, 0, removalFill);
        return new SortednessReport(arrivals, t.k, t.l, t.removals, runs, t.duplicates, true);
    }

    /** Counters over the entries emitted in sorted order so far. */
    private static final class Tally {
        long emitted;
        boolean hasEmitted;
        long lastEmitted;
        long k;
        long l;
        long duplicates;
        long outliers;
        long removals;

        void emit(final long key, final long arrival, final int window) {
            final long rank = emitted++;
            if (hasEmitted && key < lastEmitted) {
                // Arrived more than a window late: displaced by at least the window. It still takes a rank so
                // that later ranks line up with arrivals again.
                outliers++;
                k++;
                l = Math.max(l, window);
                return;
            }
            if (hasEmitted && key == lastEmitted) {
                duplicates++;
            }
            if (rank != arrival) {
                k++;
                l = Math.max(l, Math.abs(rank - arrival));
            }
            hasEmitted = true;
            lastEmitted = key;
        }

        Tally copy() {
            final Tally t = new Tally();
            t.emitted = emitted;
            t.hasEmitted = hasEmitted;
            t.lastEmitted = lastEmitted;
            t.k = k;
            t.l = l;
            t.duplicates = duplicates;
            t.outliers = outliers;
            t.removals = removals;
            return t;
        }
    }
}
