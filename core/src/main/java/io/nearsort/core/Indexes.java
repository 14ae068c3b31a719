package io.nearsort.core;

import io.nearsort.core.betree.BeTreeBuilder;
import io.nearsort.core.btree.BPlusTreeBuilder;
import io.nearsort.core.sbtree.SBTreeBuilder;
import io.nearsort.core.sware.SortednessAwareIndexBuilder;

/**
 * Entry points of nearsort: each returns a validated builder whose defaults are the papers'.
 *
 * <p>The indexes need {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} on the JVM's command line
 * ({@code =org.agrona} when Agrona is on the module path); without it {@code build()} fails with an error naming
 * the flag.
 *
 * <pre>{@code
 * try (LongIndex index = Indexes.bPlusTree().splitRatio(0.8).tailLeafInserts(true).build()) {
 *     index.put(42L, 7L);
 * }
 * }</pre>
 */
public final class Indexes {
    private Indexes() {
    }

    /**
     * The off-heap B+-tree. Defaults are the SWARE paper's baseline B+-tree: 50:50 splits, top-inserts only.
     *
     * @return a new builder with those defaults
     */
    public static BPlusTreeBuilder bPlusTree() {
        return new BPlusTreeBuilder();
    }

    /**
     * The SA B+-tree (OSM-tree): the SWARE buffer over a B+-tree. Defaults are SWARE §V's tuning; see
     * {@link SortednessAwareIndexBuilder}, which also says how much Java heap the buffer takes.
     *
     * @return a new builder with those defaults, over a B+-tree
     */
    public static SortednessAwareIndexBuilder saBPlusTree() {
        return new SortednessAwareIndexBuilder();
    }

    /**
     * SB-Tree, the segmented-block B+-tree for concurrent time-series ingestion: per-thread blocks behind a
     * shortcut, an asynchronously updated search layer. Defaults: 4 KiB blocks (the paper's); see
     * {@link SBTreeBuilder}.
     *
     * @return a new builder with those defaults
     */
    public static SBTreeBuilder sbTree() {
        return new SBTreeBuilder();
    }

    /**
     * The off-heap Bε-tree. Defaults are the SWARE paper's Bε-tree (§V "Index Design"): ε = 1/2, 50:50 splits.
     *
     * @return a new builder with those defaults
     */
    public static BeTreeBuilder beTree() {
        return new BeTreeBuilder();
    }

    /**
     * The SA Bε-tree: the SWARE buffer over a Bε-tree (§V-G). Defaults are SWARE §V's tuning, as for
     * {@link #saBPlusTree()}; {@code tailLeafInserts} must stay false.
     *
     * @return a new builder with those defaults, over a Bε-tree
     */
    public static SortednessAwareIndexBuilder saBeTree() {
        return new SortednessAwareIndexBuilder(beTree());
    }
}
