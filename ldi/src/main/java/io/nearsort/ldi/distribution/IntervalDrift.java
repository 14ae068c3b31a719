package io.nearsort.ldi.distribution;

/**
 * One interval's state when a time window ended, before Algorithm 1 acted on it.
 *
 * @param low       the interval's smallest key
 * @param high      the interval's largest key (inclusive)
 * @param localDis  {@code L.dis} after Phase 1 accumulated the window
 * @param localLoad {@code L.load} after Phase 1
 * @param globalDis {@code G.dis} before Phase 2
 * @param globalLoad {@code G.load} before Phase 2
 * @param drift     Eq. 3
 * @param action    what Phase 2 did
 */
public record IntervalDrift(long low, long high, double localDis, long localLoad, double globalDis,
                            long globalLoad, double drift, IntervalAction action) {
}
