package io.nearsort.ldi.bucketing;

import io.nearsort.ldi.distribution.DistributionTrainer;
import io.nearsort.ldi.distribution.TuningReport;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Validated configuration of a {@link Bucketizer}. The intervals come either from explicit boundaries or from a
 * training prefix (§3.1); everything else has a default: Φmax = 2 and Φmin = 0.3 (§3.2), buckets of 1,024 tuples,
 * a main buffer of 128 buckets, time windows as large as the buffer, and a training fanout of 128.
 */
public final class BucketizerBuilder {
    /** Tuples per bucket when none is configured. */
    public static final int DEFAULT_BUCKET_CAPACITY = 1024;
    /** Main buffer tuples when none is configured. */
    public static final int DEFAULT_BUFFER_CAPACITY = 128 * DEFAULT_BUCKET_CAPACITY;
    /** Training-tree fanout when none is configured. */
    public static final int DEFAULT_FANOUT = 128;
    /** Φmax of §3.2. */
    public static final double DEFAULT_PHI_MAX = 2.0;
    /** Φmin of §3.2. */
    public static final double DEFAULT_PHI_MIN = 0.3;

    private final Function<BucketizerBuilder, Bucketizer> factory;
    long[] boundaries;
    long[] initialLoads;
    int trainingPrefix;
    int fanout = DEFAULT_FANOUT;
    int intervalLoad;
    int bufferCapacity = DEFAULT_BUFFER_CAPACITY;
    int bucketCapacity = DEFAULT_BUCKET_CAPACITY;
    int windowSize;
    double phiMax = DEFAULT_PHI_MAX;
    double phiMin = DEFAULT_PHI_MIN;
    Consumer<Bucket> onBucket = bucket -> { };
    Consumer<TuningReport> onTuning = report -> { };

    BucketizerBuilder(final Function<BucketizerBuilder, Bucketizer> factory) {
        this.factory = factory;
    }

    /**
     * Explicit intervals {@code [b0, b1) [b1, b2) … [b(k-1), bk)}: at least two strictly ascending boundaries.
     * The paper's example is {@code initialBoundaries(1, 3, 7, 13, 20, 31)}.
     *
     * @param boundaries {@code b0 … bk}, at least two, strictly ascending; copied
     * @return this builder
     * @throws IllegalArgumentException when there are fewer than two boundaries or they are not strictly ascending
     */
    public BucketizerBuilder initialBoundaries(final long... boundaries) {
        if (boundaries.length < 2) {
            throw new IllegalArgumentException("initialBoundaries needs at least two boundaries (got: "
                    + boundaries.length + ")");
        }
        for (int i = 1; i < boundaries.length; i++) {
            if (boundaries[i] <= boundaries[i - 1]) {
                throw new IllegalArgumentException("initialBoundaries must be strictly ascending (boundary " + i
                        + " is " + boundaries[i] + " after " + boundaries[i - 1] + ")");
            }
        }
        this.boundaries = boundaries.clone();
        return this;
    }

    /**
     * The global load ({@code G.load}) of each explicit interval, from which {@code G.dis} is normalised. Without
     * it {@code G.dis} is uniform and {@code G.load} zero.
     *
     * @param loads one tuple count per explicit interval (one fewer than the boundaries, checked by {@link #build}),
     *              none negative; copied
     * @return this builder
     * @throws IllegalArgumentException when a load is negative
     */
    public BucketizerBuilder initialLoads(final long... loads) {
        for (int i = 0; i < loads.length; i++) {
            if (loads[i] < 0) {
                throw new IllegalArgumentException("initialLoads[" + i + "] must not be negative (got: " + loads[i]
                        + ")");
            }
        }
        this.initialLoads = loads.clone();
        return this;
    }

    /**
     * Learn the intervals from the first {@code tuples} tuples added (§3.1), at least 1.
     *
     * @param tuples the training prefix's length in tuples, at least 1
     * @return this builder
     * @throws IllegalArgumentException when {@code tuples} is below 1
     */
    public BucketizerBuilder trainingPrefix(final int tuples) {
        if (tuples < 1) {
            throw new IllegalArgumentException("trainingPrefix must be at least 1 tuple (got: " + tuples + ")");
        }
        this.trainingPrefix = tuples;
        return this;
    }

    /**
     * The k of the k-ary training B+-tree (default 128).
     *
     * @param k the fanout, 2 to {@link DistributionTrainer#maxFanout()}
     * @return this builder
     * @throws IllegalArgumentException when {@code k} is out of that range
     */
    public BucketizerBuilder fanout(final int k) {
        if (k < 2 || k > DistributionTrainer.maxFanout()) {
            throw new IllegalArgumentException("fanout must be in [2, " + DistributionTrainer.maxFanout()
                    + "] (got: " + k + ")");
        }
        this.fanout = k;
        return this;
    }

    /**
     * Train intervals of at least {@code tuples} training tuples each instead of leaves of {@code fanout} distinct
     * keys ({@link DistributionTrainer#trainByLoad}): the better choice when keys repeat. 0 (the default) keeps the
     * k-ary tree of §3.1.
     *
     * @param tuples training tuples per interval, at least 1, or 0 for the k-ary tree
     * @return this builder
     * @throws IllegalArgumentException when {@code tuples} is negative
     */
    public BucketizerBuilder intervalLoad(final int tuples) {
        if (tuples < 0) {
            throw new IllegalArgumentException("intervalLoad must be 0 (use the fanout) or a number of tuples (got: "
                    + tuples + ")");
        }
        this.intervalLoad = tuples;
        return this;
    }

    /**
     * B: tuples the main buffer holds, at least the bucket capacity.
     *
     * @param tuples B, at least 1 (and at least the bucket capacity, checked by {@link #build})
     * @return this builder
     * @throws IllegalArgumentException when {@code tuples} is below 1
     */
    public BucketizerBuilder bufferCapacity(final int tuples) {
        if (tuples < 1) {
            throw new IllegalArgumentException("bufferCapacity must be at least 1 tuple (got: " + tuples + ")");
        }
        this.bufferCapacity = tuples;
        return this;
    }

    /**
     * n: tuples per bucket, at least 1.
     *
     * @param tuples n, at least 1
     * @return this builder
     * @throws IllegalArgumentException when {@code tuples} is below 1
     */
    public BucketizerBuilder bucketCapacity(final int tuples) {
        if (tuples < 1) {
            throw new IllegalArgumentException("bucketCapacity must be at least 1 tuple (got: " + tuples + ")");
        }
        this.bucketCapacity = tuples;
        return this;
    }

    /**
     * Φmax (split, above 1) and Φmin (merge, in [0, 1)).
     *
     * @param phiMax the split threshold Φmax, a finite number above 1
     * @param phiMin the merge threshold Φmin, in [0, 1)
     * @return this builder
     * @throws IllegalArgumentException when either is out of its range
     */
    public BucketizerBuilder driftThresholds(final double phiMax, final double phiMin) {
        if (!(phiMax > 1.0) || Double.isInfinite(phiMax)) {
            throw new IllegalArgumentException("driftThresholds: Φmax must be a finite number above 1 (got: "
                    + phiMax + ")");
        }
        if (!(phiMin >= 0.0 && phiMin < 1.0)) {
            throw new IllegalArgumentException("driftThresholds: Φmin must be in [0, 1) (got: " + phiMin + ")");
        }
        this.phiMax = phiMax;
        this.phiMin = phiMin;
        return this;
    }

    /**
     * Tuples per time window ({@code size} of Table 4), at least 1; default: the buffer capacity.
     *
     * @param tuples tuples per time window, at least 1
     * @return this builder
     * @throws IllegalArgumentException when {@code tuples} is below 1
     */
    public BucketizerBuilder windowSize(final int tuples) {
        if (tuples < 1) {
            throw new IllegalArgumentException("windowSize must be at least 1 tuple (got: " + tuples + ")");
        }
        this.windowSize = tuples;
        return this;
    }

    /**
     * Receives every bucket as it is written.
     *
     * @param listener called with each bucket on the thread that adds, drains or finishes; not null
     * @return this builder
     * @throws NullPointerException when {@code listener} is null
     */
    public BucketizerBuilder onBucket(final Consumer<Bucket> listener) {
        this.onBucket = Objects.requireNonNull(listener, "onBucket");
        return this;
    }

    /**
     * Receives Algorithm 1's report at the end of every time window.
     *
     * @param listener called on the adding thread with each window's report; not null
     * @return this builder
     * @throws NullPointerException when {@code listener} is null
     */
    public BucketizerBuilder onTuning(final Consumer<TuningReport> listener) {
        this.onTuning = Objects.requireNonNull(listener, "onTuning");
        return this;
    }

    /**
     * A new bucketizer.
     *
     * @return a bucketizer with this configuration
     * @throws IllegalStateException when not exactly one of {@link #initialBoundaries} and {@link #trainingPrefix}
     *         was set, the initial loads do not match the intervals, or the buffer holds fewer tuples than a bucket
     */
    public Bucketizer build() {
        if ((boundaries == null) == (trainingPrefix == 0)) {
            throw new IllegalStateException("set exactly one of initialBoundaries(...) and trainingPrefix(n)");
        }
        if (initialLoads != null && (boundaries == null || initialLoads.length != boundaries.length - 1)) {
            throw new IllegalStateException("initialLoads needs initialBoundaries and one load per interval ("
                    + (boundaries == null ? 0 : boundaries.length - 1) + " intervals, " + initialLoads.length
                    + " loads)");
        }
        if (bufferCapacity < bucketCapacity) {
            throw new IllegalStateException("bufferCapacity (" + bufferCapacity + ") must be at least bucketCapacity ("
                    + bucketCapacity + ")");
        }
        return factory.apply(this);
    }
}
