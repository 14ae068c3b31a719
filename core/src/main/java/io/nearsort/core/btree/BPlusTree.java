package io.nearsort.core.btree;

import io.nearsort.core.AppendableLongIndex;
import io.nearsort.core.IndexStats;
import io.nearsort.core.LongCursor;
import io.nearsort.core.LongLongConsumer;
import io.nearsort.core.memory.PageArena;
import io.nearsort.core.view.LongIndexMapView;
import org.agrona.UnsafeApi;

import java.util.ConcurrentModificationException;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * An off-heap B+-tree from {@code long} to {@code long} over {@link PageArena} pages, with the ingestion paths
 * of SWARE §III: top-inserts through the root, right-most (tail) leaf insertion, bulk append of sorted runs and
 * configurable leaf and internal split ratios. Build one with {@link io.nearsort.core.Indexes#bPlusTree()}.
 *
 * <p>Not thread-safe for writes: a write must not overlap any other call. Reads ({@link #getOrDefault},
 * {@link #containsKey}, {@link #lastKey}, {@link #forEachInRange}, and each thread's own cursors) keep no
 * shared state, so many threads may read at once while nobody writes; the SA variants build their
 * concurrency on that. Built with {@link BPlusTreeBuilder#concurrentReads}, {@link #getOrDefault} and
 * {@link #containsKey} may also run while one thread writes (below).
 *
 * <h2>Design</h2>
 * Nodes are pages laid out by {@link NodeDescriptor}; leaves are doubly linked for scans in both directions.
 * The tree keeps its <em>right spine</em> (the right-most node of every level) so that a tail-leaf insert or a
 * bulk append reaches the right-most leaf in O(1) and pushes separators up the spine without any root-to-leaf
 * traversal (SWARE §III, Fig. 3a and 3b). Deletes free a leaf once it is empty and internal nodes once they
 * have no child, and collapse a root left with a single child; like most production B-trees it does not merge
 * under-full siblings.
 *
 * <h2>Point reads beside the writer</h2>
 * With {@link BPlusTreeBuilder#concurrentReads}, every node carries a version (a sequence lock per node, as in
 * optimistic lock coupling): the writer makes the version of each node it is about to change odd, ordered before
 * the change, and publishes the next even version with a release store once the whole write (splits and parent
 * updates included) is done; a bulk append publishes leaf by leaf. A reader takes the root and the height from one
 * volatile word, and at each level reads the child's version <em>before</em> it checks that the parent's has not
 * moved, so a child pointer is used only if the parent still held it when the child's version was read; at the
 * leaf it reads the entry, then checks the leaf's version again. Any mismatch or odd version restarts the read from
 * the root. A reader may thus look at a node the writer is changing, but acts on nothing it read there: keys and
 * counts are clamped to the page, and every address it follows was a node of this tree when it was read. That
 * last point needs pages not to be reused while a read might still be in them: pages freed by deletes are
 * <em>retired</em> and go back to the arena only at {@link #reclaimRetired}, which the owner calls when no such
 * read can be running (the SA B+-tree does so under its exclusive lock).
 */
public final class BPlusTree extends PagedTree {
    private static final int MAX_HEIGHT = 64;
    private static final String NAME = "B+-tree";
    /** {@link #stats()} counter: the share of a full leaf that stays in it when it splits, in percent. */
    public static final String LEAF_SPLIT_PERCENT = "leafSplitPercent";
    /**
     * {@link #stats()} counter: top-inserts of {@link #putAscending} that went into the leaf of the one before
     * without any search of an internal node (they count in {@code topInserts} too).
     */
    public static final String FINGER_INSERTS = "fingerInserts";
    /** {@link #stats()} counter: freed pages waiting for {@link #reclaimRetired} (still in bytesInUse). */
    public static final String RETIRED_PAGES = "retiredPages";

    private final int leafCapacity;
    private final int internalCapacity;
    private double leafSplitRatio;
    private double internalSplitRatio;
    private final boolean tailLeafInserts;
    /** Whether point reads run beside the writer (see "Point reads beside the writer"). */
    private final boolean concurrentReads;
    private final int bulkLeafFill;
    private final int bulkInternalFill;

    // Flyweights of the write path; reads and scans use their own.
    private final Node node;
    private final Node sibling;
    private final Node parent;
    private final long[] scratchKeys;
    private final long[] scratchChildren;

    private long root;
    private int height;
    /** {@code root | height << HEIGHT_SHIFT}: where reads beside the writer start, published after the nodes. */
    private volatile long rootAndHeight;
    private static final int HEIGHT_SHIFT = 56;
    private static final long ROOT_MASK = (1L << HEIGHT_SHIFT) - 1;
    /** Nodes the current write has made odd (changing); {@link #publishChanges} makes them even again. */
    private final long[] changing = new long[2 * MAX_HEIGHT + 4];
    private int changingCount;
    /**
     * For tests only: run by reads beside the writer between reading a child's address and reading its version,
     * where a writer may change both the child and its parent.
     */
    Runnable descentHook;
    /** Pages freed while reads beside the writer may still reach them, for {@link #reclaimRetired}. */
    private long[] retired = new long[16];
    private int retiredCount;
    /** rightSpine[level] is the right-most node of that level; level 0 holds the tail leaf. */
    private final long[] rightSpine = new long[MAX_HEIGHT];
    private final long[] pathNodes = new long[MAX_HEIGHT];
    private final int[] pathSlots = new int[MAX_HEIGHT];
    /**
     * The upper fence of {@code pathNodes[level]}: the separator above it, or {@link Long#MAX_VALUE}
     * ({@link Node#NO_FENCE}); slot 0 holds the leaf's. {@link #putAscending}'s finger, and the guess of each search
     * of a write's descent.
     */
    private final long[] pathFences = new long[MAX_HEIGHT];
    private static final int NO_FINGER = 0;
    private static final int FINGER_ON_PATH = 1;
    private static final int FINGER_ON_SPINE = 2;
    /** Smallest key of the tail leaf; meaningful while size > 0. */
    private long tailLeafMinKey;

    private long size;
    private long tailInserts;
    private long fingerInserts;
    /** Incremented by every change of the key set; cursors and scans use it to detect changes. */
    long modCount;

    BPlusTree(final BPlusTreeBuilder config) {
        super(NAME, config);
        final int pageSize = config.pageSize();
        this.leafCapacity = NodeDescriptor.leafCapacity(pageSize);
        this.internalCapacity = NodeDescriptor.internalCapacity(pageSize);
        this.leafSplitRatio = config.leafSplitRatio();
        this.internalSplitRatio = config.internalSplitRatio();
        this.tailLeafInserts = config.tailLeafInserts();
        this.concurrentReads = config.concurrentReads();
        this.bulkLeafFill = Math.max(1, (int) Math.floor(config.bulkFillFactor() * leafCapacity));
        this.bulkInternalFill = Math.max(1, (int) Math.floor(config.bulkFillFactor() * internalCapacity));
        this.node = new Node(pageSize);
        this.sibling = new Node(pageSize);
        this.parent = new Node(pageSize);
        this.scratchKeys = new long[internalCapacity + 1];
        this.scratchChildren = new long[internalCapacity + 2];
        final long first = arena.allocate();
        node.initLeaf(first);
        setRoot(first, 1);
        this.rightSpine[0] = first;
        this.leafCount = 1;
    }

    // ------------------------------------------------------------------ reads

    @Override
    public long getOrDefault(final long key, final long defaultValue) {
        ensureOpen();
        if (concurrentReads) {
            return readBesideWriter(key, defaultValue, false);
        }
        return readAlone(key, defaultValue, false);
    }

    @Override
    public boolean containsKey(final long key) {
        ensureOpen();
        if (concurrentReads) {
            return readBesideWriter(key, 0L, true) != 0L;
        }
        return readAlone(key, 0L, true) != 0L;
    }

    @Override
    public long getOrDefaultByWriter(final long key, final long defaultValue) {
        ensureOpen();
        return readAlone(key, defaultValue, false);
    }

    @Override
    public boolean containsKeyByWriter(final long key) {
        ensureOpen();
        return readAlone(key, 0L, true) != 0L;
    }

    /**
     * A point read while no thread writes (many may read at once): the value of {@code key} or
     * {@code defaultValue}, or with {@code presence} 1 or 0. Each node is searched below its fence, the separator
     * above it in its parent ({@link Node#lowerBoundOf(long, int, int, long, long)}).
     */
    private long readAlone(final long key, final long defaultValue, final boolean presence) {
        long page = root;
        long fence = Node.NO_FENCE;
        for (int level = height - 1; level >= 1; level--) {
            final int count = Node.countAt(page);
            final int child = Node.upperBoundAt(page, count, key, fence);
            if (child < count) {
                fence = Node.keyAt(page, child);
            }
            page = Node.slotAt(page, internalCapacity, child);
        }
        return Node.readLeaf(page, Node.countAt(page), leafCapacity, key, fence, defaultValue, presence);
    }

    /**
     * A point read that may run while one thread writes (see "Point reads beside the writer"): the value of
     * {@code key} or {@code defaultValue}, or with {@code presence} 1 or 0.
     */
    private long readBesideWriter(final long key, final long defaultValue, final boolean presence) {
        restart:
        while (true) {
            final long start = rootAndHeight;
            long page = start & ROOT_MASK;
            long version = Node.versionAcquire(page);
            if ((version & 1) != 0 || rootAndHeight != start) {
                Thread.onSpinWait();
                continue;
            }
            long fence = Node.NO_FENCE; // only places each search's guess: a torn read of it costs probes
            for (int level = (int) (start >>> HEIGHT_SHIFT) - 1; level >= 1; level--) {
                final int count = Math.max(0, Math.min(Node.countAt(page), internalCapacity));
                final int slot = Node.upperBoundAt(page, count, key, fence);
                if (slot < count) {
                    fence = Node.keyAt(page, slot);
                }
                final long child = Node.slotAt(page, internalCapacity, slot);
                if (descentHook != null) {
                    descentHook.run();
                }
                final long childVersion = Node.versionAcquire(child);
                UnsafeApi.loadFence();
                if (Node.versionAt(page) != version || (childVersion & 1) != 0) {
                    Thread.onSpinWait();
                    continue restart;
                }
                page = child;
                version = childVersion;
            }
            final int count = Math.max(0, Math.min(Node.countAt(page), leafCapacity));
            final long result = Node.readLeaf(page, count, leafCapacity, key, fence, defaultValue, presence);
            UnsafeApi.loadFence();
            if (Node.versionAt(page) != version) {
                Thread.onSpinWait();
                continue;
            }
            return result;
        }
    }

    @Override
    public boolean concurrentPointReads() {
        return concurrentReads;
    }

    @Override
    public long forEachInRange(final long lo, final long hi, final LongLongConsumer consumer) {
        ensureOpen();
        Objects.requireNonNull(consumer, "consumer");
        if (lo > hi) {
            return 0;
        }
        // A private flyweight: scans may run in several threads at once, and the consumer may read this tree.
        final Node leaf = newFlyweight();
        leaf.wrap(findLeaf(lo, leaf));
        int pos = leaf.lowerBound(lo);
        final long expectedModCount = modCount;
        long visited = 0;
        while (true) {
            final int count = leaf.count();
            for (; pos < count; pos++) {
                final long key = leaf.key(pos);
                if (key > hi) {
                    return visited;
                }
                consumer.accept(key, leaf.slot(pos));
                visited++;
                if (modCount != expectedModCount) {
                    throw new ConcurrentModificationException("the consumer of forEachInRange modified the tree");
                }
            }
            final long next = leaf.next();
            if (next == 0) {
                return visited;
            }
            leaf.wrap(next);
            pos = 0;
        }
    }

    @Override
    public long size() {
        ensureOpen();
        return size;
    }

    @Override
    public long lastKey() {
        ensureOpen();
        if (size == 0) {
            throw new NoSuchElementException("the tree is empty");
        }
        final long tail = rightSpine[0];
        return Node.keyAt(tail, Node.countAt(tail) - 1);
    }

    @Override
    public LongCursor cursor() {
        ensureOpen();
        return new BPlusTreeCursor(this);
    }

    // ------------------------------------------------------------------ inserts

    @Override
    public void put(final long key, final long value) {
        ensureOpen();
        try {
            insert(key, value);
        } finally {
            publishChanges();
        }
    }

    private void insert(final long key, final long value) {
        final Node leaf;
        final boolean viaSpine;
        final long fence;
        if (tailLeafInserts && size > 0 && key >= tailLeafMinKey) {
            // SWARE §III, right-most leaf insertion: every key >= the tail leaf's minimum belongs there.
            leaf = node.wrap(rightSpine[0]);
            viaSpine = true;
            fence = Node.NO_FENCE;
            tailInserts++;
        } else {
            leaf = node.wrap(descendRecordingPath(key));
            viaSpine = false;
            fence = pathFences[0];
            topInserts++;
        }
        insertIntoLeaf(leaf, key, value, viaSpine, fence);
    }

    /**
     * Inserts or overwrites {@code key} in {@code leaf}, the leaf whose range holds it, reached through the right
     * spine ({@code viaSpine}) or along {@link #pathNodes}, below {@code fence} (the separator above it, or
     * {@link Node#NO_FENCE}), which places the search's guess ({@link Node#lowerBoundOf(long, int, int, long, long)});
     * splits it when it is full.
     *
     * @return false when the leaf split (the path no longer leads to the key's leaf)
     */
    private boolean insertIntoLeaf(final Node leaf, final long key, final long value, final boolean viaSpine,
            final long fence) {
        final int count = leaf.count();
        final int pos = Node.lowerBoundAt(leaf.address(), count, key, fence);
        final boolean present = pos < count && leaf.key(pos) == key;
        if (!present && count == leafCapacity) {
            // A split takes a page per level at most, and one more for a new root (TreeBuilder.maxBytes).
            requirePages(height + 1L, "inserting key %d", key);
        }
        change(leaf.address());
        if (present) {
            leaf.setSlot(pos, value);
            return true;
        }
        modCount++;
        size++;
        if (count < leafCapacity) {
            insertAt(leaf, pos, count, key, value);
            if (pos == 0 && leaf.address() == rightSpine[0]) {
                tailLeafMinKey = key;
            }
            return true;
        }
        splitLeafAndInsert(leaf, pos, key, value, viaSpine);
        return false;
    }

    /**
     * {@inheritDoc}
     *
     * <p>A finger search: keeps the root-to-leaf path of the last insert with each node's upper fence (the
     * separator above it). A key below the leaf's fence belongs to the same leaf (the keys do not descend, so none
     * falls below it) and goes there at once; any other climbs the path only to the lowest node whose fence lies
     * above it, searches that node from the last insert's slot on, and descends from there. A flush's sorted
     * top-inserts land close together (SWARE §IV-A): most share a leaf or a parent, and then they skip the binary
     * searches of the nodes above, each a few cache misses on nodes that the buffer's work between flushes has
     * evicted. After a split, which changes the path, the next key is found from the root; a key at or above the
     * tail leaf's minimum goes to the tail leaf with {@link BPlusTreeBuilder#tailLeafInserts}, as {@link #put}
     * sends it. With {@link BPlusTreeBuilder#concurrentReads}, each leaf's inserts are published together, when
     * the finger moves on.
     */
    @Override
    public void putAscending(final long[] keys, final long[] values, final int from, final int to) {
        ensureOpen();
        AppendableLongIndex.checkAscending(keys, values, from, to);
        try {
            int finger = NO_FINGER;
            long leafFence = 0;
            for (int i = from; i < to; i++) {
                final long key = keys[i];
                if (tailLeafInserts && size > 0 && key >= tailLeafMinKey) {
                    // SWARE §III, right-most leaf insertion.
                    if (finger != FINGER_ON_SPINE) {
                        publishChanges();
                        node.wrap(rightSpine[0]);
                        finger = FINGER_ON_SPINE;
                    }
                    tailInserts++;
                } else {
                    if (finger == FINGER_ON_PATH && key < leafFence) {
                        fingerInserts++;
                    } else {
                        publishChanges();
                        leafFence = descendFromFinger(key, finger == FINGER_ON_PATH);
                        finger = FINGER_ON_PATH;
                    }
                    topInserts++;
                }
                if (!insertIntoLeaf(node, key, values[i], finger == FINGER_ON_SPINE,
                        finger == FINGER_ON_SPINE ? Node.NO_FENCE : leafFence)) {
                    finger = NO_FINGER; // the split changed the path
                }
            }
        } finally {
            publishChanges();
        }
    }

    /**
     * Wraps {@link #node} around {@code key}'s leaf, recording the path as {@link #descendRecordingPath} does, and
     * returns the leaf's fence ({@link Long#MAX_VALUE} when none bounds it: a key equal to it is then found again
     * from an upper level, which is correct, only slower). With {@code fromFinger}, the recorded path led to a
     * smaller key and no node on it changed since: the descent starts at the lowest node whose fence lies above
     * {@code key} (the root has none), from the path's slot there.
     */
    private long descendFromFinger(final long key, final boolean fromFinger) {
        if (height == 1) {
            node.wrap(root);
            return Long.MAX_VALUE;
        }
        int level = height - 1;
        int fromSlot = 0;
        if (fromFinger) {
            level = 1;
            while (level < height - 1 && key >= pathFences[level]) {
                level++;
            }
            fromSlot = pathSlots[level];
        } else {
            pathNodes[level] = root;
            pathFences[level] = Long.MAX_VALUE;
        }
        while (true) {
            final long page = pathNodes[level];
            final int count = Node.countAt(page);
            final int slot = fromSlot == 0 ? Node.upperBoundAt(page, count, key, pathFences[level])
                    : Node.gallopUpperBoundAt(page, fromSlot, count, key);
            pathSlots[level] = slot;
            final long fence = slot < count ? Node.keyAt(page, slot) : pathFences[level];
            final long child = Node.slotAt(page, internalCapacity, slot);
            if (level == 1) {
                node.wrap(child);
                return fence;
            }
            level--;
            pathNodes[level] = child;
            pathFences[level] = fence;
            fromSlot = 0;
        }
    }

    @Override
    public void bulkAppend(final long[] keys, final long[] values, final int from, final int to) {
        ensureOpen();
        checkRun(keys, values, from, to);
        if (from == to) {
            return;
        }
        requireBulkPages(to - from);
        modCount++;
        try {
            appendRun(keys, values, from, to);
        } finally {
            publishChanges();
        }
    }

    /**
     * Refuses a bulk append of {@code n} entries whose pages would not fit under the memory bound: the leaves
     * past the tail leaf's room, plus the internal nodes above them: a level holds at most one new node per
     * {@code bulkInternalFill} nodes below it plus one, so all levels together hold fewer than one per
     * {@code bulkInternalFill - 1} new leaves plus one per level, of which there are at most the height plus
     * log<sub>2</sub> of the new leaves plus one.
     */
    private void requireBulkPages(final int n) {
        final long entries = n - Math.max(0, bulkLeafFill - Node.countAt(rightSpine[0]));
        if (entries <= 0) {
            return;
        }
        final long leaves = divideRoundingUp(entries, bulkLeafFill);
        final long levels = height + 1L + (Long.SIZE - Long.numberOfLeadingZeros(leaves));
        requirePages(leaves + divideRoundingUp(leaves, Math.max(1, bulkInternalFill - 1)) + levels,
                "bulk-appending %d entries", n);
    }

    private static long divideRoundingUp(final long a, final long b) {
        return (a + b - 1) / b;
    }

    /** The body of {@link #bulkAppend}; publishes its changes leaf by leaf. */
    private void appendRun(final long[] keys, final long[] values, final int from, final int to) {
        int i = from;
        // SWARE §III bulk loading: top up the tail leaf to the fill factor, then fill fresh right-most leaves.
        final Node tail = node.wrap(rightSpine[0]);
        final int tailCount = tail.count();
        if (tailCount == 0) {
            tailLeafMinKey = keys[from];
        }
        final int room = Math.min(bulkLeafFill - tailCount, to - i);
        if (room > 0) {
            change(tail.address());
            writeEntries(tail, tailCount, keys, values, i, room);
            i += room;
            size += room;
            bulkLoadedEntries += room;
            publishChanges();
        }
        while (i < to) {
            final int n = Math.min(bulkLeafFill, to - i);
            final long page = arena.allocate();
            leafCount++;
            final Node leaf = sibling.initLeaf(page);
            writeEntries(leaf, 0, keys, values, i, n);
            leaf.setPrev(rightSpine[0]);
            change(rightSpine[0]);
            node.wrap(rightSpine[0]).setNext(page);
            appendToSpine(1, keys[i], page);
            rightSpine[0] = page;
            tailLeafMinKey = keys[i];
            i += n;
            size += n;
            bulkLoadedEntries += n;
            publishChanges();
        }
    }

    /** {@inheritDoc} Leaves and internal nodes alike; a builder's separate leaf and internal ratios end here. */
    @Override
    public void splitRatio(final double ratio) {
        ensureOpen();
        leafSplitRatio = SplitRatio.validate("splitRatio", ratio);
        internalSplitRatio = ratio;
    }

    @Override
    public int bulkLeafEntries() {
        return bulkLeafFill;
    }

    private static void writeEntries(final Node leaf, final int at, final long[] keys, final long[] values,
                                     final int from, final int n) {
        leaf.writeEntries(at, keys, values, from, n);
        leaf.setCount(at + n);
    }

    /** Adds {@code child} (whose smallest key is {@code separator}) as the right-most child at {@code level}. */
    private void appendToSpine(final int level, final long separator, final long child) {
        if (level == height) {
            growRoot(separator, child);
            return;
        }
        final Node spineNode = parent.wrap(rightSpine[level]);
        final int count = spineNode.count();
        if (count < bulkInternalFill) {
            change(spineNode.address());
            spineNode.setKey(count, separator);
            spineNode.setSlot(count + 1, child);
            spineNode.setCount(count + 1);
            return;
        }
        // The spine node is filled to the fill factor: start a new right-most node at this level.
        final long page = arena.allocate();
        internalCount++;
        parent.initInternal(page, child);
        appendToSpine(level + 1, separator, page);
        rightSpine[level] = page;
    }

    private static void insertAt(final Node leaf, final int pos, final int count, final long key, final long value) {
        leaf.moveKeys(pos, pos + 1, count - pos);
        leaf.moveSlots(pos, pos + 1, count - pos);
        leaf.setKey(pos, key);
        leaf.setSlot(pos, value);
        leaf.setCount(count + 1);
    }

    private void splitLeafAndInsert(final Node leaf, final int pos, final long key, final long value,
                                    final boolean viaSpine) {
        final int leftCount = SplitRatio.leftCount(leafCapacity + 1, leafSplitRatio, 1, 1);
        final long rightPage = arena.allocate();
        leafCount++;
        leafSplits++;
        final Node right = sibling.initLeaf(rightPage);
        final long oldNext = leaf.next();
        right.setNext(oldNext);
        right.setPrev(leaf.address());
        leaf.setNext(rightPage);
        if (oldNext != 0) {
            change(oldNext);
            parent.wrap(oldNext).setPrev(rightPage);
        }
        if (pos < leftCount) {
            final int moved = leafCapacity - (leftCount - 1);
            leaf.copyKeysTo(leftCount - 1, right, 0, moved);
            leaf.copySlotsTo(leftCount - 1, right, 0, moved);
            right.setCount(moved);
            insertAt(leaf, pos, leftCount - 1, key, value);
        } else {
            final int moved = leafCapacity - leftCount;
            leaf.copyKeysTo(leftCount, right, 0, moved);
            leaf.copySlotsTo(leftCount, right, 0, moved);
            leaf.setCount(leftCount);
            insertAt(right, pos - leftCount, moved, key, value);
        }
        final long separator = right.key(0);
        if (leaf.address() == rightSpine[0]) {
            rightSpine[0] = rightPage;
            tailLeafMinKey = separator;
        }
        insertIntoParent(1, separator, rightPage, viaSpine);
    }

    private void insertIntoParent(final int level, final long separator, final long rightChild,
                                  final boolean viaSpine) {
        if (level == height) {
            growRoot(separator, rightChild);
            return;
        }
        final Node p = parent.wrap(viaSpine ? rightSpine[level] : pathNodes[level]);
        final int count = p.count();
        final int slot = viaSpine ? count : pathSlots[level];
        change(p.address());
        if (count < internalCapacity) {
            p.moveKeys(slot, slot + 1, count - slot);
            p.moveSlots(slot + 1, slot + 2, count - slot);
            p.setKey(slot, separator);
            p.setSlot(slot + 1, rightChild);
            p.setCount(count + 1);
            return;
        }
        // Lay out the overfull node in scratch arrays, then deal it out to the two halves.
        for (int i = 0, k = 0; i <= count; i++) {
            if (i == slot) {
                scratchKeys[k++] = separator;
            }
            if (i < count) {
                scratchKeys[k++] = p.key(i);
            }
        }
        for (int i = 0, c = 0; i <= count; i++) {
            scratchChildren[c++] = p.slot(i);
            if (i == slot) {
                scratchChildren[c++] = rightChild;
            }
        }
        final int totalKeys = count + 1;
        final int leftKeys = SplitRatio.leftCount(totalKeys, internalSplitRatio, 1, 2);
        final long pushedUp = scratchKeys[leftKeys];
        writeInternal(p, 0, leftKeys);
        final long rightPage = arena.allocate();
        internalCount++;
        internalSplits++;
        final Node right = sibling.initInternal(rightPage, 0L);
        writeInternal(right, leftKeys + 1, totalKeys - leftKeys - 1);
        if (p.address() == rightSpine[level]) {
            rightSpine[level] = rightPage;
        }
        insertIntoParent(level + 1, pushedUp, rightPage, viaSpine);
    }

    /** Writes {@code n} scratch keys from {@code from} and their {@code n + 1} children into {@code target}. */
    private void writeInternal(final Node target, final int from, final int n) {
        for (int i = 0; i < n; i++) {
            target.setKey(i, scratchKeys[from + i]);
        }
        for (int i = 0; i <= n; i++) {
            target.setSlot(i, scratchChildren[from + i]);
        }
        target.setCount(n);
    }

    private void growRoot(final long separator, final long rightChild) {
        final long page = arena.allocate();
        internalCount++;
        final Node newRoot = parent.initInternal(page, root);
        newRoot.setKey(0, separator);
        newRoot.setSlot(1, rightChild);
        newRoot.setCount(1);
        if (height == MAX_HEIGHT) {
            throw new IllegalStateException("tree height would exceed " + MAX_HEIGHT);
        }
        rightSpine[height] = page;
        setRoot(page, height + 1);
    }

    private void setRoot(final long page, final int levels) {
        root = page;
        height = levels;
        rootAndHeight = page | (long) levels << HEIGHT_SHIFT; // after the new root's content (a volatile store)
    }

    /**
     * Marks {@code page} as changing for reads beside the writer before the current write changes it (its
     * version becomes odd); {@link #publishChanges} ends the marks. A no-op without concurrent reads.
     */
    private void change(final long page) {
        if (!concurrentReads) {
            return;
        }
        for (int i = 0; i < changingCount; i++) {
            if (changing[i] == page) {
                return;
            }
        }
        Node.beginChange(page, Node.versionAt(page));
        changing[changingCount++] = page;
    }

    /** Publishes every change of the current write: each changed node's version becomes even again. */
    private void publishChanges() {
        for (int i = 0; i < changingCount; i++) {
            Node.endChange(changing[i], Node.versionAt(changing[i]));
        }
        changingCount = 0;
    }

    /** Frees {@code page}, or keeps it for {@link #reclaimRetired} while reads beside the writer may reach it. */
    private void retire(final long page) {
        if (!concurrentReads) {
            arena.free(page);
            return;
        }
        if (retiredCount == retired.length) {
            retired = java.util.Arrays.copyOf(retired, 2 * retiredCount);
        }
        retired[retiredCount++] = page;
    }

    /**
     * Returns the pages that deletes freed since the last call to the arena. With concurrent reads they wait for
     * this call, which the caller makes only when no read beside the writer is in progress (one that started
     * earlier might still be inside them); otherwise pages are freed at once and this does nothing.
     */
    @Override
    public void reclaimRetired() {
        ensureOpen();
        for (int i = 0; i < retiredCount; i++) {
            arena.free(retired[i]);
        }
        retiredCount = 0;
    }

    // ------------------------------------------------------------------ deletes

    @Override
    public void remove(final long key) {
        ensureOpen();
        try {
            delete(key);
        } finally {
            publishChanges();
        }
    }

    private void delete(final long key) {
        final Node leaf = node.wrap(descendRecordingPath(key));
        final int count = leaf.count();
        final int pos = Node.lowerBoundAt(leaf.address(), count, key, pathFences[0]);
        if (pos == count || leaf.key(pos) != key) {
            return;
        }
        change(leaf.address());
        modCount++;
        size--;
        leaf.moveKeys(pos + 1, pos, count - pos - 1);
        leaf.moveSlots(pos + 1, pos, count - pos - 1);
        leaf.setCount(count - 1);
        if (count == 1 && height > 1) {
            freeLeaf(leaf);
            removeChild(1);
            collapseRoot();
            recomputeSpine();
        } else if (pos == 0 && count > 1 && leaf.address() == rightSpine[0]) {
            tailLeafMinKey = leaf.key(0);
        }
    }

    private void freeLeaf(final Node leaf) {
        final long prev = leaf.prev();
        final long next = leaf.next();
        if (prev != 0) {
            change(prev);
            sibling.wrap(prev).setNext(next);
        }
        if (next != 0) {
            change(next);
            sibling.wrap(next).setPrev(prev);
        }
        retire(leaf.address());
        leafCount--;
    }

    /** Removes child {@code pathSlots[level]} of {@code pathNodes[level]}, freeing nodes left with no child. */
    private void removeChild(final int level) {
        final Node p = parent.wrap(pathNodes[level]);
        final int count = p.count();
        final int slot = pathSlots[level];
        change(p.address());
        if (count == 0) {
            // Its only child is gone. Never the root: after collapseRoot() a root keeps two or more children.
            retire(p.address());
            internalCount--;
            removeChild(level + 1);
            return;
        }
        if (slot == 0) {
            p.moveKeys(1, 0, count - 1);
            p.moveSlots(1, 0, count);
        } else {
            p.moveKeys(slot, slot - 1, count - slot);
            p.moveSlots(slot + 1, slot, count - slot);
        }
        p.setCount(count - 1);
    }

    private void collapseRoot() {
        while (height > 1) {
            final Node r = parent.wrap(root);
            if (r.count() > 0) {
                return;
            }
            final long onlyChild = r.slot(0);
            change(root); // a read that started at this root restarts
            retire(root);
            internalCount--;
            setRoot(onlyChild, height - 1);
        }
    }

    private void recomputeSpine() {
        long page = root;
        for (int level = height - 1; level >= 1; level--) {
            rightSpine[level] = page;
            final Node n = parent.wrap(page);
            page = n.slot(n.count());
        }
        rightSpine[0] = page;
        final Node tail = parent.wrap(page);
        if (tail.count() > 0) {
            tailLeafMinKey = tail.key(0);
        }
    }

    // ------------------------------------------------------------------ navigation

    /** The leaf whose key range holds {@code key}, found with {@code flyweight}. */
    long findLeaf(final long key, final Node flyweight) {
        long page = root;
        for (int level = height - 1; level >= 1; level--) {
            flyweight.wrap(page);
            page = flyweight.slot(flyweight.upperBound(key));
        }
        return page;
    }

    /** The left-most leaf, found with {@code flyweight}. */
    long firstLeaf(final Node flyweight) {
        long page = root;
        for (int level = height - 1; level >= 1; level--) {
            page = flyweight.wrap(page).slot(0);
        }
        return page;
    }

    long lastLeaf() {
        return rightSpine[0];
    }

    long root() {
        return root;
    }

    int height() {
        return height;
    }

    long rightSpine(final int level) {
        return rightSpine[level];
    }

    Node newFlyweight() {
        return new Node(arena.pageSize());
    }

    /**
     * The leaf whose range holds {@code key}, recording the path in {@link #pathNodes}, {@link #pathSlots} and
     * {@link #pathFences} (whose slot 0 is then the leaf's fence); each node is searched below its fence.
     */
    private long descendRecordingPath(final long key) {
        long page = root;
        long fence = Node.NO_FENCE;
        for (int level = height - 1; level >= 1; level--) {
            final int count = Node.countAt(page);
            final int slot = Node.upperBoundAt(page, count, key, fence);
            pathNodes[level] = page;
            pathSlots[level] = slot;
            pathFences[level] = fence;
            if (slot < count) {
                fence = Node.keyAt(page, slot);
            }
            page = Node.slotAt(page, internalCapacity, slot);
        }
        pathFences[0] = fence;
        return page;
    }

    /**
     * Walks the leaf chain from the smallest key to the largest, handing each non-empty leaf to {@code visitor}.
     * The tree must not be modified during the walk.
     *
     * @param visitor receives each non-empty leaf in ascending key order; its arrays are reused between leaves
     * @throws IllegalStateException after {@link #close()}
     */
    public void forEachLeaf(final LeafVisitor visitor) {
        ensureOpen();
        final Node leaf = newFlyweight();
        final long[] keys = new long[leafCapacity];
        final long[] values = new long[leafCapacity];
        for (long page = firstLeaf(leaf); page != 0; page = leaf.next()) {
            leaf.wrap(page);
            final int count = leaf.count();
            for (int i = 0; i < count; i++) {
                keys[i] = leaf.key(i);
                values[i] = leaf.slot(i);
            }
            if (count > 0) {
                visitor.leaf(keys, values, count);
            }
        }
    }

    // ------------------------------------------------------------------ lifecycle and statistics

    @Override
    public IndexStats stats() {
        ensureOpen();
        return finishStats(treeStats(size, height)
                .counter(IndexStats.TAIL_LEAF_INSERTS, tailInserts)
                .counter(FINGER_INSERTS, fingerInserts)
                .counter(LEAF_SPLIT_PERCENT, Math.round(leafSplitRatio * 100))
                .counter(RETIRED_PAGES, retiredCount), size, leafCapacity);
    }

    /**
     * Entries one leaf holds.
     *
     * @return the leaf capacity, fixed by the page size
     */
    public int leafCapacity() {
        return leafCapacity;
    }

    /**
     * Keys one internal node holds.
     *
     * @return the internal node capacity in keys (it has one child more), fixed by the page size
     */
    public int internalCapacity() {
        return internalCapacity;
    }

    @Override
    protected String shape() {
        return "size=" + size + ", height=" + height;
    }
}
