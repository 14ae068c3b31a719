package io.nearsort.ldi.projection;

/**
 * What one run of LDI maintenance (§3.3) did to a projection: the non-compacted buckets it sort-merged, the
 * compacted buckets it wrote in their place, and the projection's ARB (Eq. 7) before and after — {@code NaN} when
 * the run was not asked to measure it (background runs do not, it reads every bucket).
 *
 * @param bucketsMerged  non-compacted buckets read and retired
 * @param bucketsWritten compacted buckets written in their place
 * @param rowsRewritten  rows moved
 * @param arbBefore      ARB over all of the projection's buckets before, or NaN
 * @param arbAfter       ARB after, or NaN
 * @param background     whether the run was triggered in the background
 */
public record MaintenanceReport(int bucketsMerged, int bucketsWritten, long rowsRewritten, double arbBefore,
                                double arbAfter, boolean background) {
}
