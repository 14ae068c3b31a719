/**
 * LAB-tree: the Linearized Array B-tree for disk-resident arrays (RIOT array storage).
 *
 * <p>{@link io.nearsort.labtree.LabArray} is a disk-resident d-dimensional array of doubles. Its parts, one concept
 * per package:
 * <ul>
 *   <li>{@code linearization} (§3): row-major, column-major, blocked, Z-order, bit-reversal and verified
 *       user-defined bijections, with incremental steps for iteration in another order;</li>
 *   <li>{@code leaf} and {@code split} (§4.1–4.2, Remarks B.1–B.4): sparse and dynamic leaf capacities and the five
 *       splitting strategies;</li>
 *   <li>{@code storage} (internal): a page file with a checksummed header and per-page CRC32C trailers, direct I/O
 *       where the file system allows it, and an LRU buffer pool counting logical accesses, page reads and page
 *       writes;</li>
 *   <li>{@code tree} (internal): the B-tree over pages, with sparse and dense leaf pages, removal of empty nodes
 *       (Remark B.3), a free-page list and a meta page checked on reopen;</li>
 *   <li>{@code batch} (§5, Remarks B.7–B.8): the update buffer with the ALL, LRU, SP, LP, LPP and LG flush
 *       policies, partial lookups and a page-information cache charged against the buffer;</li>
 *   <li>{@code daf}: the directly addressable file baseline (the B-tree baseline is
 *       {@code SplitStrategy.MIDDLE} with {@code LeafFormat.SPARSE_ONLY}).</li>
 * </ul>
 * The experiments of §4.3 and §5.3 and a block matrix multiply are in {@code io.nearsort.jmh.labtree}.
 */
package io.nearsort.labtree;
