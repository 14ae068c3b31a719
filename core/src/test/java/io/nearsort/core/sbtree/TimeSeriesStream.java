package io.nearsort.core.sbtree;

import java.util.SplittableRandom;

/**
 * The paper's time-series keys (§V-A): a 6-byte time stamp followed by a 2-byte sensor id from 1,024 sensors,
 * time advancing with every arrival; a fraction of arrivals is delayed data, a time stamp sampled uniformly from
 * the past (§V-D's "uniformly sampling the keys used during the index-building phase").
 */
final class TimeSeriesStream {
    static final int SENSORS = 1024;

    private final SplittableRandom random;
    private final double delayedFraction;
    private long time;
    private int sensor;

    TimeSeriesStream(final long seed, final double delayedFraction, final long startTime) {
        this.random = new SplittableRandom(seed);
        this.delayedFraction = delayedFraction;
        this.time = startTime;
    }

    static long key(final long time, final int sensor) {
        return (time << 16) | sensor;
    }

    long next() {
        if (time > 1 && random.nextDouble() < delayedFraction) {
            return key(random.nextLong(time), random.nextInt(SENSORS));
        }
        time++;
        sensor = (sensor + 1) % SENSORS;
        return key(time, sensor);
    }
}
