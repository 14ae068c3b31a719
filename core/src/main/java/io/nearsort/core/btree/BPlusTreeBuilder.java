package io.nearsort.core.btree;

import io.nearsort.core.memory.PageArena;
import io.nearsort.core.memory.SlabPool;

/**
 * Validated configuration of a {@link BPlusTree}. The defaults are the baseline B+-tree of the SWARE paper's
 * evaluation (§V "Index Design"): 50:50 leaf and internal splits and top-inserts only; bulk-appended leaves
 * are filled to 95% (§V "SWARE Tuning").
 */
public final class BPlusTreeBuilder {
    /** Fill factor of bulk-appended nodes used when none is configured (SWARE §V). */
    public static final double DEFAULT_BULK_FILL_FACTOR = 0.95;
    /** Smallest accepted bulk fill factor. */
    public static final double MIN_BULK_FILL_FACTOR = 0.5;

    private int pageSize = PageArena.DEFAULT_PAGE_SIZE;
    private double leafSplitRatio = SplitRatio.MIN;
    private double internalSplitRatio = SplitRatio.MIN;
    private boolean tailLeafInserts;
    private boolean concurrentReads;
    private double bulkFillFactor = DEFAULT_BULK_FILL_FACTOR;
    private SlabPool slabPool;

    /** Use {@link io.nearsort.core.Indexes#bPlusTree()}. */
    public BPlusTreeBuilder() {
    }

    /** Node size in bytes: a power of two from 512 B to 1 MiB (default 4 KiB). */
    public BPlusTreeBuilder pageSize(final int pageSize) {
        if (pageSize < PageArena.MIN_PAGE_SIZE || pageSize > PageArena.MAX_PAGE_SIZE
                || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("pageSize must be a power of two in [" + PageArena.MIN_PAGE_SIZE
                    + ", " + PageArena.MAX_PAGE_SIZE + "] (got: " + pageSize + ")");
        }
        this.pageSize = pageSize;
        return this;
    }

    /** Entries one leaf of a tree with nodes of {@code pageSize} bytes holds. */
    public static int leafCapacity(final int pageSize) {
        return NodeDescriptor.leafCapacity(pageSize);
    }

    /** Sets both the leaf and the internal split ratio, in [0.5, 0.95] (default 0.5; SWARE uses 0.8). */
    public BPlusTreeBuilder splitRatio(final double ratio) {
        SplitRatio.validate("splitRatio", ratio);
        this.leafSplitRatio = ratio;
        this.internalSplitRatio = ratio;
        return this;
    }

    /** Fraction of a full leaf's entries that stay in it on a split, in [0.5, 0.95] (default 0.5). */
    public BPlusTreeBuilder leafSplitRatio(final double ratio) {
        this.leafSplitRatio = SplitRatio.validate("leafSplitRatio", ratio);
        return this;
    }

    /** Fraction of a full internal node's keys that stay in it on a split, in [0.5, 0.95] (default 0.5). */
    public BPlusTreeBuilder internalSplitRatio(final double ratio) {
        this.internalSplitRatio = SplitRatio.validate("internalSplitRatio", ratio);
        return this;
    }

    /** Whether a put whose key is at least the tail leaf's minimum goes straight to that leaf (default false). */
    public BPlusTreeBuilder tailLeafInserts(final boolean enabled) {
        this.tailLeafInserts = enabled;
        return this;
    }

    /**
     * Whether {@link BPlusTree#getOrDefault} and {@link BPlusTree#containsKey} may run in any number of threads
     * while one thread writes (default false: reads only while nobody writes). The writer then keeps a version per
     * node and reads validate the versions they passed, retrying when a change overlapped them; pages the writer
     * frees wait in {@link BPlusTree#reclaimRetired} until no such read can still reach them. Scans, cursors and
     * {@link BPlusTree#lastKey} still need the writer to be idle. The SA B+-tree turns this on.
     */
    public BPlusTreeBuilder concurrentReads(final boolean enabled) {
        this.concurrentReads = enabled;
        return this;
    }

    /** Fill factor of leaves and internal nodes written by bulk append, in [0.5, 1.0] (default 0.95). */
    public BPlusTreeBuilder bulkFillFactor(final double fillFactor) {
        if (!(fillFactor >= MIN_BULK_FILL_FACTOR && fillFactor <= 1.0)) {
            throw new IllegalArgumentException("bulkFillFactor must be in [" + MIN_BULK_FILL_FACTOR
                    + ", 1.0] (got: " + fillFactor + ")");
        }
        this.bulkFillFactor = fillFactor;
        return this;
    }

    /**
     * Where the tree's off-heap slabs come from and return to when it is closed (default
     * {@link SlabPool#shared()}, bounded by the system property {@value SlabPool#MAX_BYTES_PROPERTY};
     * {@link SlabPool#disabled()} frees them on close). See {@link PageArena.Builder#slabPool}.
     */
    public BPlusTreeBuilder slabPool(final SlabPool slabPool) {
        if (slabPool == null) {
            throw new IllegalArgumentException("slabPool must not be null (use SlabPool.disabled() for none)");
        }
        this.slabPool = slabPool;
        return this;
    }

    /** A new, empty tree that owns its off-heap memory. */
    public BPlusTree build() {
        return new BPlusTree(this);
    }

    int pageSize() {
        return pageSize;
    }

    double leafSplitRatio() {
        return leafSplitRatio;
    }

    double internalSplitRatio() {
        return internalSplitRatio;
    }

    boolean tailLeafInserts() {
        return tailLeafInserts;
    }

    double bulkFillFactor() {
        return bulkFillFactor;
    }

    boolean concurrentReads() {
        return concurrentReads;
    }

    /** The configured pool, or the shared one. */
    SlabPool slabPool() {
        return slabPool != null ? slabPool : SlabPool.shared();
    }

    @Override
    public String toString() {
        return "BPlusTreeBuilder{pageSize=" + pageSize + ", leafSplitRatio=" + leafSplitRatio
                + ", internalSplitRatio=" + internalSplitRatio + ", tailLeafInserts=" + tailLeafInserts
                + ", bulkFillFactor=" + bulkFillFactor + ", concurrentReads=" + concurrentReads + ", slabPool=" + (slabPool != null ? slabPool : "shared") + "}";
    }
}
