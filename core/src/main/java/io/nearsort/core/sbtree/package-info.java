/**
 * SB-Tree (C. E. Jung, J. Hwang, Y. Na, H. Lee, W.-H. Kim, <i>SB-Tree: A B+-Tree for In-Memory Time Series
 * Databases With Segmented Block</i>, IEEE Access 2025): {@link io.nearsort.core.sbtree.SBTree}, built with
 * {@link io.nearsort.core.Indexes#sbTree()}.
 *
 * <p>Where the paper's concepts live:
 * <ul>
 *   <li>data layer, data blocks, delayed data, splits (§III-A, §III-C, §IV-D):
 *   {@link io.nearsort.core.sbtree.DataLayer}, {@link io.nearsort.core.sbtree.DataBlock},
 *   {@link io.nearsort.core.sbtree.DataBlockDescriptor}, {@link io.nearsort.core.sbtree.BlockHeader};</li>
 *   <li>N-ary search table (§III-D): {@link io.nearsort.core.sbtree.NarySearchTable};</li>
 *   <li>segmented block and per-thread data blocks (§III-C, §IV-A):
 *   {@link io.nearsort.core.sbtree.SegmentedBlock}, {@link io.nearsort.core.sbtree.SegmentedBlockDescriptor},
 *   {@link io.nearsort.core.sbtree.PerThreadBlock}, {@link io.nearsort.core.sbtree.PerThreadBlockDescriptor};</li>
 *   <li>shortcut (§III-B): {@link io.nearsort.core.sbtree.Shortcut};</li>
 *   <li>conversion (§IV-B, Figure 5): {@link io.nearsort.core.sbtree.Conversion},
 *   {@link io.nearsort.core.sbtree.SegmentedBlockMerge};</li>
 *   <li>search layer, ROWEX, the dedicated thread (§III-A, §III-F, §IV-C):
 *   {@link io.nearsort.core.sbtree.SearchLayer}, {@link io.nearsort.core.sbtree.SearchBlockDescriptor},
 *   {@link io.nearsort.core.sbtree.SearchLayerThread};</li>
 *   <li>version-based locking (§III-F): {@link io.nearsort.core.sbtree.VersionLock};</li>
 *   <li>block allocator (§III-E): {@link io.nearsort.core.memory.PageArena} in its concurrent mode.</li>
 * </ul>
 * What the paper leaves open, and this package decides: the order of writes of one key from different threads
 * ({@link io.nearsort.core.sbtree.WriteStamps}), when retired blocks may be freed
 * ({@link io.nearsort.core.sbtree.EpochReclamation}), which entry a writer may write next and how a conversion or
 * {@code close()} stops it ({@link io.nearsort.core.sbtree.ThreadContext}'s reservation word), deletes, and a
 * memory bound ({@link io.nearsort.core.sbtree.SBTree}).
 */
package io.nearsort.core.sbtree;
