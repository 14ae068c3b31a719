package io.nearsort.core.btree;

/**
 * Validated configuration of a {@link BPlusTree}. The defaults are the baseline B+-tree of the SWARE paper's
 * evaluation (§V "Index Design"): 50:50 leaf and internal splits and top-inserts only; bulk-appended leaves
 * are filled to 95% (§V "SWARE Tuning"). The settings it shares with the Bε-tree are described in
 * {@link TreeBuilder}.
 */
public final class BPlusTreeBuilder extends TreeBuilder<BPlusTreeBuilder> {
    private boolean tailLeafInserts;
    private boolean concurrentReads;

    /** Use {@link io.nearsort.core.Indexes#bPlusTree()}. */
    public BPlusTreeBuilder() {
    }

    /**
     * Entries one leaf of a tree with nodes of {@code pageSize} bytes holds.
     *
     * @param pageSize the node size in bytes, as for {@link #pageSize(int)} (not checked here)
     * @return how many key-value pairs fit in one leaf: {@code (pageSize - 32) / 16}
     */
    public static int leafCapacity(final int pageSize) {
        return NodeDescriptor.leafCapacity(pageSize);
    }

    /** Whether a put whose key is at least the tail leaf's minimum goes straight to that leaf (default false). */
    @Override
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
     *
     * @param enabled true to let point reads run beside one writer
     * @return this builder
     */
    public BPlusTreeBuilder concurrentReads(final boolean enabled) {
        this.concurrentReads = enabled;
        return this;
    }

    /** A new, empty tree that owns its off-heap memory. */
    @Override
    public BPlusTree build() {
        return new BPlusTree(this);
    }

    boolean tailLeafInserts() {
        return tailLeafInserts;
    }

    boolean concurrentReads() {
        return concurrentReads;
    }

    @Override
    protected String settings() {
        return ", tailLeafInserts=" + tailLeafInserts + ", concurrentReads=" + concurrentReads;
    }
}
