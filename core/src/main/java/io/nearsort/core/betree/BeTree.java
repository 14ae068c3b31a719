package io.nearsort.core.betree;

import io.nearsort.core.IndexStats;
import io.nearsort.core.LongCursor;
import io.nearsort.core.LongLongConsumer;
import io.nearsort.core.btree.BPlusTreeBuilder;
import io.nearsort.core.btree.Node;
import io.nearsort.core.btree.PagedTree;
import io.nearsort.core.btree.SplitRatio;
import io.nearsort.core.sortedness.StableMergeSort;

import java.util.ConcurrentModificationException;
import java.util.NoSuchElementException;
import java.util.Objects;

import static io.nearsort.core.betree.BeNodeDescriptor.DELETE;
import static io.nearsort.core.betree.BeNodeDescriptor.UPSERT;

/**
 * An off-heap Bε-tree from {@code long} to {@code long} over {@link io.nearsort.core.memory.PageArena} pages
 * (Bender et al., <em>An Introduction to Bε-trees and Write-Optimization</em>, the reference [8] of SWARE), with
 * the bulk append SWARE needs from the tree under its buffer. Build one with
 * {@link io.nearsort.core.Indexes#beTree()}; the SA Bε-tree is {@link io.nearsort.core.Indexes#saBeTree()}.
 *
 * <p>Not thread-safe for writes: a write must not overlap any other call. Reads ({@link #getOrDefault},
 * {@link #containsKey}, {@link #lastKey}, {@link #isEmpty}, {@link #size}, {@link #forEachInRange}, and each
 * thread's own cursors) keep no shared state but a cached size, published safely, so many threads may read at
 * once while nobody writes. Every node lives in the tree's arena; {@link #close()} frees it all.
 *
 * <h2>Design</h2>
 * Internal nodes hold about √B pivots and a buffer of messages in the rest of their page ({@link
 * BeNodeDescriptor}, ε = 1/2 by default, SWARE §V "Index Design"); leaves are B+-tree leaves. A {@link #put} or
 * {@link #remove} is a message inserted into the root's buffer, which keeps one message per key (the newest).
 * When a message finds the root's buffer full, the root flushes: the messages bound for the child receiving the
 * most of them move down into that child's buffer, which flushes in turn while it is over capacity; a leaf
 * applies the messages it receives. Flushed children may split (leaves by the leaf split ratio, internal nodes by
 * the internal one, pivots and messages alike), and so may the node above them; a leaf or subtree left empty is
 * freed unless it is its parent's only child. Point reads stop at the first message for the key on the way down
 * (the newest, since messages only move down); range reads and cursors merge the root-to-leaf path's buffers
 * with the leaves ({@link BeTreeCursor}).
 *
 * <p>Bulk append (SWARE §III) fills the right-most leaf and new right-most leaves to the bulk fill factor and
 * pushes their separators up the right spine into nodes filled to the fill factor, whose buffers stay empty:
 * bulk loads bypass the buffers, and the SA Bε-tree's top-inserts land in those empty buffers (§V-G). It needs
 * every message and leaf entry below the run; a run's keys that are not above every key ever written (the tree
 * may still buffer a delete of a key the run brings back) go in as messages through the root instead and count
 * as top-inserts. Split and fill factors shape the leaves and the pivots; the buffers are unaffected by them (§V).
 *
 * <p>The tree keeps its largest key, so {@link #lastKey()} and {@link #isEmpty()} cost nothing; removing the
 * largest key finds the next one with a backward merged seek. A delete above the largest key has nothing to
 * delete and is dropped. {@link #size()} is exact: the leaves' entry count plus what the buffered messages
 * change, computed when messages are buffered and the content changed since the last call (O(messages ×
 * height)). Leaves are not linked: range reads walk root-to-leaf paths, which also carry the buffered messages.
 */
public final class BeTree extends PagedTree {
    /** Messages currently held in internal nodes' buffers. */
    public static final String MESSAGES_BUFFERED = "messagesBuffered";
    /** Delete messages that entered the root (deletes above the largest key have nothing to delete). */
    public static final String DELETE_MESSAGES = "deleteMessages";
    /** Messages moved from a node's buffer to a child by flushes. */
    public static final String MESSAGES_FLUSHED = "messagesFlushed";
    /** Messages applied to leaves. */
    public static final String MESSAGES_APPLIED = "messagesApplied";
    /** Flushes of a node's buffer to one child, at every level. */
    public static final String NODE_FLUSHES = "nodeFlushes";
    /** Prefix of the per-level flush counters: {@code nodeFlushesLevel1} counts flushes into leaves. */
    public static final String NODE_FLUSHES_LEVEL = "nodeFlushesLevel";
    /** Pivots an internal node holds. */
    public static final String MAX_PIVOTS = "maxPivots";
    /** Messages an internal node's buffer holds. */
    public static final String NODE_BUFFER_CAPACITY = "nodeBufferCapacity";

    private static final int MAX_HEIGHT = 64;
    private static final String NAME = "Bε-tree";

    private final BeNodeDescriptor layout;
    private final int leafCapacity;
    private final int bufferCapacity;
    private int leafSplitPiece;
    private double internalSplitRatio;
    private final int bulkLeafFill;
    private final int bulkInternalFill;

    // Writer state: flyweights and per-level scratch of the flushes.
    private final BeNode inner;
    private final BeNode spineNode;
    private final Node leaf;
    private final NodeScratch[] scratch = new NodeScratch[MAX_HEIGHT];
    private final Messages[] groups = new Messages[MAX_HEIGHT];
    private final NewSiblings[] siblings = new NewSiblings[MAX_HEIGHT];
    private final Messages single = new Messages(1);
    private final long[] leafKeys;
    private final long[] leafValues;
    private long[] mergedKeys;
    private long[] mergedValues;
    private final BeTreeCursor lastKeyProbe;

    private long root;
    private int height;
    /** rightSpine[level] is the right-most node of that level; level 0 holds the tail leaf. */
    private final long[] rightSpine = new long[MAX_HEIGHT];

    /** Whether any key is present; {@link #largestKey} is the largest then. */
    private boolean nonEmpty;
    private long largestKey;
    /** Whether anything was ever written; {@link #writtenCeiling} bounds every message and leaf entry then. */
    private boolean written;
    private long writtenCeiling;

    private long leafEntries;
    private long messagesBuffered;
    private long deleteMessages;
    private long messagesFlushed;
    private long messagesApplied;
    private final long[] nodeFlushes = new long[MAX_HEIGHT];
    /** Incremented by every write; cursors, scans and the size cache use it to detect changes. */
    long modCount;
    private volatile long[] sizeCache = {-1, 0};

    BeTree(final BeTreeBuilder config) {
        super(NAME, config);
        this.layout = BeNodeDescriptor.of(config.pageSize(), config.epsilon());
        this.leafCapacity = BPlusTreeBuilder.leafCapacity(config.pageSize());
        this.bufferCapacity = layout.bufferCapacity;
        // A leaf receiving more than it holds is cut into leaves of what a split keeps on the left (SWARE §III).
        this.leafSplitPiece = SplitRatio.leftCount(leafCapacity + 1, config.leafSplitRatio(), 1, 1);
        this.internalSplitRatio = config.internalSplitRatio();
        this.bulkLeafFill = Math.max(1, (int) Math.floor(config.bulkFillFactor() * leafCapacity));
        this.bulkInternalFill = Math.max(1, (int) Math.floor(config.bulkFillFactor() * layout.maxPivots));
        this.inner = new BeNode(layout);
        this.spineNode = new BeNode(layout);
        this.leaf = new Node(config.pageSize());
        this.leafKeys = new long[leafCapacity];
        this.leafValues = new long[leafCapacity];
        this.mergedKeys = new long[leafCapacity + bufferCapacity];
        this.mergedValues = new long[leafCapacity + bufferCapacity];
        this.root = arena.allocate();
        leaf.initLeaf(root);
        this.height = 1;
        this.rightSpine[0] = root;
        this.leafCount = 1;
        this.lastKeyProbe = new BeTreeCursor(this);
    }

    // ------------------------------------------------------------------ reads

    @Override
    public long getOrDefault(final long key, final long defaultValue) {
        ensureOpen();
        if (!nonEmpty || key > largestKey) {
            return defaultValue;
        }
        return read(key, defaultValue, false);
    }

    @Override
    public boolean containsKey(final long key) {
        ensureOpen();
        if (!nonEmpty || key > largestKey) {
            return false;
        }
        return read(key, 0L, true) != 0L;
    }

    /**
     * The value of {@code key} or {@code defaultValue}, or with {@code presence} 1 or 0, as decided by the first
     * internal node on the way down holding a message for it (the newest, since messages only move down), or else
     * by the leaf whose range holds it. Each node is searched below its fence, the pivot above it in its parent or
     * the tree's largest key on the right edge ({@link Node#lowerBoundOf(long, int, int, long, long)}).
     */
    private long read(final long key, final long defaultValue, final boolean presence) {
        long page = root;
        long fence = largestKey;
        for (int level = height - 1; level >= 1; level--) {
            final int child = BeNode.childIndexAt(layout, page, key, fence);
            final int m = BeNode.findMessageAt(layout, page, key, child);
            if (m >= 0) {
                final boolean upsert = BeNode.messageKindAt(layout, page, m) == UPSERT;
                if (presence) {
                    return upsert ? 1L : 0L;
                }
                return upsert ? BeNode.messageValueAt(layout, page, m) : defaultValue;
            }
            if (child < BeNode.pivotCountAt(page)) {
                fence = BeNode.pivotAt(layout, page, child);
            }
            page = BeNode.childAt(layout, page, child);
        }
        return Node.readLeaf(page, Node.countAt(page), leafCapacity, key, fence, defaultValue, presence);
    }

    private static boolean leafHolds(final long leafPage, final long key) {
        final int pos = Node.lowerBoundAt(leafPage, key);
        return pos < Node.countAt(leafPage) && Node.keyAt(leafPage, pos) == key;
    }

    @Override
    public long forEachInRange(final long lo, final long hi, final LongLongConsumer consumer) {
        ensureOpen();
        Objects.requireNonNull(consumer, "consumer");
        if (lo > hi || !nonEmpty || lo > largestKey) {
            return 0;
        }
        final BeTreeCursor cursor = new BeTreeCursor(this);
        final long expectedModCount = modCount;
        long visited = 0;
        for (boolean more = cursor.seekCeiling(lo); more && cursor.key() <= hi; more = cursor.advance()) {
            consumer.accept(cursor.key(), cursor.value());
            visited++;
            if (modCount != expectedModCount) {
                throw new ConcurrentModificationException("the consumer of forEachInRange modified the tree");
            }
        }
        return visited;
    }

    @Override
    public boolean isEmpty() {
        ensureOpen();
        return !nonEmpty;
    }

    @Override
    public long lastKey() {
        ensureOpen();
        if (!nonEmpty) {
            throw new NoSuchElementException("the tree is empty");
        }
        return largestKey;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Exact: the leaves' entries plus, for every key with buffered messages, what its newest message changes
     * (cached until the next write).
     */
    @Override
    public long size() {
        ensureOpen();
        if (messagesBuffered == 0) {
            return leafEntries;
        }
        final long[] cached = sizeCache;
        if (cached[0] == modCount) {
            return cached[1];
        }
        final long size = leafEntries + bufferedDelta();
        sizeCache = new long[] {modCount, size};
        return size;
    }

    /** What the buffered messages add to or remove from the leaves' entries. */
    private long bufferedDelta() {
        final int n = Math.toIntExact(messagesBuffered);
        final long[] keys = new long[n];
        final long[] order = new long[n];
        final byte[] kinds = new byte[n];
        // Pre-order: of the messages for one key (all on its root-to-leaf path), the newest comes first, and the
        // stable sort keeps it first.
        final int collected = collectMessages(root, height - 1, keys, order, kinds, 0);
        StableMergeSort.sortStable(keys, order, 0, collected);
        long delta = 0;
        for (int i = 0; i < collected; i++) {
            if (i > 0 && keys[i] == keys[i - 1]) {
                continue;
            }
            final boolean inLeaves = leafHolds(leafFor(keys[i]), keys[i]);
            delta += (kinds[(int) order[i]] == UPSERT ? 1 : 0) - (inLeaves ? 1 : 0);
        }
        return delta;
    }

    private int collectMessages(final long page, final int level, final long[] keys, final long[] order,
                                final byte[] kinds, final int at) {
        if (level == 0) {
            return at;
        }
        int next = at;
        final int count = BeNode.messageCountAt(page);
        for (int i = 0; i < count; i++, next++) {
            keys[next] = BeNode.messageKeyAt(layout, page, i);
            order[next] = next;
            kinds[next] = BeNode.messageKindAt(layout, page, i);
        }
        final int pivots = BeNode.pivotCountAt(page);
        for (int c = 0; c <= pivots; c++) {
            next = collectMessages(BeNode.childAt(layout, page, c), level - 1, keys, order, kinds, next);
        }
        return next;
    }

    /** The leaf whose key range holds {@code key}, ignoring the buffers on the way. */
    private long leafFor(final long key) {
        long page = root;
        for (int level = height - 1; level >= 1; level--) {
            page = BeNode.childAt(layout, page, BeNode.childIndexAt(layout, page, key));
        }
        return page;
    }

    @Override
    public LongCursor cursor() {
        ensureOpen();
        return new BeTreeCursor(this);
    }

    // ------------------------------------------------------------------ writes

    /** {@inheritDoc} An upsert message into the root's buffer (a top-insert). */
    @Override
    public void put(final long key, final long value) {
        ensureOpen();
        if (atMemoryBound() && mayFlush()) {
            throw memoryBoundReached("putting key " + key + " may flush the root");
        }
        modCount++;
        topInserts++;
        if (!nonEmpty || key > largestKey) {
            largestKey = key;
            nonEmpty = true;
        }
        if (!written || key > writtenCeiling) {
            writtenCeiling = key;
            written = true;
        }
        insertMessage(key, value, UPSERT);
    }

    /** {@inheritDoc} A delete message into the root's buffer, unless the key is above the largest key. */
    @Override
    public void remove(final long key) {
        ensureOpen();
        if (!nonEmpty || key > largestKey) {
            return; // no key is present above the largest one
        }
        modCount++;
        deleteMessages++;
        insertMessage(key, 0L, DELETE);
        if (key == largestKey) {
            nonEmpty = key != Long.MIN_VALUE && lastKeyProbe.seekFloor(key - 1);
            if (nonEmpty) {
                largestKey = lastKeyProbe.key();
            }
        }
    }

    /**
     * Whether the next message may flush the root and so take pages ({@code TreeBuilder.maxBytes}): the root leaf
     * is full, or the root's buffer is. Conservative: a message replacing one for the same key, or
     * an update of a present key, would not flush.
     */
    private boolean mayFlush() {
        return height == 1 ? Node.countAt(root) >= leafCapacity : inner.wrap(root).messageCount() >= bufferCapacity;
    }

    private void insertMessage(final long key, final long value, final byte kind) {
        if (height == 1) {
            single.setSingle(key, value, kind);
            final NewSiblings split = siblings(0);
            applyToLeaf(root, single, split);
            growRoot(split);
            return;
        }
        final BeNode r = inner.wrap(root);
        final int count = r.messageCount();
        final int child = BeNode.childIndexAt(layout, root, key);
        final int pos = BeNode.messageLowerBoundAt(layout, root, key, child);
        if (pos < count && r.messageKey(pos) == key) {
            r.setMessage(pos, value, kind); // the newest message for a key replaces the older one
            return;
        }
        messagesBuffered++;
        if (count < bufferCapacity) {
            r.insertMessage(pos, count, child, key, value, kind);
            return;
        }
        // The root's buffer is full: flush it (Bender et al. [8]), then fix the root.
        single.setSingle(key, value, kind);
        final NewSiblings split = siblings(height - 1);
        pushDown(height - 1, root, single, split);
        growRoot(split);
        collapseRoot();
        recomputeSpine();
    }

    /**
     * Delivers {@code incoming} (sorted, newer than anything below) to the internal node at {@code page}: merges
     * it into the node's buffer, then flushes the child receiving the most messages until the buffer fits its
     * page, and writes the node back, split if its children split past its pivot capacity. Reports the nodes
     * split off, or an emptied subtree, in {@code out}.
     */
    private void pushDown(final int level, final long page, final Messages incoming, final NewSiblings out) {
        final BeNode target = inner.wrap(page);
        if (target.messageCount() + incoming.count <= bufferCapacity) {
            // Room for all of them: merge in place, no flush below.
            messagesBuffered -= target.mergeNewer(incoming);
            out.clear();
            return;
        }
        final NodeScratch node = scratch(level);
        messagesBuffered -= node.load(target, incoming);
        while (node.messages.count > bufferCapacity) {
            flushLargestGroup(level, node);
        }
        store(level, page, node, out);
    }

    /** Moves the messages of the child receiving the most of them down into that child. */
    private void flushLargestGroup(final int level, final NodeScratch node) {
        final int c = node.childWithMostMessages();
        final Messages group = group(level);
        group.copyOf(node.messages, node.groupFrom, node.groupTo);
        node.messages.remove(node.groupFrom, node.groupTo);
        nodeFlushes[level]++;
        messagesFlushed += group.count;
        final long child = node.children[c];
        final NewSiblings result = siblings(level - 1);
        if (level == 1) {
            applyToLeaf(child, group, result);
        } else {
            pushDown(level - 1, child, group, result);
        }
        if (result.empty && node.pivotCount > 0) {
            freeSubtree(child, level - 1);
            node.removeChild(c);
        } else {
            node.insertSiblings(c, result);
            node.onlyChildEmpty = result.empty;
        }
    }

    /** Writes {@code node} to {@code page}, cut into several nodes if it holds more pivots than a page does. */
    private void store(final int level, final long page, final NodeScratch node, final NewSiblings out) {
        out.clear();
        out.empty = node.pivotCount == 0 && node.messages.count == 0 && node.onlyChildEmpty;
        int first = 0;
        int from = 0;
        long target = page;
        while (node.pivotCount - first > layout.maxPivots) {
            // SWARE §III split factor: the left node keeps internalSplitRatio of a full node's pivots.
            final int left = SplitRatio.leftCount(layout.maxPivots + 1, internalSplitRatio, 1, 2);
            final long separator = node.pivots[first + left];
            final int to = node.messages.lowerBound(separator, from);
            inner.wrap(target).write(node.pivots, node.children, first, left, node.messages, from, to);
            target = arena.allocate();
            internalCount++;
            internalSplits++;
            out.add(separator, target);
            first += left + 1;
            from = to;
        }
        inner.wrap(target).write(node.pivots, node.children, first, node.pivotCount - first, node.messages, from,
                node.messages.count);
    }

    /**
     * Applies {@code messages} to the leaf at {@code page}: upserts insert or overwrite, deletes remove. A leaf
     * receiving more than it holds is cut into leaves of {@link #leafSplitPiece} entries, the last taking the rest
     * (what successive splits at the leaf split ratio would leave); they are reported in {@code out}.
     */
    private void applyToLeaf(final long page, final Messages messages, final NewSiblings out) {
        out.clear();
        final int count = Node.countAt(page);
        leaf.wrap(page).readEntries(0, leafKeys, leafValues, 0, count);
        if (mergedKeys.length < count + messages.count) {
            mergedKeys = new long[count + messages.count];
            mergedValues = new long[count + messages.count];
        }
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < count || j < messages.count) {
            if (j == messages.count || (i < count && leafKeys[i] < messages.keys[j])) {
                mergedKeys[n] = leafKeys[i];
                mergedValues[n++] = leafValues[i++];
                continue;
            }
            if (i < count && leafKeys[i] == messages.keys[j]) {
                i++; // the message decides the key
            }
            if (messages.kinds[j] == UPSERT) {
                mergedKeys[n] = messages.keys[j];
                mergedValues[n++] = messages.values[j];
            }
            j++;
        }
        leafEntries += n - count;
        messagesApplied += messages.count;
        if (height > 1) {
            messagesBuffered -= messages.count;
        }
        out.empty = n == 0;
        int from = 0;
        long target = page;
        while (n - from > leafCapacity) {
            writeLeaf(target, from, leafSplitPiece);
            target = arena.allocate();
            leaf.initLeaf(target);
            leafCount++;
            leafSplits++;
            from += leafSplitPiece;
            out.add(mergedKeys[from], target);
        }
        writeLeaf(target, from, n - from);
    }

    private void writeLeaf(final long page, final int from, final int n) {
        leaf.wrap(page).writeEntries(0, mergedKeys, mergedValues, from, n);
        leaf.setCount(n);
    }

    /** Grows the tree by a root above the current one while the current root split. */
    private void growRoot(final NewSiblings split) {
        NewSiblings pending = split;
        while (pending.count > 0) {
            if (height == MAX_HEIGHT) {
                throw new IllegalStateException("tree height would exceed " + MAX_HEIGHT);
            }
            final NodeScratch node = scratch(height);
            node.loadRoot(root);
            node.insertSiblings(0, pending);
            root = arena.allocate();
            internalCount++;
            height++;
            pending = siblings(height - 1);
            store(height - 1, root, node, pending);
        }
        recomputeSpine();
    }

    /** Replaces a root with one child and an empty buffer by that child. */
    private void collapseRoot() {
        while (height > 1 && BeNode.pivotCountAt(root) == 0 && BeNode.messageCountAt(root) == 0) {
            final long onlyChild = BeNode.childAt(layout, root, 0);
            arena.free(root);
            internalCount--;
            root = onlyChild;
            height--;
        }
    }

    /** Frees the subtree at {@code page} (an emptied one: no entry, no message). */
    private void freeSubtree(final long page, final int level) {
        if (level == 0) {
            arena.free(page);
            leafCount--;
            return;
        }
        final int pivots = BeNode.pivotCountAt(page);
        for (int c = 0; c <= pivots; c++) {
            freeSubtree(BeNode.childAt(layout, page, c), level - 1);
        }
        arena.free(page);
        internalCount--;
    }

    private void recomputeSpine() {
        long page = root;
        for (int level = height - 1; level >= 1; level--) {
            rightSpine[level] = page;
            page = BeNode.childAt(layout, page, BeNode.pivotCountAt(page));
        }
        rightSpine[0] = page;
    }

    private NodeScratch scratch(final int level) {
        if (scratch[level] == null) {
            scratch[level] = new NodeScratch(layout);
        }
        return scratch[level];
    }

    private Messages group(final int level) {
        if (groups[level] == null) {
            groups[level] = new Messages(bufferCapacity);
        }
        return groups[level];
    }

    private NewSiblings siblings(final int level) {
        if (siblings[level] == null) {
            siblings[level] = new NewSiblings();
        }
        return siblings[level];
    }

    // ------------------------------------------------------------------ bulk append

    /**
     * {@inheritDoc}
     *
     * <p>The run's keys that do not exceed every key ever written (only after the largest keys were removed) go
     * in as upsert messages through the root (top-inserts); the rest is appended to the leaves as in the
     * B+-tree, and the new internal nodes have empty buffers.
     */
    @Override
    public void bulkAppend(final long[] keys, final long[] values, final int from, final int to) {
        ensureOpen();
        checkRun(keys, values, from, to);
        if (from < to && atMemoryBound()) {
            throw memoryBoundReached("bulk-appending " + (to - from) + " entries");
        }
        int i = from;
        while (i < to && mustEnterThroughRoot(keys[i])) {
            put(keys[i], values[i]);
            i++;
        }
        if (i == to) {
            return;
        }
        modCount++;
        appendToLeaves(keys, values, i, to);
        largestKey = keys[to - 1];
        nonEmpty = true;
        writtenCeiling = keys[to - 1];
        written = true;
        leafEntries += to - i;
        bulkLoadedEntries += to - i;
    }

    /**
     * Whether {@code key} (above the largest key) may meet a buffered message (a delete of a key that was the
     * largest), a dead leaf entry, or a leaf left of the right-most one: then only the root can take it. Every
     * message, leaf entry and pivot is at or below the largest key ever written.
     */
    private boolean mustEnterThroughRoot(final long key) {
        return written && key <= writtenCeiling;
    }

    private void appendToLeaves(final long[] keys, final long[] values, final int from, final int to) {
        int i = from;
        // SWARE §III bulk loading: top up the tail leaf to the fill factor, then fill fresh right-most leaves.
        final Node tail = leaf.wrap(rightSpine[0]);
        final int tailCount = tail.count();
        final int room = Math.min(bulkLeafFill - tailCount, to - i);
        if (room > 0) {
            tail.writeEntries(tailCount, keys, values, i, room);
            tail.setCount(tailCount + room);
            i += room;
        }
        while (i < to) {
            final int n = Math.min(bulkLeafFill, to - i);
            final long page = arena.allocate();
            leafCount++;
            leaf.initLeaf(page).writeEntries(0, keys, values, i, n);
            leaf.setCount(n);
            appendToSpine(1, keys[i], page);
            rightSpine[0] = page;
            i += n;
        }
    }

    /**
     * Adds {@code child} (whose smallest key is {@code separator}) as the right-most child at {@code level}. No
     * buffered message is at or above {@code separator}, so the spine's messages keep their children.
     */
    private void appendToSpine(final int level, final long separator, final long child) {
        if (level == height) {
            final NewSiblings split = siblings(height - 1);
            split.clear();
            split.add(separator, child);
            growRoot(split);
            return;
        }
        final BeNode spine = spineNode.wrap(rightSpine[level]);
        final int count = spine.pivotCount();
        if (count < bulkInternalFill) {
            spine.setPivot(count, separator);
            spine.setSplit(count, spine.messageCount()); // no message reaches the new separator
            spine.setChild(count + 1, child);
            spine.setPivotCount(count + 1);
            return;
        }
        // The spine node is filled to the fill factor: start a new right-most node, its buffer empty.
        final long page = arena.allocate();
        internalCount++;
        spineNode.init(page, child);
        appendToSpine(level + 1, separator, page);
        rightSpine[level] = page;
    }

    /**
     * Sets the leaf and internal split ratio from now on (SWARE §III split factor; the SWARE buffer adapts it per
     * flush): how a leaf receiving more than it holds is cut and where a node with too many pivots splits.
     * Internal buffers are not affected (§V).
     */
    @Override
    public void splitRatio(final double ratio) {
        ensureOpen();
        SplitRatio.validate("splitRatio", ratio);
        leafSplitPiece = SplitRatio.leftCount(leafCapacity + 1, ratio, 1, 1);
        internalSplitRatio = ratio;
    }

    @Override
    public int bulkLeafEntries() {
        return bulkLeafFill;
    }

    // ------------------------------------------------------------------ navigation, for cursors and tests

    long root() {
        return root;
    }

    int height() {
        return height;
    }

    long rightSpine(final int level) {
        return rightSpine[level];
    }

    BeNodeDescriptor layout() {
        return layout;
    }

    int leafCapacity() {
        return leafCapacity;
    }

    long leafEntries() {
        return leafEntries;
    }

    long messagesBuffered() {
        return messagesBuffered;
    }

    boolean written() {
        return written;
    }

    long writtenCeiling() {
        return writtenCeiling;
    }

    // ------------------------------------------------------------------ lifecycle and statistics

    @Override
    public IndexStats stats() {
        ensureOpen();
        final IndexStats.Builder stats = treeStats(size(), height)
                .counter(DELETE_MESSAGES, deleteMessages)
                .counter(MESSAGES_BUFFERED, messagesBuffered)
                .counter(MESSAGES_FLUSHED, messagesFlushed)
                .counter(MESSAGES_APPLIED, messagesApplied);
        long flushes = 0;
        int topLevel = height - 1;
        for (int level = 1; level < MAX_HEIGHT; level++) {
            flushes += nodeFlushes[level];
            if (nodeFlushes[level] > 0) {
                topLevel = Math.max(topLevel, level);
            }
        }
        stats.counter(NODE_FLUSHES, flushes);
        for (int level = 1; level <= topLevel; level++) {
            stats.counter(NODE_FLUSHES_LEVEL + level, nodeFlushes[level]);
        }
        return finishStats(stats.counter(MAX_PIVOTS, layout.maxPivots)
                .counter(NODE_BUFFER_CAPACITY, bufferCapacity), leafEntries, leafCapacity);
    }

    @Override
    protected String shape() {
        return "height=" + height + ", messagesBuffered=" + messagesBuffered;
    }
}
