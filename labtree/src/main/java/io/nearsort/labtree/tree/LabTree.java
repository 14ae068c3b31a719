package io.nearsort.labtree.tree;

import io.nearsort.labtree.SplitStrategy;
import io.nearsort.labtree.leaf.LeafCapacity;
import io.nearsort.labtree.storage.BufferPool;

import java.nio.ByteBuffer;

/**
 * The LAB-tree proper (LAB-tree §3–4): a B-tree over the page file whose keys are linearized array indices in
 * [0, N) and whose values are doubles; elements equal to the default value are not stored. Leaves partition
 * [0, N) into ranges, split where the {@link SplitStrategy} says, and store their elements sparse or dense
 * (§4.2). Internal nodes split in the middle. A leaf or internal node is removed only once empty (Remark B.3).
 * Confined to one thread.
 */
public final class LabTree {
    private static final int MAX_HEIGHT = 64;

    private final BufferPool pool;
    private final LeafCapacity capacity;
    private final SplitStrategy strategy;
    private final double defaultValue;
    private final long domain;
    private final int fanout;
    private final TreeState state;
    // The last descent: page and child index per level (0 = root), and the leaf's range.
    private final long[] pathPages = new long[MAX_HEIGHT];
    private final int[] pathChild = new int[MAX_HEIGHT];
    private long leafLow;
    private long leafHigh;
    private long structureVersion;
    // The leaf the last point read reached: a read inside its range goes straight to it (iteration, rectangles).
    private long cachedLeaf;
    private long cachedLow;
    private long cachedHigh;
    private long cachedVersion = -1;

    /** The persistent counters and pointers of a tree (kept in the meta page by the owner). */
    public static final class TreeState {
        /** The root node's page number. */
        public long root;
        /** Levels of the tree (1: the root is a leaf). */
        public int height;
        /** Non-default elements stored. */
        public long size;
        /** Leaves in the tree. */
        public long leafCount;
        /** Leaves in the dense format. */
        public long denseLeafCount;
        /** Leaf splits since the array was created. */
        public long splits;
        /** First page of the list of freed pages awaiting reuse; 0 when the list is empty. */
        public long freeListHead;

        /** A state with every counter and pointer 0, for the owner to fill in (from the meta page or a new root). */
        public TreeState() {
        }
    }

    LabTree(final BufferPool pool, final LeafCapacity capacity, final SplitStrategy strategy,
            final double defaultValue, final long domain, final TreeState state) {
        this.pool = pool;
        this.capacity = capacity;
        this.strategy = strategy;
        this.defaultValue = defaultValue;
        this.domain = domain;
        this.fanout = NodePageDescriptor.internalFanout(pool.file().pageSize());
        this.state = state;
    }

    /** Creates the first (empty, sparse) leaf as the root. */
    void createRoot() {
        final BufferPool.Frame frame = allocate();
        frame.payload().putInt(NodePageDescriptor.TYPE_OFFSET, NodePageDescriptor.TYPE_SPARSE_LEAF);
        frame.payload().putInt(NodePageDescriptor.COUNT_OFFSET, 0);
        pool.unpin(frame);
        state.root = frame.page();
        state.height = 1;
        state.leafCount = 1;
    }

    /**
     * The value at linearized index {@code key}.
     *
     * @param key the linearized index, in [0, N) (the caller checks it)
     * @return the stored value, or the default value when the element is not stored
     */
    public double get(final long key) {
        final long page;
        if (cachedVersion == structureVersion && key >= cachedLow && key < cachedHigh) {
            page = cachedLeaf;
        } else {
            descend(key);
            page = pathPages[state.height - 1];
            cachedLeaf = page;
            cachedLow = leafLow;
            cachedHigh = leafHigh;
            cachedVersion = structureVersion;
        }
        final BufferPool.Frame leaf = pool.pin(page);
        final double value = LeafNode.lookup(leaf.payload(), key, defaultValue);
        pool.unpin(leaf);
        return value;
    }

    /**
     * A leaf's page and key range [low, high).
     *
     * @param page the leaf's page number
     * @param low  the first linearized index of the leaf's range
     * @param high the end of the leaf's range (exclusive)
     */
    public record LeafRange(long page, long low, long high) {
        /**
         * Whether {@code key} falls in this leaf's range.
         *
         * @param key any linearized index
         * @return true when low &lt;= key &lt; high
         */
        public boolean contains(final long key) {
            return key >= low && key < high;
        }
    }

    /**
     * The leaf holding {@code key}, found by a partial lookup that visits only the internal levels (LAB-tree §5.2:
     * page identities for the flush policies).
     *
     * @param key the linearized index, in [0, N)
     * @return the leaf's page and key range, valid until {@link #structureVersion()} changes
     */
    public LeafRange locate(final long key) {
        descend(key);
        return new LeafRange(pathPages[state.height - 1], leafLow, leafHigh);
    }

    /**
     * The leaf page the last {@link #set} reached (before any split it caused).
     *
     * @return that leaf's page number
     */
    public long lastLeaf() {
        return pathPages[state.height - 1];
    }

    /**
     * Changes whenever a leaf splits or is removed, so that cached {@link LeafRange}s can be dropped.
     *
     * @return a counter, 0 when the tree is opened and incremented by every leaf split or removal
     */
    public long structureVersion() {
        return structureVersion;
    }

    /** Receives stored elements in key order. */
    @FunctionalInterface
    public interface EntryVisitor {
        /**
         * Receives one element.
         *
         * @param key   the element's linearized index
         * @param value its value
         */
        void visit(long key, double value);
    }

    /**
     * Visits the stored (non-default) elements with keys in [from, to) in key order, leaf by leaf: each next leaf
     * is found by descending to the previous leaf's upper bound.
     *
     * @param from    the first key, inclusive; values below 0 are treated as 0
     * @param to      the end key, exclusive; values above N are treated as N; nothing is visited if not above
     *                {@code from}
     * @param visitor receives each stored (non-default) element, in key order
     */
    public void scan(final long from, final long to, final EntryVisitor visitor) {
        long next = Math.max(0, from);
        final long end = Math.min(to, domain);
        while (next < end) {
            descend(next);
            final long high = leafHigh;
            final BufferPool.Frame frame = pool.pin(pathPages[state.height - 1]);
            try {
                LeafNode.scan(frame.payload(), next, end, defaultValue, visitor);
            } finally {
                pool.unpin(frame);
            }
            next = high;
        }
    }

    /**
     * Sets index {@code key} to {@code value}; the default value deletes the element.
     *
     * @param key   the linearized index, in [0, N) (the caller checks it)
     * @param value the new value; equal to the default value (by {@link Double#compare}) deletes the element
     * @throws IllegalStateException if the split strategy picks an infeasible split or the tree would exceed 64
     *                               levels
     */
    public void set(final long key, final double value) {
        descend(key);
        final long leafPage = pathPages[state.height - 1];
        final BufferPool.Frame frame = pool.pin(leafPage);
        final int delta = LeafNode.updateInPlace(frame.payload(), key, value, defaultValue, capacity.dense());
        if (delta != LeafNode.NOT_IN_PLACE) {
            // Overwrites and writes inside a dense subrange keep the leaf's shape (§4.2): no decode, no re-encode.
            state.size += delta;
            frame.markDirty();
            pool.unpin(frame);
            return;
        }
        final LeafNode leaf = LeafNode.read(frame.payload(), defaultValue);
        final boolean wasDense = leaf.dense;
        if (Double.compare(value, defaultValue) == 0) {
            if (!leaf.remove(key)) {
                pool.unpin(frame);
                return;
            }
            state.size--;
            if (leaf.count == 0 && state.height > 1) {
                pool.unpin(frame);
                removeEmptyLeaf(leafPage, wasDense);
                return;
            }
            writeLeaf(frame, leaf, 0, leaf.count, LeafNode.denseFormat(leaf.keys, 0, leaf.count, wasDense,
                    capacity));
            pool.unpin(frame);
            return;
        }
        if (leaf.put(key, value)) {
            state.size++;
        }
        final Boolean format = LeafNode.denseFormat(leaf.keys, 0, leaf.count, wasDense, capacity);
        if (format != null) {
            writeLeaf(frame, leaf, 0, leaf.count, format);
            pool.unpin(frame);
            return;
        }
        // §4.1: the leaf overflows both formats; the strategy picks the splitting point.
        final long x = strategy.splitPoint(leafLow, leafHigh, java.util.Arrays.copyOf(leaf.keys, leaf.count),
                capacity);
        final int found = leaf.find(x);
        final int split = found >= 0 ? found : -found - 1; // keys below x go left
        final Boolean leftFormat = LeafNode.denseFormat(leaf.keys, 0, split, wasDense, capacity);
        final Boolean rightFormat = LeafNode.denseFormat(leaf.keys, split, leaf.count, false, capacity);
        if (leftFormat == null || rightFormat == null) {
            throw new IllegalStateException(strategy + " chose an infeasible split at " + x);
        }
        writeLeaf(frame, leaf, 0, split, leftFormat);
        pool.unpin(frame);
        final BufferPool.Frame right = allocate();
        writeLeaf(right, leaf, split, leaf.count, rightFormat);
        state.leafCount++;
        state.splits++;
        structureVersion++;
        pool.unpin(right);
        insertIntoParent(state.height - 2, x, right.page());
    }

    private void writeLeaf(final BufferPool.Frame frame, final LeafNode leaf, final int from, final int to,
                           final boolean dense) {
        if (frame.payload().getInt(NodePageDescriptor.TYPE_OFFSET) == NodePageDescriptor.TYPE_DENSE_LEAF && !dense) {
            state.denseLeafCount--;
        } else if (frame.payload().getInt(NodePageDescriptor.TYPE_OFFSET) != NodePageDescriptor.TYPE_DENSE_LEAF
                && dense) {
            state.denseLeafCount++;
        }
        leaf.write(frame.payload(), from, to, dense, defaultValue);
        frame.markDirty();
    }

    /** Records the root-to-leaf path of {@code key} and the leaf's range [leafLow, leafHigh). */
    private void descend(final long key) {
        long page = state.root;
        long low = 0;
        long high = domain;
        for (int level = 0; level < state.height - 1; level++) {
            pathPages[level] = page;
            final BufferPool.Frame frame = pool.pin(page);
            final ByteBuffer b = frame.payload();
            final int i = InternalNode.childFor(b, key);
            pathChild[level] = i;
            if (i > 0) {
                low = InternalNode.low(b, i);
            }
            if (i + 1 < InternalNode.count(b)) {
                high = InternalNode.low(b, i + 1);
            }
            page = InternalNode.child(b, i);
            pool.unpin(frame);
        }
        pathPages[state.height - 1] = page;
        leafLow = low;
        leafHigh = high;
    }

    /** Adds child (low, page) right after the path's child at {@code level}; splits upward as needed. */
    private void insertIntoParent(final int level, final long low, final long page) {
        if (level < 0) {
            // The root split: a new root over the old one and its new sibling.
            final BufferPool.Frame root = allocate();
            InternalNode.init(root.payload());
            InternalNode.insert(root.payload(), 0, 0, state.root);
            InternalNode.insert(root.payload(), 1, low, page);
            root.markDirty();
            pool.unpin(root);
            state.root = root.page();
            state.height++;
            if (state.height > MAX_HEIGHT) {
                throw new IllegalStateException("tree height exceeds " + MAX_HEIGHT);
            }
            return;
        }
        final BufferPool.Frame frame = pool.pin(pathPages[level]);
        final ByteBuffer b = frame.payload();
        InternalNode.insert(b, pathChild[level] + 1, low, page);
        frame.markDirty();
        final int count = InternalNode.count(b);
        if (count <= fanout) {
            pool.unpin(frame);
            return;
        }
        // Internal nodes split in the middle; the right half's first low separates them.
        final int keep = count / 2;
        final BufferPool.Frame sibling = allocate();
        InternalNode.init(sibling.payload());
        for (int i = keep; i < count; i++) {
            InternalNode.insert(sibling.payload(), i - keep, InternalNode.low(b, i), InternalNode.child(b, i));
        }
        b.putInt(NodePageDescriptor.COUNT_OFFSET, keep);
        sibling.markDirty();
        final long separator = InternalNode.low(sibling.payload(), 0);
        pool.unpin(frame);
        pool.unpin(sibling);
        insertIntoParent(level - 1, separator, sibling.page());
    }

    /** Remark B.3: an empty leaf is removed, and so is every ancestor it leaves empty; a one-child root collapses. */
    private void removeEmptyLeaf(final long leafPage, final boolean wasDense) {
        structureVersion++;
        free(leafPage);
        state.leafCount--;
        if (wasDense) {
            state.denseLeafCount--;
        }
        for (int level = state.height - 2; level >= 0; level--) {
            final BufferPool.Frame frame = pool.pin(pathPages[level]);
            InternalNode.remove(frame.payload(), pathChild[level]);
            frame.markDirty();
            final boolean empty = InternalNode.count(frame.payload()) == 0;
            pool.unpin(frame);
            if (!empty) {
                break;
            }
            free(pathPages[level]);
        }
        collapseRoot();
    }

    private void collapseRoot() {
        while (state.height > 1) {
            final BufferPool.Frame frame = pool.pin(state.root);
            if (InternalNode.count(frame.payload()) != 1) {
                pool.unpin(frame);
                return;
            }
            final long child = InternalNode.child(frame.payload(), 0);
            pool.unpin(frame);
            free(state.root);
            state.root = child;
            state.height--;
        }
    }

    private BufferPool.Frame allocate() {
        if (state.freeListHead == 0) {
            return pool.pinNew();
        }
        final BufferPool.Frame frame = pool.pin(state.freeListHead);
        state.freeListHead = frame.payload().getLong(NodePageDescriptor.FREE_NEXT_OFFSET);
        frame.markDirty();
        return frame;
    }

    private void free(final long page) {
        final BufferPool.Frame frame = pool.pin(page);
        frame.payload().putInt(NodePageDescriptor.TYPE_OFFSET, NodePageDescriptor.TYPE_FREE);
        frame.payload().putInt(NodePageDescriptor.COUNT_OFFSET, 0);
        frame.payload().putLong(NodePageDescriptor.FREE_NEXT_OFFSET, state.freeListHead);
        frame.markDirty();
        pool.unpin(frame);
        state.freeListHead = page;
    }
}
