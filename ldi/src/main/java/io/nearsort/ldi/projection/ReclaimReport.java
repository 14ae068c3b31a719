package io.nearsort.ldi.projection;

/**
 * What one run of space reclamation did to a projection: the sealed segments it emptied by copying their live
 * buckets to the active segment. The emptied segments' files are deleted after a later commit, once no retained
 * commit point and no open reader refers to them ({@link ProjectionStats#segmentsDeleted()}).
 *
 * @param projection   the projection
 * @param segments     sealed segments chosen (dead bytes at least the threshold)
 * @param bucketsMoved live buckets copied out of them
 * @param bytesMoved   bytes those copies wrote
 */
public record ReclaimReport(String projection, int segments, int bucketsMoved, long bytesMoved) {
}
