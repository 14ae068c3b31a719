package io.nearsort.ldi.baselines;

/**
 * Merge and I/O counts of loading N tuples into an LSM-like projection.
 *
 * @param merges     sort-merges
 * @param writePages pages written (tuples / P)
 * @param readPages  pages read back for merges (tuples / P)
 */
public record LsmCosts(double merges, double writePages, double readPages) {
}
