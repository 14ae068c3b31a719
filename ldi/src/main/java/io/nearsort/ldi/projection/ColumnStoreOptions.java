package io.nearsort.ldi.projection;

import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.bucketing.BucketizerBuilder;
import io.nearsort.ldi.io.Segments;

import java.util.Objects;

/**
 * Tuning of a {@link ColumnStore}: the LDI knobs each projection's bucketizer gets (§2–3), the IB-tree's (§4.1),
 * maintenance's (§3.3) and the I/O handler's (§4.2), and how the store keeps its files: segment size, commit points
 * retained, space reclamation, the memory budget. Every projection learns its intervals from a training prefix.
 * Build them with {@link #builder()} (from the defaults) or {@link #toBuilder()}; {@link Builder#build()} checks
 * the values.
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
 * @param indexFanout        entries per node of the in-memory IB-tree of buckets written since the last build
 * @param indexNodeUnits     k of the on-disk IB-tree's {@code k·4 KiB} nodes
 * @param indexCachePages    on-disk IB-tree nodes kept in memory per projection
 * @param maintenanceTrigger non-compacted buckets written since the last maintenance that start a background
 *                           sort-merge (§3.3); 0 turns background maintenance off ({@link ColumnStore#maintain}
 *                           still runs it on demand)
 * @param segmentBytes       size at which a projection's active segment file is sealed and a new one started
 * @param retainedCommits    commit points kept: the store can be reopened at any of them ({@link Builder#atCommit})
 * @param commitPoint        the retained commit point to open at, discarding the later ones; -1 for the last
 * @param commitOnClose      whether {@link ColumnStore#close()} commits what was appended since the last commit
 *                           (with the last commit's metadata); a stream sink turns this off, so that only its own
 *                           checkpoints commit
 * @param memoryBudget       heap bytes the store may hold for rows not yet written (main buffers, buckets queued to
 *                           the writers) and for open cursors' windows
 * @param reclaimThreshold   dead fraction of a sealed segment at which background reclamation copies its live
 *                           buckets away after a commit; 0 turns background reclamation off
 *                           ({@link ColumnStore#reclaim} still runs it on demand)
 * @param cursorWindowRows   rows a streaming cursor ({@link ColumnStore#scan}) holds per pass: it holds at most
 *                           twice as many
 * @param fileIo             how the store opens, renames and deletes its files ({@link FileIo#standard()} unless a
 *                           test puts faults in between, issue 22)
 */
public record ColumnStoreOptions(int bucketCapacity, int bufferCapacity, int trainingPrefix, int fanout,
                                 int windowSize, double phiMax, double phiMin, int readerThreads, double theta,
                                 int thetaGroup, int indexFanout, int indexNodeUnits, int indexCachePages,
                                 int maintenanceTrigger, long segmentBytes, int retainedCommits, long commitPoint,
                                 boolean commitOnClose, long memoryBudget, double reclaimThreshold,
                                 int cursorWindowRows, FileIo fileIo) {
    /** The smallest segment size accepted. */
    public static final long MIN_SEGMENT_BYTES = 4096;

    /**
     * Checks that {@code fanout} is not negative and the values of the on-disk IB-tree, maintenance, segments,
     * commits, memory and cursors; the others are checked by {@link ColumnStore#open}.
     *
     * @param bucketCapacity     rows per bucket (n), at least 1
     * @param bufferCapacity     rows in each projection's main buffer (B), at least 1
     * @param trainingPrefix     rows each projection trains its distribution on, at least 1
     * @param fanout             the training tree's k, 2 to
     *                           {@link io.nearsort.ldi.distribution.DistributionTrainer#maxFanout()}; 0 for
     *                           intervals by load
     * @param windowSize         rows per time window, at least 1
     * @param phiMax             split threshold Φmax, finite and above 1
     * @param phiMin             merge threshold Φmin, in [0, 1)
     * @param readerThreads      N_thread of Eq. 9, at least 1
     * @param theta              θ of Eq. 8, finite and at least 1
     * @param thetaGroup         buckets of the group θ was measured with, at least 2
     * @param indexFanout        entries per node of the in-memory IB-tree, at least 4
     * @param indexNodeUnits     k of the on-disk IB-tree's {@code k·4 KiB} nodes, 1 to 256
     * @param indexCachePages    on-disk IB-tree nodes kept in memory per projection, at least 1
     * @param maintenanceTrigger non-compacted buckets that start a background sort-merge, at least 1; 0 for off
     * @param segmentBytes       bytes at which a segment file is sealed, {@link #MIN_SEGMENT_BYTES} to 2^39 (half
     *                           of {@link Segments#MAX_SEGMENT_BYTES})
     * @param retainedCommits    commit points kept, 1 to 10,000
     * @param commitPoint        id of the retained commit point to open at (at least 1), or -1 for the last
     * @param commitOnClose      whether {@link ColumnStore#close()} commits what was appended since the last commit
     * @param memoryBudget       heap bytes for rows not yet written and open cursors' windows, at least 1
     * @param reclaimThreshold   dead fraction of a sealed segment that starts background reclamation, in [0, 1];
     *                           0 for off
     * @param cursorWindowRows   rows a streaming cursor holds per pass, 1 to 2^28
     * @param fileIo             how the store reaches its files, not null
     * @throws IllegalArgumentException naming the first of the values checked here that is out of range
     * @throws NullPointerException     when {@code fileIo} is null
     */
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
        if (segmentBytes < MIN_SEGMENT_BYTES || segmentBytes > Segments.MAX_SEGMENT_BYTES / 2) {
            throw new IllegalArgumentException("segmentBytes must be in [" + MIN_SEGMENT_BYTES + ", "
                    + Segments.MAX_SEGMENT_BYTES / 2 + "] (got: " + segmentBytes + ")");
        }
        if (retainedCommits < 1 || retainedCommits > 10_000) {
            throw new IllegalArgumentException("retainedCommits must be in [1, 10000] (got: " + retainedCommits
                    + ")");
        }
        if (commitPoint < -1) {
            throw new IllegalArgumentException("commitPoint must be a commit id (at least 1) or -1 for the last"
                    + " (got: " + commitPoint + ")");
        }
        if (memoryBudget < 1) {
            throw new IllegalArgumentException("memoryBudget must be a positive number of bytes (got: "
                    + memoryBudget + ")");
        }
        if (!(reclaimThreshold >= 0 && reclaimThreshold <= 1)) {
            throw new IllegalArgumentException("reclaimThreshold must be a dead fraction in [0, 1], 0 for off"
                    + " (got: " + reclaimThreshold + ")");
        }
        if (cursorWindowRows < 1 || cursorWindowRows > (1 << 28)) {
            throw new IllegalArgumentException("cursorWindowRows must be in [1, 2^28] (got: " + cursorWindowRows
                    + ")");
        }
        Objects.requireNonNull(fileIo, "fileIo");
    }

    /**
     * Defaults: buckets of 1,024 rows, buffers of 64 buckets, training on one buffer into intervals of a bucket's
     * worth of tuples, one reader, θ = 8 for groups of 8 (so only adjacent wanted buckets are read as one extent
     * until θ is measured for the device with {@link io.nearsort.ldi.io.ThetaCalibration}),
     * IB-tree nodes of 4 KiB with 256 cached, background maintenance after 256 non-compacted buckets; segments of
     * 64 MiB, two commit points retained, commit on close, a memory budget of 512 MiB, background reclamation of
     * sealed segments half dead, cursor windows of 65,536 rows, files reached through {@link FileIo#standard()}.
     *
     * @return the default options
     */
    public static ColumnStoreOptions defaults() {
        return builder().build();
    }

    /**
     * A builder starting from the {@linkplain #defaults() defaults}.
     *
     * @return a new builder holding the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder starting from these options: change what differs, {@link Builder#build()} checks the result.
     *
     * @return a new builder holding these options
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds {@link ColumnStoreOptions}; {@link #build()} checks the values and names the one out of range. */
    public static final class Builder {
        private int bucketCapacity = BucketizerBuilder.DEFAULT_BUCKET_CAPACITY;
        private int bufferCapacity = 64 * BucketizerBuilder.DEFAULT_BUCKET_CAPACITY;
        private int trainingPrefix = 64 * BucketizerBuilder.DEFAULT_BUCKET_CAPACITY;
        private int fanout = 0;
        private int windowSize = 64 * BucketizerBuilder.DEFAULT_BUCKET_CAPACITY;
        private double phiMax = BucketizerBuilder.DEFAULT_PHI_MAX;
        private double phiMin = BucketizerBuilder.DEFAULT_PHI_MIN;
        private int readerThreads = 1;
        private double theta = 8.0;
        private int thetaGroup = 8;
        private int indexFanout = 128;
        private int indexNodeUnits = 1;
        private int indexCachePages = 256;
        private int maintenanceTrigger = 256;
        private long segmentBytes = 64L << 20;
        private int retainedCommits = 2;
        private long commitPoint = -1;
        private boolean commitOnClose = true;
        private long memoryBudget = 512L << 20;
        private double reclaimThreshold = 0.5;
        private int cursorWindowRows = 1 << 16;
        private FileIo fileIo = FileIo.standard();

        private Builder() {
        }

        private Builder(final ColumnStoreOptions o) {
            this.bucketCapacity = o.bucketCapacity;
            this.bufferCapacity = o.bufferCapacity;
            this.trainingPrefix = o.trainingPrefix;
            this.fanout = o.fanout;
            this.windowSize = o.windowSize;
            this.phiMax = o.phiMax;
            this.phiMin = o.phiMin;
            this.readerThreads = o.readerThreads;
            this.theta = o.theta;
            this.thetaGroup = o.thetaGroup;
            this.indexFanout = o.indexFanout;
            this.indexNodeUnits = o.indexNodeUnits;
            this.indexCachePages = o.indexCachePages;
            this.maintenanceTrigger = o.maintenanceTrigger;
            this.segmentBytes = o.segmentBytes;
            this.retainedCommits = o.retainedCommits;
            this.commitPoint = o.commitPoint;
            this.commitOnClose = o.commitOnClose;
            this.memoryBudget = o.memoryBudget;
            this.reclaimThreshold = o.reclaimThreshold;
            this.cursorWindowRows = o.cursorWindowRows;
            this.fileIo = o.fileIo;
        }

        /**
         * Buckets of {@code bucketRows} rows (n), main buffers of {@code bufferRows} rows (B).
         *
         * @param bucketRows rows per bucket, at least 1
         * @param bufferRows rows in each projection's main buffer, at least 1
         * @return this builder
         */
        public Builder buckets(final int bucketRows, final int bufferRows) {
            this.bucketCapacity = bucketRows;
            this.bufferCapacity = bufferRows;
            return this;
        }

        /**
         * Training on a prefix of {@code prefixRows} rows with a {@code k}-ary training tree (0: intervals by load),
         * time windows of {@code windowRows} rows (§3.1).
         *
         * @param prefixRows rows each projection trains its distribution on, at least 1
         * @param k          the training tree's fanout, 2 to
         *                   {@link io.nearsort.ldi.distribution.DistributionTrainer#maxFanout()}; 0 for intervals of
         *                   about a bucket per buffer each
         * @param windowRows rows per time window, at least 1
         * @return this builder
         */
        public Builder training(final int prefixRows, final int k, final int windowRows) {
            this.trainingPrefix = prefixRows;
            this.fanout = k;
            this.windowSize = windowRows;
            return this;
        }

        /**
         * Split and merge thresholds Φmax and Φmin (Algorithm 1).
         *
         * @param phiMax split threshold Φmax, finite and above 1
         * @param phiMin merge threshold Φmin, in [0, 1)
         * @return this builder
         */
        public Builder thresholds(final double phiMax, final double phiMin) {
            this.phiMax = phiMax;
            this.phiMin = phiMin;
            return this;
        }

        /**
         * {@code threads} reader threads (Eq. 9), θ of Eq. 8 measured for groups of {@code thetaGroup} buckets.
         *
         * @param threads    reader threads, at least 1 (1: the plain LDI, more: LDI_Par)
         * @param theta      θ, finite and at least 1 (see {@link io.nearsort.ldi.io.ThetaCalibration})
         * @param thetaGroup buckets of the group θ was measured with, at least 2
         * @return this builder
         */
        public Builder readers(final int threads, final double theta, final int thetaGroup) {
            this.readerThreads = threads;
            this.theta = theta;
            this.thetaGroup = thetaGroup;
            return this;
        }

        /**
         * IB-tree nodes of {@code k·4 KiB}, {@code cachePages} of them kept in memory.
         *
         * @param k          the on-disk IB-tree's node size in units of 4 KiB, 1 to 256
         * @param cachePages on-disk IB-tree nodes kept in memory per projection, at least 1
         * @return this builder
         */
        public Builder index(final int k, final int cachePages) {
            this.indexNodeUnits = k;
            this.indexCachePages = cachePages;
            return this;
        }

        /**
         * Background maintenance after {@code trigger} non-compacted buckets; 0 for on demand only.
         *
         * @param trigger non-compacted buckets written since the last maintenance that start one, at least 0
         * @return this builder
         */
        public Builder maintenance(final int trigger) {
            this.maintenanceTrigger = trigger;
            return this;
        }

        /**
         * Segment files sealed at {@code bytes}.
         *
         * @param bytes a segment file's size when sealed, {@link ColumnStoreOptions#MIN_SEGMENT_BYTES} to 2^39
         * @return this builder
         */
        public Builder segmentBytes(final long bytes) {
            this.segmentBytes = bytes;
            return this;
        }

        /**
         * Keeps the last {@code n} commit points.
         *
         * @param n commit points retained, 1 to 10,000
         * @return this builder
         */
        public Builder retainedCommits(final int n) {
            this.retainedCommits = n;
            return this;
        }

        /**
         * Opens the store at retained commit point {@code id} instead of the last, discarding every later commit
         * (and what was appended after it) durably before {@code open} returns. -1: the last commit.
         *
         * @param id the id of a retained commit point (at least 1), or -1
         * @return this builder
         */
        public Builder atCommit(final long id) {
            this.commitPoint = id;
            return this;
        }

        /**
         * Whether {@link ColumnStore#close()} commits (the default) or leaves the store at its last commit.
         *
         * @param commit true to commit on close, false to leave the store at its last commit
         * @return this builder
         */
        public Builder commitOnClose(final boolean commit) {
            this.commitOnClose = commit;
            return this;
        }

        /**
         * A memory budget of {@code bytes}.
         *
         * @param bytes heap bytes for rows not yet written and open cursors' windows, at least 1; the buffers the
         *              options configure must fit in it (checked by {@link ColumnStore#open})
         * @return this builder
         */
        public Builder memoryBudget(final long bytes) {
            this.memoryBudget = bytes;
            return this;
        }

        /**
         * Background reclamation of sealed segments at least {@code deadFraction} dead; 0 for on demand only.
         *
         * @param deadFraction dead fraction of a sealed segment that starts its reclamation, in [0, 1]
         * @return this builder
         */
        public Builder reclamation(final double deadFraction) {
            this.reclaimThreshold = deadFraction;
            return this;
        }

        /**
         * Streaming cursors hold {@code rows} rows per pass (at most twice as many at once).
         *
         * @param rows rows per pass, 1 to 2^28
         * @return this builder
         */
        public Builder cursorWindow(final int rows) {
            this.cursorWindowRows = rows;
            return this;
        }

        /**
         * The store reaches every file it opens, renames or deletes through {@code io} (the default:
         * {@link FileIo#standard()}); a test passes a {@link io.nearsort.core.io.FaultInjectingFileIo} to put I/O
         * faults between the store and its disk (issue 22).
         *
         * @param io how the store opens, renames and deletes its files
         * @return this builder
         * @throws NullPointerException when {@code io} is null
         */
        public Builder fileIo(final FileIo io) {
            this.fileIo = Objects.requireNonNull(io, "fileIo");
            return this;
        }

        /**
         * The options.
         *
         * @return the options, checked
         * @throws IllegalArgumentException naming the first value out of range (the bucketizer's own values: bucket
         *                                  and buffer sizes, training and thresholds, are checked by
         *                                  {@link ColumnStore#open} with the schema they apply to)
         */
        public ColumnStoreOptions build() {
            return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
            phiMin, readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages,
            maintenanceTrigger, segmentBytes, retainedCommits, commitPoint, commitOnClose, memoryBudget,
            reclaimThreshold, cursorWindowRows, fileIo);
        }
    }
}
