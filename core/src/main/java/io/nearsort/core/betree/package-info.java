/**
 * The off-heap Bε-tree of SWARE's evaluation (§V "Index Design", after Bender et al.): internal nodes with about
 * √B pivots and a message buffer, upserts and deletes as messages flushed towards the leaves, bulk append;
 * {@link io.nearsort.core.betree.BeTree}, built with {@link io.nearsort.core.Indexes#beTree()}. The SA Bε-tree is
 * the SWARE buffer over it ({@link io.nearsort.core.Indexes#saBeTree()}).
 *
 * <p>API: {@link io.nearsort.core.betree.BeTree} and {@link io.nearsort.core.betree.BeTreeBuilder}; every other
 * type of the package is package-private.
 */
package io.nearsort.core.betree;
