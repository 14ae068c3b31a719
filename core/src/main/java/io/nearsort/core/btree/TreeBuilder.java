package io.nearsort.core.btree;

import io.nearsort.core.AppendableLongIndex;
import io.nearsort.core.memory.PageArena;
import io.nearsort.core.memory.SlabPool;

/**
 * The validated settings the two trees of SWARE's evaluation share (§V "Index Design": a B+-tree and a Bε-tree
 * "that support opportunistic bulk loading and variable fill/split factors"): node page size, leaf and internal
 * split ratios, the fill factor of bulk-appended nodes and the slab pool. {@link BPlusTreeBuilder} and
 * {@code io.nearsort.core.betree.BeTreeBuilder} extend it; the SWARE builder
 * ({@code io.nearsort.core.sware.SortednessAwareIndexBuilder}) configures whichever tree it wraps through it.
 *
 * @param <B> the concrete builder, returned by every setter for chaining
 */
public abstract class TreeBuilder<B extends TreeBuilder<B>> {
    /** Fill factor of bulk-appended nodes used when none is configured (SWARE §V). */
    public static final double DEFAULT_BULK_FILL_FACTOR = 0.95;
    /** Smallest accepted bulk fill factor. */
    public static final double MIN_BULK_FILL_FACTOR = 0.5;

    private int pageSize = PageArena.DEFAULT_PAGE_SIZE;
    private double leafSplitRatio = SplitRatio.MIN;
    private double internalSplitRatio = SplitRatio.MIN;
    private double bulkFillFactor = DEFAULT_BULK_FILL_FACTOR;
    private SlabPool slabPool;

    /** Subclasses only. */
    protected TreeBuilder() {
    }

    /** This builder, typed as the subclass. */
    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /**
     * Node size in bytes: a power of two from 512 B to 1 MiB (default 4 KiB).
     *
     * @param pageSize bytes per node page, a power of two from 512 to 1048576
     * @return this builder
     * @throws IllegalArgumentException when {@code pageSize} is not such a power of two
     */
    public B pageSize(final int pageSize) {
        if (pageSize < PageArena.MIN_PAGE_SIZE || pageSize > PageArena.MAX_PAGE_SIZE
                || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("pageSize must be a power of two in [" + PageArena.MIN_PAGE_SIZE
                    + ", " + PageArena.MAX_PAGE_SIZE + "] (got: " + pageSize + ")");
        }
        this.pageSize = pageSize;
        return self();
    }

    /**
     * Sets both the leaf and the internal split ratio, in [0.5, 0.95] (default 0.5; SWARE uses 0.8).
     *
     * @param ratio fraction of a full node's entries that stay in it on a split, in [0.5, 0.95]
     * @return this builder
     * @throws IllegalArgumentException when {@code ratio} is outside [0.5, 0.95]
     */
    public B splitRatio(final double ratio) {
        SplitRatio.validate("splitRatio", ratio);
        this.leafSplitRatio = ratio;
        this.internalSplitRatio = ratio;
        return self();
    }

    /**
     * Fraction of a full leaf's entries that stay in it on a split, in [0.5, 0.95] (default 0.5).
     *
     * @param ratio fraction of the entries the left leaf keeps, in [0.5, 0.95]
     * @return this builder
     * @throws IllegalArgumentException when {@code ratio} is outside [0.5, 0.95]
     */
    public B leafSplitRatio(final double ratio) {
        this.leafSplitRatio = SplitRatio.validate("leafSplitRatio", ratio);
        return self();
    }

    /**
     * Fraction of a full internal node's keys that stay in it on a split, in [0.5, 0.95] (default 0.5).
     *
     * @param ratio fraction of the keys the left node keeps, in [0.5, 0.95]
     * @return this builder
     * @throws IllegalArgumentException when {@code ratio} is outside [0.5, 0.95]
     */
    public B internalSplitRatio(final double ratio) {
        this.internalSplitRatio = SplitRatio.validate("internalSplitRatio", ratio);
        return self();
    }

    /**
     * Fill factor of leaves and internal nodes written by bulk append, in [0.5, 1.0] (default 0.95).
     *
     * @param fillFactor fraction of a bulk-appended node's capacity to fill, in [0.5, 1.0]
     * @return this builder
     * @throws IllegalArgumentException when {@code fillFactor} is outside [0.5, 1.0]
     */
    public B bulkFillFactor(final double fillFactor) {
        if (!(fillFactor >= MIN_BULK_FILL_FACTOR && fillFactor <= 1.0)) {
            throw new IllegalArgumentException("bulkFillFactor must be in [" + MIN_BULK_FILL_FACTOR
                    + ", 1.0] (got: " + fillFactor + ")");
        }
        this.bulkFillFactor = fillFactor;
        return self();
    }

    /**
     * Where the tree's off-heap slabs come from and return to when it is closed (default
     * {@link SlabPool#shared()}, bounded by the system property {@value SlabPool#MAX_BYTES_PROPERTY};
     * {@link SlabPool#disabled()} frees them on close). See {@link PageArena.Builder#slabPool}.
     *
     * @param slabPool the pool to take slabs from and return them to; not null
     * @return this builder
     * @throws IllegalArgumentException when {@code slabPool} is null
     */
    public B slabPool(final SlabPool slabPool) {
        if (slabPool == null) {
            throw new IllegalArgumentException("slabPool must not be null (use SlabPool.disabled() for none)");
        }
        this.slabPool = slabPool;
        return self();
    }

    /**
     * Whether a put whose key is at least the tail leaf's minimum goes straight to that leaf (SWARE §III
     * right-most leaf insertion). Trees without that path accept only {@code false}.
     *
     * @param enabled true to send such puts straight to the tail leaf
     * @return this builder
     * @throws IllegalArgumentException when {@code enabled} is true for a tree without that path
     */
    public abstract B tailLeafInserts(boolean enabled);

    /**
     * A new, empty tree that owns its off-heap memory.
     *
     * @return a new, empty tree with this builder's settings; the caller closes it
     */
    public abstract AppendableLongIndex build();

    /**
     * The configured node size in bytes.
     *
     * @return bytes per node page, a power of two from 512 to 1048576
     */
    public int pageSize() {
        return pageSize;
    }

    /**
     * The configured leaf split ratio.
     *
     * @return the leaf split ratio, in [0.5, 0.95]
     */
    public double leafSplitRatio() {
        return leafSplitRatio;
    }

    /**
     * The configured internal split ratio.
     *
     * @return the internal split ratio, in [0.5, 0.95]
     */
    public double internalSplitRatio() {
        return internalSplitRatio;
    }

    /**
     * The configured fill factor of bulk-appended nodes.
     *
     * @return the bulk fill factor, in [0.5, 1.0]
     */
    public double bulkFillFactor() {
        return bulkFillFactor;
    }

    /**
     * The configured pool, or the shared one.
     *
     * @return the configured pool, or {@link SlabPool#shared()} when none was set
     */
    public SlabPool slabPool() {
        return slabPool != null ? slabPool : SlabPool.shared();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{pageSize=" + pageSize + ", leafSplitRatio=" + leafSplitRatio
                + ", internalSplitRatio=" + internalSplitRatio + ", bulkFillFactor=" + bulkFillFactor
                + ", slabPool=" + (slabPool != null ? slabPool : "shared") + settings() + "}";
    }

    /**
     * The subclass's own settings for {@link #toString()}, each as {@code ", name=value"}.
     *
     * @return the settings, each preceded by {@code ", "}; empty when there are none
     */
    protected String settings() {
        return "";
    }
}
