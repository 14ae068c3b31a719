/**
 * SWARE, the sortedness-aware buffer (Raman et al., <i>Indexing for Near-Sorted Data</i>, ICDE 2023) over a tree
 * with bulk append: {@link io.nearsort.core.sware.SortednessAwareIndex}, the SA B+-tree
 * ({@link io.nearsort.core.Indexes#saBPlusTree()}) and the SA Bε-tree ({@link io.nearsort.core.Indexes#saBeTree()}).
 * The buffer with its zone maps, sorted-section bookkeeping and Bloom filters (§IV-A, §IV-B), flush cycles and
 * the adaptive sort (§IV-A, §IV-C), query-driven sorting (§IV-C), deletes and concurrency (§IV-D).
 *
 * <p>API: {@link io.nearsort.core.sware.SortednessAwareIndex} and
 * {@link io.nearsort.core.sware.SortednessAwareIndexBuilder}; every other type of the package is package-private.
 */
package io.nearsort.core.sware;
