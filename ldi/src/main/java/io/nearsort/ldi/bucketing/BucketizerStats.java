package io.nearsort.ldi.bucketing;

/**
 * Counters of a {@link Bucketizer}.
 *
 * @param tuples              tuples added
 * @param buffered            tuples waiting in the main buffer (or in the training prefix)
 * @param buckets             buckets written
 * @param compactedBuckets    buckets cut from one interval
 * @param nonCompactedBuckets buckets that combined sibling intervals (§3.3)
 * @param siblingCombines     times a full buffer with no full interval forced a combination
 * @param intervals           intervals of the distribution now (0 before training)
 * @param windows             completed time windows
 * @param splits              interval splits (drift ≥ Φmax)
 * @param merges              interval merges (drift ≤ Φmin)
 * @param widenings           keys outside every interval that widened the first or last one
 */
public record BucketizerStats(long tuples, long buffered, long buckets, long compactedBuckets,
                              long nonCompactedBuckets, long siblingCombines, int intervals, long windows,
                              long splits, long merges, long widenings) {
}
