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
 * page writes). The tree itself ({@code LabArray}: node and leaf pages, the dynamic leaf format on disk, access
 * types, update batching and flush policies) is not built yet.
 */
package io.nearsort.labtree;
