package io.nearsort.core.sortedness;

import java.util.Objects;

/**
 * SWARE §IV-C's zonemap estimate of L, computed from a run's keys when a sort asks for it (described at
 * {@link DisplacementEstimator#zoneWalk}). Keeps one {@code long} per zone of the longest run it estimated;
 * confined to one thread.
 */
public final class ZoneWalkEstimator implements DisplacementEstimator {
    private final int zoneSize;
    private final int maxZones;
    /** The largest key of each whole zone passed so far in the current call. */
    private long[] zoneMax = new long[0];

    /**
     * An estimator with zones of {@code zoneSize} entries, following a descent at most {@code maxZones} zones back.
     *
     * @param zoneSize entries per zone, at least 1
     * @param maxZones how many zones back a descent is followed, at least 1
     * @throws IllegalArgumentException when {@code zoneSize} or {@code maxZones} is below 1
     */
    public ZoneWalkEstimator(final int zoneSize, final int maxZones) {
        if (zoneSize < 1 || maxZones < 1) {
            throw new IllegalArgumentException("zoneSize and maxZones must be >= 1 (got: zoneSize=" + zoneSize
                    + ", maxZones=" + maxZones + ")");
        }
        this.zoneSize = zoneSize;
        this.maxZones = maxZones;
    }

    /**
     * Bytes of Java heap its kept zone maxima hold (the array's payload).
     *
     * @return the bytes of the zone maxima
     */
    public long heapBytes() {
        return (long) Long.BYTES * zoneMax.length;
    }

    @Override
    public long estimate(final long[] keys, final int from, final int to, final long enough) {
        Objects.checkFromToIndex(from, to, keys.length);
        final int n = to - from;
        if (n < 2) {
            return 0;
        }
        final int zones = (n - 1) / zoneSize + 1;
        if (zoneMax.length < zones) {
            zoneMax = new long[Math.max(zones, zoneMax.length * 2)];
        }
        final long[] maxima = zoneMax;
        final long saturated = Math.min((long) maxZones * zoneSize, Math.max(1, enough));
        long l = 0;
        int zone = 0; // the zone of position i; maxima[0, zone) hold the whole zones before it
        int zoneEnd = Math.min(n, zoneSize);
        long runningMax = keys[from];
        for (int i = 1; i < n; i++) {
            if (i == zoneEnd) {
                maxima[zone++] = runningMax;
                runningMax = Long.MIN_VALUE;
                zoneEnd = (int) Math.min(n, (long) zoneEnd + zoneSize);
            }
            final long key = keys[from + i];
            if (key < keys[from + i - 1]) {
                final int oldest = Math.max(0, zone - maxZones);
                // Only a walk reaching a zone that starts before i - l raises the estimate: the newest such zone
                // is "improving"; if the walk cannot get past it (its maximum does not exceed the key), skip.
                final long improving = Math.floorDiv(i - l - 1, zoneSize);
                if (improving >= oldest && !(improving < zone && maxima[(int) improving] <= key)) {
                    int start = zone;
                    while (start > oldest && maxima[start - 1] > key) {
                        start--;
                    }
                    l = Math.max(l, i - (long) start * zoneSize);
                    if (l >= saturated) {
                        return l; // enough for the caller, or a longer walk could add less than one zone
                    }
                }
            }
            runningMax = Math.max(runningMax, key);
        }
        return l;
    }
}
