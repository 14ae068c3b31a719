/**
 * Learned Distribution Index (LDI) for column projections — <em>LDI: Learned Distribution Index for Column
 * Stores</em>, SSDBM 2021.
 *
 * <ul>
 *   <li>{@code distribution}: the learned distribution of §3.1–3.2 (training from a k-ary B+-tree, global, local
 *       and current intervals, drift of Eqs. 3–5, Algorithm 1's splits and merges).</li>
 *   <li>{@code bucketing}: the {@link io.nearsort.ldi.bucketing.Bucketizer} of §2 and §3.3 (main buffer, leaf
 *       interval pointers, compacted and non-compacted buckets) and ARB (Eq. 7).</li>
 *   <li>{@code ibtree} (internal): the interval B-tree over bucket key ranges (§4.1): in memory for the buckets of the
 *       current session, and on disk in {@code k·4 KiB} checksummed nodes read through a bounded cache.</li>
 *   <li>{@code io} (mostly internal; its package documentation says which types are API): checksummed record
 *       files, a projection's bucket file cut into segments addressed by bucket pointers (§4.1's fileID and
 *       offset), the store lock, and the I/O handler of §4.2 (phases, de-duplication, θ grouping, parallel
 *       readers).</li>
 *   <li>{@code commit}: the store's manifest, the log of its commit points: one record commits every projection's
 *       bucket changes with the caller's metadata, atomically; retained commit points, roll-back, rewrites.</li>
 *   <li>{@code projection}: the {@link io.nearsort.ldi.projection.ColumnStore}: typed schema, projections, one LDI
 *       per projection, row and column-batch appends, bucket directory and on-disk IB-tree, maintenance (§3.3),
 *       space reclamation, materialised and streamed range queries and aggregates, commit points, memory budget;
 *       plus what every store kind shares ({@link io.nearsort.ldi.projection.ColumnarStore}, the block encoding,
 *       the k-way block merger, the exact result builder).</li>
 *   <li>{@code baselines} (internal, for the experiments): the LSM-like leveled and tiered merge policies (one level
 *       engine for the in-memory model and the on-disk {@link io.nearsort.ldi.baselines.LsmColumnStore}), the
 *       closed forms of Eqs. 1–2 and 10–13, and the {@link io.nearsort.ldi.baselines.SortedColumnStore}
 *       (Sorted_Col).</li>
 * </ul>
 */
package io.nearsort.ldi;
