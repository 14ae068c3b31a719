package io.nearsort.core.btree;

/**
 * Validated configuration of a {@link BPlusTree}. The defaults are the baseline B+-tree of the SWARE paper's
 * evaluation (§V "Index Design"): 50:50 leaf and internal splits and top-inserts only; bulk-appended leaves
 * are filled to 95% (§V "SWARE Tuning"). The settings it shares with the Bε-tree are described in
 * {@link TreeBuilder}.
 */
public final class BPlusTreeBuilder extends TreeBuilder<BPlusTreeBuilder> {
    private boolean tailLeafInserts;

    /** Use {@link io.nearsort.core.Indexes#bPlusTree()}. */
    public BPlusTreeBuilder() {
    }

    /** Entries one leaf of a tree with nodes of {@code pageSize} bytes holds. */
    public static int leafCapacity(final int pageSize) {
        return NodeDescriptor.leafCapacity(pageSize);
    }

    /** Whether a put whose key is at least the tail leaf's minimum goes straight to that leaf (default false). */
    @Override
    public BPlusTreeBuilder tailLeafInserts(final boolean enabled) {
        this.tailLeafInserts = enabled;
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

    @Override
    protected String settings() {
        return ", tailLeafInserts=" + tailLeafInserts;
    }
}
