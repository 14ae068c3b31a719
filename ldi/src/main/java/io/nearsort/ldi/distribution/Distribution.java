package io.nearsort.ldi.distribution;

/**
 * A read-only view of LDI's learned distribution (§3.1–3.2, Table 4): contiguous intervals covering the keys
 * seen so far, each with its global ({@code G}) and local ({@code L}) normalised frequency {@code dis} and count
 * {@code load}. Interval {@code i} holds the keys {@code [low(i), high(i)]}, both inclusive; intervals are
 * numbered from 0 in key order.
 */
public interface Distribution {

    /** Number of intervals. */
    int intervalCount();

    /** Smallest key of interval {@code i}. */
    long low(int i);

    /** Largest key of interval {@code i} (inclusive). */
    long high(int i);

    /** The interval holding {@code key}; keys outside every interval map to the first or last one. */
    int intervalOf(long key);

    /** {@code G.dis_i}: the global normalised frequency buckets are created from. */
    double globalDis(int i);

    /** {@code G.load_i}: tuples accounted in the global distribution. */
    long globalLoad(int i);

    /** {@code L.dis_i}: the local normalised frequency accumulated since the last change of this interval. */
    double localDis(int i);

    /** {@code L.load_i}: tuples accumulated locally since the last change of this interval. */
    long localLoad(int i);

    /** {@code C.load_i}: tuples of the current, unfinished time window that fell into interval {@code i}. */
    long currentLoad(int i);

    /**
     * Eq. 3: {@code (w_L·L.dis + w_G·G.dis) / G.dis} with the weights of Eqs. 4–5. It is 1 when the interval has
     * seen no data at all, and positive infinity when local data arrived for an interval with {@code G.dis = 0}.
     */
    double drift(int i);

    /** Intervals split so far (drift ≥ Φmax). */
    long splits();

    /** Intervals merged into a neighbour so far (drift ≤ Φmin). */
    long merges();

    /** Completed time windows. */
    long windows();
}
