package io.nearsort.ldi.distribution;

/**
 * A read-only view of LDI's learned distribution (§3.1–3.2, Table 4): contiguous intervals covering the keys
 * seen so far, each with its global ({@code G}) and local ({@code L}) normalised frequency {@code dis} and count
 * {@code load}. Interval {@code i} holds the keys {@code [low(i), high(i)]}, both inclusive; intervals are
 * numbered from 0 in key order.
 */
public interface Distribution {

    /**
     * Number of intervals.
     *
     * @return the number of intervals, at least 1
     */
    int intervalCount();

    /**
     * Smallest key of interval {@code i}.
     *
     * @param i the interval's index, 0 to {@code intervalCount() - 1}
     * @return the interval's smallest key
     */
    long low(int i);

    /**
     * Largest key of interval {@code i} (inclusive).
     *
     * @param i the interval's index, 0 to {@code intervalCount() - 1}
     * @return the interval's largest key, inclusive
     */
    long high(int i);

    /**
     * The interval holding {@code key}; keys outside every interval map to the first or last one.
     *
     * @param key any long
     * @return the index of its interval, 0 to {@code intervalCount() - 1}
     */
    int intervalOf(long key);

    /**
     * {@code G.dis_i}: the global normalised frequency buckets are created from.
     *
     * @param i the interval's index, 0 to {@code intervalCount() - 1}
     * @return {@code G.dis_i}, from 0 to 1
     */
    double globalDis(int i);

    /**
     * {@code G.load_i}: tuples accounted in the global distribution.
     *
     * @param i the interval's index, 0 to {@code intervalCount() - 1}
     * @return {@code G.load_i}, not negative
     */
    long globalLoad(int i);

    /**
     * {@code L.dis_i}: the local normalised frequency accumulated since the last change of this interval.
     *
     * @param i the interval's index, 0 to {@code intervalCount() - 1}
     * @return {@code L.dis_i}, from 0 to 1
     */
    double localDis(int i);

    /**
     * {@code L.load_i}: tuples accumulated locally since the last change of this interval.
     *
     * @param i the interval's index, 0 to {@code intervalCount() - 1}
     * @return {@code L.load_i}, not negative
     */
    long localLoad(int i);

    /**
     * {@code C.load_i}: tuples of the current, unfinished time window that fell into interval {@code i}.
     *
     * @param i the interval's index, 0 to {@code intervalCount() - 1}
     * @return {@code C.load_i}, not negative
     */
    long currentLoad(int i);

    /**
     * Eq. 3: {@code (w_L·L.dis + w_G·G.dis) / G.dis} with the weights of Eqs. 4–5. It is 1 when the interval has
     * seen no data at all, and positive infinity when local data arrived for an interval with {@code G.dis = 0}.
     *
     * @param i the interval's index, 0 to {@code intervalCount() - 1}
     * @return the interval's drift, not negative; 1 or positive infinity in the cases above
     */
    double drift(int i);

    /**
     * Intervals split so far (drift ≥ Φmax).
     *
     * @return the number of splits since the distribution was made
     */
    long splits();

    /**
     * Intervals merged into a neighbour so far (drift ≤ Φmin).
     *
     * @return the number of merges since the distribution was made
     */
    long merges();

    /**
     * Completed time windows.
     *
     * @return the number of time windows tuned so far
     */
    long windows();
}
