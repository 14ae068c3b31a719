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
    /** The {@link #maxBytes} of a tree whose memory is not bounded (the default). */
    public static final long NO_MEMORY_BOUND = Long.MAX_VALUE;
    /** The smallest {@link #maxBytes} accepted, in pages: a root, a leaf and room for a split. */
    public static final int MIN_BOUND_PAGES = 8;

    private int pageSize = PageArena.DEFAULT_PAGE_SIZE;
    private double leafSplitRatio = SplitRatio.MIN;
    private double internalSplitRatio = SplitRatio.MIN;
    private double bulkFillFactor = DEFAULT_BULK_FILL_FACTOR;
    private SlabPool slabPool;
    private long maxBytes = NO_MEMORY_BOUND;

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
        this.pageSize = PageArena.checkPageSize("pageSize", pageSize);
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
     * A bound on the off-heap bytes the tree's pages hold ({@code bytesInUse()}), at least {@value #MIN_BOUND_PAGES}
     * pages (default: none, {@link #NO_MEMORY_BOUND}). A write that needs new pages beyond it is refused with
     * {@link IllegalStateException} and changes nothing; reads and removes always go on.
     * <ul>
     *   <li>The B+-tree checks each insert against the pages it may need (a split takes at most its height plus
     *   one, a bulk append a number it computes first), so its pages never exceed the bound; updates of present
     *   keys and inserts into leaves with room go on at the bound, and removes that empty a leaf give its page
     *   back.</li>
     *   <li>The Bε-tree cannot size a buffer flush before it runs: once its pages reach the bound, it refuses
     *   every put that may flush the root (the root's buffer, or a root leaf, is full), updates included, and
     *   every bulk append; the one flush under way when the bound is reached may take it past the bound. Its
     *   removes are messages too, and give pages back only as flushes apply them.</li>
     * </ul>
     * The SA trees take the bound on their own builder ({@code SortednessAwareIndexBuilder.maxBytes}), not on the
     * tree's.
     *
     * @param bytes the bound in bytes, at least {@value #MIN_BOUND_PAGES} pages of {@link #pageSize()} (checked
     *              again at build, since the page size may change after); {@link #NO_MEMORY_BOUND} for none
     * @return this builder
     * @throws IllegalArgumentException when {@code bytes} is below {@value #MIN_BOUND_PAGES} pages
     */
    public B maxBytes(final long bytes) {
        checkMaxBytes(bytes, pageSize);
        this.maxBytes = bytes;
        return self();
    }

    /**
     * Checks a memory bound against the page size: {@code bytes} must hold {@value #MIN_BOUND_PAGES} pages.
     *
     * @param bytes    the bound, or {@link #NO_MEMORY_BOUND}
     * @param pageSize the node size in bytes
     * @throws IllegalArgumentException naming {@code maxBytes} when the bound is too small
     */
    public static void checkMaxBytes(final long bytes, final int pageSize) {
        final long min = (long) MIN_BOUND_PAGES * pageSize;
        if (bytes < min) {
            throw new IllegalArgumentException("maxBytes must be at least " + MIN_BOUND_PAGES + " pages (" + min
                    + " bytes for pageSize " + pageSize + "; got: " + bytes + ")");
        }
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
     * The configured memory bound.
     *
     * @return the bound in bytes, or {@link #NO_MEMORY_BOUND}
     */
    public long maxBytes() {
        return maxBytes;
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
                + ", slabPool=" + (slabPool != null ? slabPool : "shared")
                + (maxBytes == NO_MEMORY_BOUND ? "" : ", maxBytes=" + maxBytes) + settings() + "}";
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
