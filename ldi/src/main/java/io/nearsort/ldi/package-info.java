/**
 * Learned Distribution Index (LDI) for column projections — <em>LDI: Learned Distribution Index for Column
 * Stores</em>, SSDBM 2021.
 *
 * <ul>
 *   <li>{@code distribution}: the learned distribution of §3.1–3.2 (training from a k-ary B+-tree, global, local
 *       and current intervals, drift of Eqs. 3–5, Algorithm 1's splits and merges).</li>
 *   <li>{@code bucketing}: the {@link io.nearsort.ldi.bucketing.Bucketizer} of §2 and §3.3 (main buffer, leaf
 *       interval pointers, compacted and non-compacted buckets) and ARB (Eq. 7).</li>
 *   <li>{@code ibtree}: the interval B-tree over bucket key ranges (§4.1).</li>
 *   <li>{@code io}: checksummed record files and the I/O handler of §4.2 (phases, de-duplication, θ grouping,
 *       parallel readers).</li>
 *   <li>{@code projection}: the {@link io.nearsort.ldi.projection.ColumnStore}: typed schema, projections, one LDI
 *       per projection, range queries and aggregates.</li>
 *   <li>{@code baselines}: the LSM-like leveled and tiered merge policies and the closed forms of Eqs. 1–2 and
 *       10–13.</li>
 * </ul>
 */
package io.nearsort.ldi;
