package io.nearsort.core.sbtree;

import io.nearsort.core.memory.PageArena;

/**
 * The search layer (SB-Tree §III-A, §IV-C): a B+-tree over the low fences of the data blocks, whose leaves point
 * into the data layer. It answers {@code FindBlock(SearchLayer, key)} of Algorithms 1–3: a data block at or
 * before the one holding {@code key}, from which a short walk along the data layer finds it.
 *
 * <h2>ROWEX</h2>
 * One thread writes (§III-F: "allowing only a single dedicated thread to insert data into the tree"); readers
 * take no lock and never retry. The blocks a conversion creates have ascending fences above every indexed one,
 * so the tree is built bottom-up by appending to its right-most search blocks (§III-A): an append writes the
 * entry, then publishes the block's new count with a release store, so "the intermediate process of adding new
 * data is invisible to reader threads" (§III-F). Entries of blocks split off by delayed inserts land in the
 * middle, and entries of blocks unlinked after deletes leave: those changes copy the search blocks on the path
 * (copy-on-write, splitting a full one) and link the copies with one release store of a child pointer or of the
 * root; the replaced blocks are retired through {@link EpochReclamation}. Appended search blocks are filled
 * completely, which keeps the tree compact (§V-G, Table 1).
 *
 * <p>Readers: any thread, inside an epoch. Writer methods ({@link #insert}, {@link #remove}): the search-layer
 * thread only.
 */
final class SearchLayer {
    private static final int MAX_HEIGHT = 32;

    private final SearchBlockDescriptor d;
    private final PageArena arena;
    private final EpochReclamation reclamation;
    private volatile long root;
    private volatile int publishedHeight;
    private volatile long searchBlocks;
    private volatile long entries;

    // Writer state.
    private int height;
    private final long[] rightSpine = new long[MAX_HEIGHT];
    private final long[] pathNodes = new long[MAX_HEIGHT];
    private final int[] pathSlots = new int[MAX_HEIGHT];
    private long lastKey;
    private final long[] scratchKeys;
    private final long[] scratchChildren;

    /** A search layer with one entry: {@code Long.MIN_VALUE} to the first data block. */
    SearchLayer(final SearchBlockDescriptor d, final PageArena arena, final EpochReclamation reclamation,
                final long firstDataBlock) {
        this.d = d;
        this.arena = arena;
        this.reclamation = reclamation;
        this.scratchKeys = new long[d.capacity + 1];
        this.scratchChildren = new long[d.capacity + 1];
        scratchKeys[0] = Long.MIN_VALUE;
        scratchChildren[0] = firstDataBlock;
        final long leaf = build(0, 0, 1);
        this.height = 1;
        this.publishedHeight = 1;
        this.rightSpine[0] = leaf;
        this.lastKey = Long.MIN_VALUE;
        this.entries = 1;
        this.root = leaf;
    }

    // ------------------------------------------------------------------ readers

    /** {@code FindBlock}: the data block of the last indexed fence {@code <= key}. */
    long find(final long key) {
        long node = root;
        while (true) {
            final int slot = SearchBlockDescriptor.route(node, d.count(node), key);
            if (slot < 0) {
                // Routed by a separator the writer has raised since (its subtree's smallest entry left): the
                // raised one, visible now that this block is, routes further left. The root's first key is MIN.
                node = root;
                continue;
            }
            final long child = d.child(node, slot);
            if (SearchBlockDescriptor.level(node) == 0) {
                return child;
            }
            node = child;
        }
    }

    int height() {
        return publishedHeight;
    }

    /** The root search block (tests walk the tree from it). */
    long root() {
        return root;
    }

    SearchBlockDescriptor descriptor() {
        return d;
    }

    long searchBlocks() {
        return searchBlocks;
    }

    long entries() {
        return entries;
    }

    // ------------------------------------------------------------------ writer (search-layer thread)

    /** Indexes data block {@code block} under its low fence {@code key}. */
    void insert(final long key, final long block) {
        if (key > lastKey) {
            append(key, block);
            return;
        }
        descend(key);
        final long leaf = pathNodes[0];
        final int slot = pathSlots[0];
        if (SearchBlockDescriptor.key(leaf, slot) == key) {
            d.setChild(leaf, slot, block);
            return;
        }
        final int pos = SearchBlockDescriptor.key(leaf, slot) < key ? slot + 1 : slot;
        copyWithInsert(0, pos, key, block, -1, 0L);
        entries++;
        afterCopy();
    }

    /**
     * Removes the entry of {@code block} under {@code key}.
     *
     * @return false when there is no such entry
     */
    boolean remove(final long key, final long block) {
        if (key == Long.MIN_VALUE) {
            return false; // the first data block is never unlinked
        }
        descend(key);
        final long leaf = pathNodes[0];
        final int slot = pathSlots[0];
        if (SearchBlockDescriptor.key(leaf, slot) != key || d.child(leaf, slot) != block) {
            return false;
        }
        copyWithout(0, slot);
        entries--;
        collapseRoot();
        afterCopy();
        return true;
    }

    /** ROWEX append at the right edge: write the entry, then publish the count (§III-F). */
    private void append(final long key, final long block) {
        appendAt(0, key, block);
        lastKey = key;
        entries++;
    }

    private void appendAt(final int level, final long key, final long child) {
        if (level == height) {
            // A new root over the old one and the new right-most block.
            final long oldRoot = root;
            scratchKeys[0] = SearchBlockDescriptor.key(oldRoot, 0);
            scratchChildren[0] = oldRoot;
            scratchKeys[1] = key;
            scratchChildren[1] = child;
            final long newRoot = build(level, 0, 2);
            rightSpine[level] = newRoot;
            height++;
            root = newRoot;
            publishedHeight = height;
            return;
        }
        final long node = rightSpine[level];
        final int count = d.count(node);
        if (count < d.capacity) {
            SearchBlockDescriptor.setKey(node, count, key);
            d.setChild(node, count, child);
            SearchBlockDescriptor.publishCount(node, count + 1);
            return;
        }
        scratchKeys[0] = key;
        scratchChildren[0] = child;
        final long fresh = build(level, 0, 1);
        appendAt(level + 1, key, fresh);
        rightSpine[level] = fresh;
    }

    private void descend(final long key) {
        long node = root;
        for (int level = height - 1; level >= 0; level--) {
            final int slot = Math.max(0, SearchBlockDescriptor.route(node, d.count(node), key));
            pathNodes[level] = node;
            pathSlots[level] = slot;
            if (level > 0) {
                node = d.child(node, slot);
            }
        }
    }

    /**
     * Replaces the search block on the path at {@code level} by a copy with {@code (key, child)} inserted at
     * {@code pos} and, when {@code replaceSlot >= 0}, child {@code replaceSlot} replaced by {@code replacement};
     * a full block splits in two and the split goes up the path.
     */
    private void copyWithInsert(final int level, final int pos, final long key, final long child,
                                final int replaceSlot, final long replacement) {
        final long node = pathNodes[level];
        final int count = d.count(node);
        int n = 0;
        for (int i = 0; i <= count; i++) {
            if (i == pos) {
                scratchKeys[n] = key;
                scratchChildren[n++] = child;
            }
            if (i < count) {
                scratchKeys[n] = SearchBlockDescriptor.key(node, i);
                scratchChildren[n++] = i == replaceSlot ? replacement : d.child(node, i);
            }
        }
        if (n <= d.capacity) {
            link(level, build(level, 0, n));
            reclamation.retire(node);
            searchBlocks--;
            return;
        }
        final int leftCount = n / 2;
        final long left = build(level, 0, leftCount);
        final long right = build(level, leftCount, n - leftCount);
        reclamation.retire(node);
        searchBlocks--;
        if (level + 1 == height) {
            scratchKeys[0] = SearchBlockDescriptor.key(left, 0);
            scratchChildren[0] = left;
            scratchKeys[1] = SearchBlockDescriptor.key(right, 0);
            scratchChildren[1] = right;
            final long newRoot = build(level + 1, 0, 2);
            height++;
            root = newRoot;
            publishedHeight = height;
            return;
        }
        final int parentSlot = pathSlots[level + 1];
        copyWithInsert(level + 1, parentSlot + 1, SearchBlockDescriptor.key(right, 0), right, parentSlot, left);
    }

    /**
     * Replaces the search block on the path at {@code level} by a copy without entry {@code slot}; a block left
     * without entries leaves its parent instead.
     */
    private void copyWithout(final int level, final int slot) {
        final long node = pathNodes[level];
        final int count = d.count(node);
        if (count == 1) {
            if (level + 1 == height) {
                throw new IllegalStateException("the search layer's root lost its last entry");
            }
            reclamation.retire(node);
            searchBlocks--;
            copyWithout(level + 1, pathSlots[level + 1]);
            return;
        }
        if (slot == 0) {
            raiseSeparators(level + 1, SearchBlockDescriptor.key(node, 1));
        }
        int n = 0;
        for (int i = 0; i < count; i++) {
            if (i != slot) {
                scratchKeys[n] = SearchBlockDescriptor.key(node, i);
                scratchChildren[n++] = d.child(node, i);
            }
        }
        link(level, build(level, 0, n));
        reclamation.retire(node);
        searchBlocks--;
    }

    /**
     * Keeps every separator equal to the smallest key below it when a subtree's smallest entry leaves: readers
     * route a key by the last separator at or below it, which must lead to an entry at or below the key. Each
     * separator is raised in place, before the entry goes: a reader routed by the raised one lands on an
     * earlier block and walks the data layer.
     */
    private void raiseSeparators(final int fromLevel, final long smallest) {
        for (int level = fromLevel; level < height; level++) {
            SearchBlockDescriptor.raiseKey(pathNodes[level], pathSlots[level], smallest);
            if (pathSlots[level] != 0) {
                return;
            }
        }
    }

    /** A root with a single child gives way to it, so deletes shrink the tree's height. */
    private void collapseRoot() {
        while (height > 1) {
            final long r = root;
            if (d.count(r) != 1) {
                return;
            }
            root = d.child(r, 0);
            height--;
            publishedHeight = height;
            reclamation.retire(r);
            searchBlocks--;
        }
    }

    /** Points the parent of the path's block at {@code level} (or the root) at {@code replacement}. */
    private void link(final int level, final long replacement) {
        if (level + 1 == height) {
            root = replacement;
        } else {
            d.setChild(pathNodes[level + 1], pathSlots[level + 1], replacement);
        }
    }

    /** A fresh search block holding scratch entries {@code [from, from + n)}, published. */
    private long build(final int level, final int from, final int n) {
        final long node = arena.allocate();
        SearchBlockDescriptor.format(node, level);
        for (int i = 0; i < n; i++) {
            SearchBlockDescriptor.setKey(node, i, scratchKeys[from + i]);
            d.setChild(node, i, scratchChildren[from + i]);
        }
        SearchBlockDescriptor.publishCount(node, n);
        searchBlocks++;
        return node;
    }

    /** After a copy-on-write: the right spine and the largest key from the current tree. */
    private void afterCopy() {
        long node = root;
        for (int level = height - 1; level >= 0; level--) {
            rightSpine[level] = node;
            if (level > 0) {
                node = d.child(node, d.count(node) - 1);
            }
        }
        final long leaf = rightSpine[0];
        lastKey = SearchBlockDescriptor.key(leaf, d.count(leaf) - 1);
    }
}
