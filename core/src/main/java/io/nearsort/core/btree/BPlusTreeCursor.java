package io.nearsort.core.btree;

import io.nearsort.core.AbstractLongCursor;

/**
 * A {@link LongCursor} over a {@link BPlusTree}: a (leaf, slot) position walking the leaf chain. When the tree's
 * key set changed since the cursor last moved, the position may be stale (splits move entries), so the next
 * move re-seeks from the remembered key.
 */
final class BPlusTreeCursor extends AbstractLongCursor {
    private final BPlusTree tree;
    private final Node leaf;
    private long leafPage;
    private int slot;
    private long expectedModCount;

    BPlusTreeCursor(final BPlusTree tree) {
        this.tree = tree;
        this.leaf = tree.newFlyweight();
    }

    @Override
    public boolean seekCeiling(final long target) {
        tree.ensureOpen();
        leafPage = tree.findLeaf(target, leaf);
        leaf.wrap(leafPage);
        return settleForward(leaf.lowerBound(target));
    }

    @Override
    public boolean seekFloor(final long target) {
        tree.ensureOpen();
        leafPage = tree.findLeaf(target, leaf);
        leaf.wrap(leafPage);
        return settleBackward(leaf.upperBound(target) - 1);
    }

    @Override
    public boolean seekFirst() {
        tree.ensureOpen();
        leafPage = tree.firstLeaf(leaf);
        leaf.wrap(leafPage);
        return settleForward(0);
    }

    @Override
    public boolean seekLast() {
        tree.ensureOpen();
        leafPage = tree.lastLeaf();
        leaf.wrap(leafPage);
        return settleBackward(leaf.count() - 1);
    }

    @Override
    public boolean next() {
        requirePositioned();
        tree.ensureOpen();
        if (expectedModCount != tree.modCount) {
            return seekHigher(key());
        }
        leaf.wrap(leafPage);
        return settleForward(slot + 1);
    }

    @Override
    public boolean previous() {
        requirePositioned();
        tree.ensureOpen();
        if (expectedModCount != tree.modCount) {
            return seekLower(key());
        }
        leaf.wrap(leafPage);
        return settleBackward(slot - 1);
    }

    @Override
    protected void ensureOpen() {
        tree.ensureOpen();
    }

    /** Positions on slot {@code pos} of the current leaf, or the first entry after it along the chain. */
    private boolean settleForward(final int pos) {
        int p = pos;
        while (p >= leaf.count()) {
            final long next = leaf.next();
            if (next == 0) {
                return unposition();
            }
            leafPage = next;
            leaf.wrap(next);
            p = 0;
        }
        return position(p);
    }

    /** Positions on slot {@code pos} of the current leaf, or the last entry before it along the chain. */
    private boolean settleBackward(final int pos) {
        int p = pos;
        while (p < 0) {
            final long prev = leaf.prev();
            if (prev == 0) {
                return unposition();
            }
            leafPage = prev;
            leaf.wrap(prev);
            p = leaf.count() - 1;
        }
        return position(p);
    }

    private boolean position(final int p) {
        slot = p;
        expectedModCount = tree.modCount;
        return position(leaf.key(p), leaf.slot(p));
    }
}
