package io.nearsort.jmh.sbtree;

import java.util.SplittableRandom;

/**
 * The time-series workload of the SB-Tree paper (§V-A): keys are a 6-byte time stamp followed by a 2-byte sensor
 * id from 1,024 sensors, in arrival order. The paper reads the time stamp counter before each insert, so keys
 * arrive increasing; here time advances by one per arrival and sensors take turns, which gives the same order
 * without a clock read in the timed loop. Delayed data (§V-D): a fraction of the arrivals carry a time stamp
 * sampled uniformly from the past (the paper samples the keys of the build phase uniformly, "a worst-case
 * scenario in terms of locality"), with a random sensor.
 */
public final class TimeSeriesKeys {
    /** Sensors of §V-A. */
    public static final int SENSORS = 1024;
    /** The first time stamp: any 48-bit value; far from 0 so that delayed keys land among real ones. */
    public static final long FIRST_TIME = 1L << 32;

    private TimeSeriesKeys() {
    }

    /** The key of {@code sensor}'s reading at {@code time}. */
    public static long key(final long time, final int sensor) {
        return (time << 16) | sensor;
    }

    /**
     * {@code n} keys in arrival order, {@code delayedPercent}% of them delayed; reproducible from {@code seed}.
     *
     * @throws IllegalArgumentException when {@code delayedPercent} is outside [0, 100]
     */
    public static long[] generate(final int n, final double delayedPercent, final long seed) {
        if (!(delayedPercent >= 0 && delayedPercent <= 100)) {
            throw new IllegalArgumentException("delayedPercent must be in [0, 100] (got: " + delayedPercent + ")");
        }
        final SplittableRandom random = new SplittableRandom(seed);
        final double delayed = delayedPercent / 100.0;
        final long[] keys = new long[n];
        long time = FIRST_TIME;
        int sensor = 0;
        for (int i = 0; i < n; i++) {
            if (i > 0 && random.nextDouble() < delayed) {
                keys[i] = key(FIRST_TIME + random.nextLong(time - FIRST_TIME + 1), random.nextInt(SENSORS));
            } else {
                time++;
                sensor = sensor + 1 == SENSORS ? 0 : sensor + 1;
                keys[i] = key(time, sensor);
            }
        }
        return keys;
    }

    /** The number of distinct keys in {@code keys} (a delayed key may repeat an earlier one). */
    public static int distinct(final long[] keys) {
        final long[] sorted = keys.clone();
        java.util.Arrays.sort(sorted);
        int distinct = sorted.length == 0 ? 0 : 1;
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] != sorted[i - 1]) {
                distinct++;
            }
        }
        return distinct;
    }
}
