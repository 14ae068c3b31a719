package io.nearsort.ldi.projection;

import io.nearsort.ldi.bucketing.BucketizerBuilder;

/**
 * Tuning of a {@link ColumnStore}: the LDI knobs each projection's bucketizer gets (§2–3), the IB-tree's (§4.1),
 * maintenance's (§3.3) and the I/O handler's (§4.2). Every projection learns its intervals from a training prefix.
 *
 * @param bucketCapacity     rows per bucket (n)
 * @param bufferCapacity     rows in each projection's main buffer (B)
 * @param trainingPrefix     rows each projection trains its distribution on (§3.1)
 * @param fanout             the training tree's fanout (k, §3.1: leaves of k distinct keys become intervals); 0 (the
 *                           default) cuts the trained keys into intervals of {@code n·trainingPrefix/B} tuples
 *                           instead, so each interval fills about a bucket per buffer even when keys repeat
 * @param windowSize         rows per time window
 * @param phiMax             split threshold Φmax
 * @param phiMin             merge threshold Φmin
 * @param readerThreads      N_thread of Eq. 9 (1: the plain LDI, more: LDI_Par)
 * @param theta              θ of Eq. 8 (see {@link io.nearsort.ldi.io.ThetaCalibration})
 * @param thetaGroup         buckets of the group θ was measured with
 * @param indexFanout        entries per node of the in-memory IB-tree of buckets written since the last flush
 * @param indexNodeUnits     k of the on-disk IB-tree's {@code k·4 KiB} nodes
 * @param indexCachePages    on-disk IB-tree nodes kept in memory per projection
 * @param maintenanceTrigger non-compacted buckets written since the last maintenance that start a background
 *                           sort-merge (§3.3); 0 turns background maintenance off ({@link ColumnStore#maintain}
 *                           still runs it on demand)
 */
public record ColumnStoreOptions(int bucketCapacity, int bufferCapacity, int trainingPrefix, int fanout,
                                 int windowSize, double phiMax, double phiMin, int readerThreads, double theta,
                                 int thetaGroup, int indexFanout, int indexNodeUnits, int indexCachePages,
                                 int maintenanceTrigger) {

    public ColumnStoreOptions {
        if (fanout < 0) {
            throw new IllegalArgumentException("fanout must be 0 (intervals by load) or the k of a k-ary training"
                    + " tree (got: " + fanout + ")");
        }
        if (indexNodeUnits < 1 || indexNodeUnits > 256) {
            throw new IllegalArgumentException("indexNodeUnits (k of k·4 KiB IB-tree nodes) must be 1 to 256 (got: "
                    + indexNodeUnits + ")");
        }
        if (indexCachePages < 1) {
            throw new IllegalArgumentException("indexCachePages must be at least 1 (got: " + indexCachePages + ")");
        }
        if (maintenanceTrigger < 0) {
            throw new IllegalArgumentException("maintenanceTrigger must be 0 (off) or a number of buckets (got: "
                    + maintenanceTrigger + ")");
        }
    }

    /**
     * Defaults: buckets of 1,024 rows, buffers of 64 buckets, training on one buffer into intervals of a bucket's
     * worth of tuples, one reader, θ = 8 for groups of 8 (so only adjacent wanted buckets are read as one extent
     * until θ is measured for the device with {@link io.nearsort.ldi.io.ThetaCalibration}),
     * IB-tree nodes of 4 KiB with 256 cached, background maintenance after 256 non-compacted buckets.
     */
    public static ColumnStoreOptions defaults() {
        return new ColumnStoreOptions(BucketizerBuilder.DEFAULT_BUCKET_CAPACITY,
                64 * BucketizerBuilder.DEFAULT_BUCKET_CAPACITY, 64 * BucketizerBuilder.DEFAULT_BUCKET_CAPACITY,
                0, 64 * BucketizerBuilder.DEFAULT_BUCKET_CAPACITY,
                BucketizerBuilder.DEFAULT_PHI_MAX, BucketizerBuilder.DEFAULT_PHI_MIN, 1, 8.0, 8, 128, 1, 256, 256);
    }

    public ColumnStoreOptions withBuckets(final int bucketRows, final int bufferRows) {
        return new ColumnStoreOptions(bucketRows, bufferRows, trainingPrefix, fanout, windowSize, phiMax, phiMin,
                readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages, maintenanceTrigger);
    }

    public ColumnStoreOptions withTraining(final int prefixRows, final int k, final int windowRows) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, prefixRows, k, windowRows, phiMax, phiMin,
                readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages, maintenanceTrigger);
    }

    public ColumnStoreOptions withReaders(final int threads, final double theta, final int thetaGroup) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, threads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages, maintenanceTrigger);
    }

    /** IB-tree nodes of {@code k·4 KiB}, {@code cachePages} of them kept in memory. */
    public ColumnStoreOptions withIndex(final int k, final int cachePages) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, readerThreads, theta, thetaGroup, indexFanout, k, cachePages, maintenanceTrigger);
    }

    /** Background maintenance after {@code trigger} non-compacted buckets; 0 for on demand only. */
    public ColumnStoreOptions withMaintenance(final int trigger) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages, trigger);
    }
}
