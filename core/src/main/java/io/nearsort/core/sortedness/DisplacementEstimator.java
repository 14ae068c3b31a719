package io.nearsort.core.sortedness;

/**
 * An estimate of L, the largest displacement in a run (SWARE §IV-C), that a sort asks for only when it needs one:
 * {@link AdaptiveSorter} when K alone does not pick the algorithm, {@link KLAdaptiveSort} when its greedy pass
 * failed and its heap needs a window. A caller that keeps no running estimate while the run arrives (SWARE's
 * buffer keeps none: kept per append, it took about 30% of each append of a K=5%/L=5% stream) hands one of these
 * over, and most sorts of near-sorted runs never call it.
 *
 * <p>{@link #zoneWalk(int, int)} is the estimate the SWARE buffer uses, computed from the run's keys in arrival
 * order; {@link #of(long)} passes a known value.
 */
@FunctionalInterface
public interface DisplacementEstimator {
    /**
     * Estimates L for {@code keys[from, to)}, which hold the run in arrival order when this is called. A sort that
     * only compares L with a threshold passes that threshold as {@code enough}: the estimate may stop as soon as
     * it reaches it.
     *
     * @param keys the keys; {@code keys[from, to)} is the run, not changed
     * @param from the first index of the run, inclusive
     * @param to the end of the run, exclusive
     * @param enough a value beyond which the caller needs no precision: any result at or above it means "at
     *               least {@code enough}"
     * @return the estimated largest displacement (a count), at least 0
     */
    long estimate(long[] keys, int from, int to, long enough);

    /**
     * An estimator that returns {@code l} whatever the run.
     *
     * @param l the known or estimated largest displacement, at least 0
     * @return an estimator returning {@code l}
     * @throws IllegalArgumentException when {@code l} is negative
     */
    static DisplacementEstimator of(final long l) {
        if (l < 0) {
            throw new IllegalArgumentException("l must be >= 0 (got: " + l + ")");
        }
        return (keys, from, to, enough) -> l;
    }

    /**
     * The zonemap estimate of SWARE §IV-C: the run is cut into zones of {@code zoneSize} entries from its start,
     * and each key smaller than its predecessor (a descent) belongs as far back as the start of the oldest zone of
     * the unbroken stretch of whole zones, ending just before its own, whose largest key exceeds it, at most
     * {@code maxZones} zones back; the estimate is the largest such distance. It is exact for a single key moved
     * back by whole zones; it stops at {@code maxZones · zoneSize} (a longer walk could add less than a zone) or at
     * the caller's {@code enough}. Costs one pass over the run's keys and, per descent, a walk over zone maxima,
     * ending as soon as a bound is reached. The instance keeps its zone maxima between calls: confine it to one
     * thread.
     *
     * @param zoneSize entries per zone, at least 1
     * @param maxZones how many zones back a descent is followed, at least 1
     * @return a new estimator
     * @throws IllegalArgumentException when {@code zoneSize} or {@code maxZones} is below 1
     */
    static ZoneWalkEstimator zoneWalk(final int zoneSize, final int maxZones) {
        return new ZoneWalkEstimator(zoneSize, maxZones);
    }
}
