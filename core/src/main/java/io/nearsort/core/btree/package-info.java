/**
 * The off-heap B+-tree of SWARE's evaluation (§III, §V "Index Design"): {@link io.nearsort.core.btree.BPlusTree},
 * built with {@link io.nearsort.core.Indexes#bPlusTree()}, with the design elements SWARE adds to it: right-most
 * leaf inserts and bulk append (§III, Fig. 3b), split ratios ({@link io.nearsort.core.btree.SplitRatio}, Fig. 3c),
 * and a memory bound ({@link io.nearsort.core.btree.TreeBuilder#maxBytes}).
 *
 * <p>API: {@link io.nearsort.core.btree.BPlusTree}, {@link io.nearsort.core.btree.BPlusTreeBuilder}, the settings
 * shared with the Bε-tree ({@link io.nearsort.core.btree.TreeBuilder}, {@link io.nearsort.core.btree.PagedTree}),
 * {@link io.nearsort.core.btree.SplitRatio} and {@link io.nearsort.core.btree.LeafVisitor} (LDI trains its
 * intervals from a tree's leaves). Internal, public only for the Bε-tree's package: the node flyweight
 * {@link io.nearsort.core.btree.Node}; it may change in any release.
 */
package io.nearsort.core.btree;
