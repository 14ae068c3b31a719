/**
 * The sortedness toolkit: the (K, L) measure of near-sortedness (Ben-Moshe et al., used by SWARE §II and the
 * OSM-tree paper §5) computed exactly ({@link io.nearsort.core.sortedness.Sortedness}) or in one streaming pass
 * ({@link io.nearsort.core.sortedness.StreamingSortednessEstimator}), workloads of a chosen K and L, late-event
 * streams and the papers' grid ({@link io.nearsort.core.sortedness.KLGenerator}), and the sorts SWARE §IV-C chooses
 * between: the (K,L)-adaptive sort ({@link io.nearsort.core.sortedness.KLAdaptiveSort}), stable merge and radix
 * sorts, and the rule picking one ({@link io.nearsort.core.sortedness.AdaptiveSorter}), which asks for an
 * estimate of L only when K does not decide ({@link io.nearsort.core.sortedness.DisplacementEstimator}).
 *
 * <p>API: all of it but {@link io.nearsort.core.sortedness.SortedOutliers}, the internal hand-over between the
 * adaptive sort and the SWARE flush, public for that package only; it may change in any release.
 */
package io.nearsort.core.sortedness;
