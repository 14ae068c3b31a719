package io.nearsort.ldi.projection;

/**
 * The storage state of one LDI projection.
 *
 * @param buckets          live buckets on disk
 * @param nonCompacted     of which non-compacted (§3.3), awaiting maintenance
 * @param unwritten        buckets queued for the writer thread
 * @param bufferedRows     rows in the main buffer
 * @param dataBytes        bytes of the projection's segment files
 * @param deadBytes        of which held by records no live bucket uses (retired by maintenance or copied away by
 *                         reclamation, or written after a commit that a crash discarded)
 * @param indexBuilds      on-disk IB-tree builds since open
 * @param indexNodeReads   IB-tree nodes read from disk since the last build
 * @param maintenanceRuns  sort-merges that merged buckets since open
 * @param bucketsMerged    non-compacted buckets they merged
 * @param liveBytes        bytes of live bucket records
 * @param segments         segment files
 * @param bucketsMoved     buckets space reclamation copied since open
 * @param bytesMoved       bytes those copies wrote
 * @param segmentsDeleted  segment files deleted since open
 * @param bytesReclaimed   bytes those files held
 */
public record ProjectionStats(int buckets, int nonCompacted, int unwritten, int bufferedRows, long dataBytes,
                              long deadBytes, long indexBuilds, long indexNodeReads, int maintenanceRuns,
                              long bucketsMerged, long liveBytes, int segments, long bucketsMoved, long bytesMoved,
                              long segmentsDeleted, long bytesReclaimed) {
}
