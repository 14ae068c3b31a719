package io.nearsort.ldi.projection;

import io.nearsort.ldi.bucketing.BucketizerBuilder;

/**
 * Tuning of a {@link ColumnStore}: the LDI knobs each projection's bucketizer gets (§2–3) and the I/O handler's
 * (§4.2). Every projection learns its intervals from a training prefix.
 *
 * @param bucketCapacity rows per bucket (n)
 * @param bufferCapacity rows in each projection's main buffer (B)
 * @param trainingPrefix rows each projection trains its distribution on (§3.1)
 * @param fanout         the training tree's fanout (k)
 * @param windowSize     rows per time window
 * @param phiMax         split threshold Φmax
 * @param phiMin         merge threshold Φmin
 * @param readerThreads  N_thread of Eq. 9 (1: the plain LDI, more: LDI_Par)
 * @param theta          θ of Eq. 8 (see {@link io.nearsort.ldi.io.ThetaCalibration})
 * @param thetaGroup     buckets of the group θ was measured with
 * @param indexFanout    entries per IB-tree node
 */
public record ColumnStoreOptions(int bucketCapacity, int bufferCapacity, int trainingPrefix, int fanout,
                                 int windowSize, double phiMax, double phiMin, int readerThreads, double theta,
                                 int thetaGroup, int indexFanout) {

    /** Defaults: buckets of 1,024 rows, buffers of 64 buckets, training on one buffer, one reader, θ = 2 for 8. */
    public static ColumnStoreOptions defaults() {
        return new ColumnStoreOptions(BucketizerBuilder.DEFAULT_BUCKET_CAPACITY,
                64 * BucketizerBuilder.DEFAULT_BUCKET_CAPACITY, 64 * BucketizerBuilder.DEFAULT_BUCKET_CAPACITY,
                BucketizerBuilder.DEFAULT_FANOUT, 64 * BucketizerBuilder.DEFAULT_BUCKET_CAPACITY,
                BucketizerBuilder.DEFAULT_PHI_MAX, BucketizerBuilder.DEFAULT_PHI_MIN, 1, 2.0, 8, 128);
    }

    public ColumnStoreOptions withBuckets(final int bucketRows, final int bufferRows) {
        return new ColumnStoreOptions(bucketRows, bufferRows, trainingPrefix, fanout, windowSize, phiMax, phiMin,
                readerThreads, theta, thetaGroup, indexFanout);
    }

    public ColumnStoreOptions withTraining(final int prefixRows, final int k, final int windowRows) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, prefixRows, k, windowRows, phiMax, phiMin,
                readerThreads, theta, thetaGroup, indexFanout);
    }

    public ColumnStoreOptions withReaders(final int threads, final double theta, final int thetaGroup) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, threads, theta, thetaGroup, indexFanout);
    }
}
