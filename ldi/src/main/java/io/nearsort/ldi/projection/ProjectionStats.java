package io.nearsort.ldi.projection;

/**
 * The storage state of one LDI projection.
 *
 * @param buckets          live buckets on disk
 * @param nonCompacted     of which non-compacted (§3.3), awaiting maintenance
 * @param unwritten        buckets queued for the writer thread
 * @param bufferedRows     rows in the main buffer
 * @param dataBytes        bytes of the bucket file
 * @param deadBytes        of which held by buckets maintenance retired since open
 * @param indexBuilds      on-disk IB-tree builds since open
 * @param indexNodeReads   IB-tree nodes read from disk since the last build
 * @param maintenanceRuns  sort-merges that merged buckets since open
 * @param bucketsMerged    non-compacted buckets they merged
 */
public record ProjectionStats(int buckets, int nonCompacted, int unwritten, int bufferedRows, long dataBytes,
                              long deadBytes, long indexBuilds, long indexNodeReads, int maintenanceRuns,
                              long bucketsMerged) {
}
