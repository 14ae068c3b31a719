package io.nearsort.core.sortedness;

/**
 * Estimates the (K,L) sortedness of an unbounded stream in O(window) memory: keys are measured exactly in
 * tumbling windows of {@code window} arrivals, and displacements that cross a window boundary are caught by
 * comparing each key with the largest key of all earlier windows.
 *
 * <p>What the estimate means:
 * <ul>
 *   <li>K adds up each window's exact K plus the keys that arrived after a larger key of an earlier window
 *   ("late" keys). A late key that is also out of place inside its window is counted twice, so K may be
 *   overestimated by at most the number of late keys.</li>
 *   <li>L is the largest of each window's exact L and, for each late key, its distance from the start of its
 *   window (a lower bound of its true displacement).</li>
 *   <li>Minimum removals add up per window, a lower bound of the exact figure; runs and duplicates inside
 *   windows are exact, and runs are continued across window boundaries.</li>
 * </ul>
 * With a window at least as long as the stream the report equals {@link Sortedness#measure}. Confined to one
 * thread.
 */
public final class StreamingSortednessEstimator {
    private final long[] window;
    private int filled;
    private long n;
    private long k;
    private long l;
    private long minRemovals;
    private long runs;
    private long duplicates;
    private long lateKeys;
    private boolean seenEarlierWindow;
    private long maxOfEarlierWindows;
    private boolean hasLastKey;
    private long lastKey;

    /**
     * @param window arrivals measured together, from 2 to 2^27
     */
    public StreamingSortednessEstimator(final int window) {
        if (window < 2 || window > (1 << 27)) {
            throw new IllegalArgumentException("window must be in [2, 2^27] (got: " + window + ")");
        }
        this.window = new long[window];
    }

    /** Adds the next arrival. */
    public void add(final long key) {
        window[filled++] = key;
        if (filled == window.length) {
            closeWindow();
        }
    }

    /** Arrivals seen so far. */
    public long count() {
        return n + filled;
    }

    /** Keys that arrived after a larger key of an earlier window, so far (closed windows only). */
    public long lateKeys() {
        return lateKeys;
    }

    /** The estimate over every arrival so far, including the open window. */
    public SortednessReport report() {
        final Totals totals = new Totals(this);
        totals.addWindow(window, filled, seenEarlierWindow, maxOfEarlierWindows, hasLastKey, lastKey);
        return new SortednessReport(totals.n, totals.k, totals.l, totals.minRemovals, totals.runs,
                totals.duplicates, true);
    }

    private void closeWindow() {
        final Totals totals = new Totals(this);
        totals.addWindow(window, filled, seenEarlierWindow, maxOfEarlierWindows, hasLastKey, lastKey);
        n = totals.n;
        k = totals.k;
        l = totals.l;
        minRemovals = totals.minRemovals;
        runs = totals.runs;
        duplicates = totals.duplicates;
        lateKeys += totals.late;
        long max = seenEarlierWindow ? maxOfEarlierWindows : Long.MIN_VALUE;
        for (int i = 0; i < filled; i++) {
            max = Math.max(max, window[i]);
        }
        maxOfEarlierWindows = max;
        seenEarlierWindow = true;
        lastKey = window[filled - 1];
        hasLastKey = true;
        filled = 0;
    }

    /** Running totals with one more window folded in. */
    private static final class Totals {
        long n;
        long k;
        long l;
        long minRemovals;
        long runs;
        long duplicates;
        long late;

        Totals(final StreamingSortednessEstimator e) {
            n = e.n;
            k = e.k;
            l = e.l;
            minRemovals = e.minRemovals;
            runs = e.runs;
            duplicates = e.duplicates;
        }

        void addWindow(final long[] keys, final int count, final boolean hasEarlier, final long earlierMax,
                       final boolean hasLast, final long last) {
            if (count == 0) {
                return;
            }
            final SortednessReport w = Sortedness.measure(keys, 0, count);
            n += count;
            k += w.k();
            l = Math.max(l, w.l());
            minRemovals += w.minRemovals();
            duplicates += w.duplicates();
            runs += w.runs();
            if (hasLast && keys[0] >= last) {
                runs--; // the last run of the previous window continues
            }
            if (hasEarlier) {
                for (int i = 0; i < count; i++) {
                    if (keys[i] < earlierMax) {
                        late++;
                        l = Math.max(l, i + 1);
                    }
                }
                k += late;
            }
        }
    }
}
