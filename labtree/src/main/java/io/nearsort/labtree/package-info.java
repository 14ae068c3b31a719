/**
 * LAB-tree: the Linearized Array B-tree for disk-resident arrays (RIOT array storage).
 *
 * <p>In this release: the linearizations of §3 ({@link io.nearsort.labtree.Linearization}: row-major,
 * column-major, blocked, Z-order, bit-reversal and verified user-defined bijections, in
 * {@code io.nearsort.labtree.linearization}), the leaf capacities of the sparse and dynamic leaf formats (§4.2,
 * {@code io.nearsort.labtree.leaf}) and the five leaf splitting strategies of §4.1 with the dynamic-format rules of
 * Remark B.4 ({@link io.nearsort.labtree.SplitStrategy}, in {@code io.nearsort.labtree.split}), and the storage
 * layer ({@code io.nearsort.labtree.storage}: a page file with a checksummed header and per-page CRC32C trailers,
 * direct I/O where the file system allows it, and an LRU buffer pool counting logical accesses, page reads and
 * page writes), and {@link io.nearsort.labtree.LabArray}: element get/set over the disk-resident tree
 * ({@code io.nearsort.labtree.tree}) with sparse and dense leaf pages, the chosen splitting strategy, removal of
 * empty nodes (Remark B.3), a free-page list, and reopen with the stored definition checked; the access types of
 * §3: element get/set, iteration in any access order (leaf scans when it is the storage order, optionally over
 * non-default elements only) and hyper-rectangle reads and writes; and update batching (§5,
 * {@code io.nearsort.labtree.batch}) with the ALL, LRU, SP, LP, LPP and LG flush policies, partial lookups and a
 * page-information cache charged against the buffer; and the baselines of §4.3: the B-tree is
 * {@code SplitStrategy.MIDDLE} with {@code LeafFormat.SPARSE_ONLY}, and the directly addressable file
 * ({@code io.nearsort.labtree.daf}) allocates fixed-slot pages lazily in a sparse file. Not built yet: incremental
 * f∘g⁻¹ key computation for iteration in a different order.
 */
package io.nearsort.labtree;
