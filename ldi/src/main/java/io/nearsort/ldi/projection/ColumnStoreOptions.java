package io.nearsort.ldi.projection;

import io.nearsort.ldi.bucketing.BucketizerBuilder;
import io.nearsort.ldi.io.Segments;

/**
 * Tuning of a {@link ColumnStore}: the LDI knobs each projection's bucketizer gets (§2–3), the IB-tree's (§4.1),
 * maintenance's (§3.3) and the I/O handler's (§4.2), and how the store keeps its files: segment size, commit points
 * retained, space reclamation, the memory budget. Every projection learns its intervals from a training prefix.
 * Start from {@link #defaults()} and change what you need with the {@code with…} methods; every value is checked.
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
 * @param retainedCommits    commit points kept: the store can be reopened at any of them ({@link #atCommit})
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
 */
public record ColumnStoreOptions(int bucketCapacity, int bufferCapacity, int trainingPrefix, int fanout,
                                 int windowSize, double phiMax, double phiMin, int readerThreads, double theta,
                                 int thetaGroup, int indexFanout, int indexNodeUnits, int indexCachePages,
                                 int maintenanceTrigger, long segmentBytes, int retainedCommits, long commitPoint,
                                 boolean commitOnClose, long memoryBudget, double reclaimThreshold,
                                 int cursorWindowRows) {
    /** The smallest segment size accepted. */
    public static final long MIN_SEGMENT_BYTES = 4096;

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
    }

    /**
     * Defaults: buckets of 1,024 rows, buffers of 64 buckets, training on one buffer into intervals of a bucket's
     * worth of tuples, one reader, θ = 8 for groups of 8 (so only adjacent wanted buckets are read as one extent
     * until θ is measured for the device with {@link io.nearsort.ldi.io.ThetaCalibration}),
     * IB-tree nodes of 4 KiB with 256 cached, background maintenance after 256 non-compacted buckets; segments of
     * 64 MiB, two commit points retained, commit on close, a memory budget of 512 MiB, background reclamation of
     * sealed segments half dead, cursor windows of 65,536 rows.
     */
    public static ColumnStoreOptions defaults() {
        return new ColumnStoreOptions(BucketizerBuilder.DEFAULT_BUCKET_CAPACITY,
                64 * BucketizerBuilder.DEFAULT_BUCKET_CAPACITY, 64 * BucketizerBuilder.DEFAULT_BUCKET_CAPACITY,
                0, 64 * BucketizerBuilder.DEFAULT_BUCKET_CAPACITY,
                BucketizerBuilder.DEFAULT_PHI_MAX, BucketizerBuilder.DEFAULT_PHI_MIN, 1, 8.0, 8, 128, 1, 256, 256,
                64L << 20, 2, -1, true, 512L << 20, 0.5, 1 << 16);
    }

    public ColumnStoreOptions withBuckets(final int bucketRows, final int bufferRows) {
        return new ColumnStoreOptions(bucketRows, bufferRows, trainingPrefix, fanout, windowSize, phiMax, phiMin,
                readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages, maintenanceTrigger,
                segmentBytes, retainedCommits, commitPoint, commitOnClose, memoryBudget, reclaimThreshold,
                cursorWindowRows);
    }

    public ColumnStoreOptions withTraining(final int prefixRows, final int k, final int windowRows) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, prefixRows, k, windowRows, phiMax, phiMin,
                readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages, maintenanceTrigger,
                segmentBytes, retainedCommits, commitPoint, commitOnClose, memoryBudget, reclaimThreshold,
                cursorWindowRows);
    }

    public ColumnStoreOptions withReaders(final int threads, final double theta, final int thetaGroup) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, threads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages, maintenanceTrigger,
                segmentBytes, retainedCommits, commitPoint, commitOnClose, memoryBudget, reclaimThreshold,
                cursorWindowRows);
    }

    /** IB-tree nodes of {@code k·4 KiB}, {@code cachePages} of them kept in memory. */
    public ColumnStoreOptions withIndex(final int k, final int cachePages) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, readerThreads, theta, thetaGroup, indexFanout, k, cachePages, maintenanceTrigger,
                segmentBytes, retainedCommits, commitPoint, commitOnClose, memoryBudget, reclaimThreshold,
                cursorWindowRows);
    }

    /** Background maintenance after {@code trigger} non-compacted buckets; 0 for on demand only. */
    public ColumnStoreOptions withMaintenance(final int trigger) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages, trigger,
                segmentBytes, retainedCommits, commitPoint, commitOnClose, memoryBudget, reclaimThreshold,
                cursorWindowRows);
    }

    /** Segment files sealed at {@code bytes}. */
    public ColumnStoreOptions withSegmentBytes(final long bytes) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages,
                maintenanceTrigger, bytes, retainedCommits, commitPoint, commitOnClose, memoryBudget,
                reclaimThreshold, cursorWindowRows);
    }

    /** Keeps the last {@code n} commit points. */
    public ColumnStoreOptions withRetainedCommits(final int n) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages,
                maintenanceTrigger, segmentBytes, n, commitPoint, commitOnClose, memoryBudget, reclaimThreshold,
                cursorWindowRows);
    }

    /**
     * Opens the store at retained commit point {@code id} instead of the last, discarding every later commit (and
     * what was appended after it) durably before {@code open} returns. -1: the last commit.
     */
    public ColumnStoreOptions atCommit(final long id) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages,
                maintenanceTrigger, segmentBytes, retainedCommits, id, commitOnClose, memoryBudget, reclaimThreshold,
                cursorWindowRows);
    }

    /** Whether {@link ColumnStore#close()} commits (the default) or leaves the store at its last commit. */
    public ColumnStoreOptions withCommitOnClose(final boolean commit) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages,
                maintenanceTrigger, segmentBytes, retainedCommits, commitPoint, commit, memoryBudget,
                reclaimThreshold, cursorWindowRows);
    }

    /** A memory budget of {@code bytes}. */
    public ColumnStoreOptions withMemoryBudget(final long bytes) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages,
                maintenanceTrigger, segmentBytes, retainedCommits, commitPoint, commitOnClose, bytes,
                reclaimThreshold, cursorWindowRows);
    }

    /** Background reclamation of sealed segments at least {@code deadFraction} dead; 0 for on demand only. */
    public ColumnStoreOptions withReclamation(final double deadFraction) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages,
                maintenanceTrigger, segmentBytes, retainedCommits, commitPoint, commitOnClose, memoryBudget,
                deadFraction, cursorWindowRows);
    }

    /** Streaming cursors hold {@code rows} rows per pass (at most twice as many at once). */
    public ColumnStoreOptions withCursorWindow(final int rows) {
        return new ColumnStoreOptions(bucketCapacity, bufferCapacity, trainingPrefix, fanout, windowSize, phiMax,
                phiMin, readerThreads, theta, thetaGroup, indexFanout, indexNodeUnits, indexCachePages,
                maintenanceTrigger, segmentBytes, retainedCommits, commitPoint, commitOnClose, memoryBudget,
                reclaimThreshold, rows);
    }
}
