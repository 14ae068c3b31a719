package io.nearsort.core.betree;

import io.nearsort.core.AbstractLongCursor;
import io.nearsort.core.btree.Node;

import static io.nearsort.core.betree.BeNodeDescriptor.DELETE;

/**
 * A {@link io.nearsort.core.LongCursor} over a {@link BeTree}: a merge of the leaves with the messages buffered on
 * the way to them.
 *
 * <p>The cursor keeps a root-to-leaf path and, at every internal level, the position of the next message of that
 * node's buffer; a message and a leaf entry belong to the same key range when the message is inside the current
 * leaf's range, which the path's pivots bound. The next key is the smallest (or largest, moving backwards) among
 * the current leaf's next entry and each level's next message inside that range; for a key present at several
 * levels the highest level's message is the newest and decides it, and a key whose deciding message is a delete
 * is skipped. When the leaf's range is exhausted the path moves to the neighbouring leaf, and the nodes it enters
 * start their message positions at their first (or last) message, while the levels above carry on. Each move
 * costs O(height) when it stays in the leaf, so a scan costs what the leaves and buffers it covers hold.
 *
 * <p>Reads the tree without shared state. When the tree changed since the cursor last moved, the path may be
 * stale, so the next move re-seeks from the remembered key.
 */
final class BeTreeCursor extends AbstractLongCursor {
    private static final int MAX_HEIGHT = 64;

    private final BeTree tree;
    private final BeNodeDescriptor layout;
    private final int leafCapacity;
    /** pages[level]: the path; pages[0] is the leaf. */
    private final long[] pages = new long[MAX_HEIGHT];
    /** childIndex[level]: the child the path takes at an internal level. */
    private final int[] childIndex = new int[MAX_HEIGHT];
    /** position[level]: the next message at an internal level, the next entry at the leaf. */
    private final int[] position = new int[MAX_HEIGHT];
    private int height;
    private boolean ascending;
    /** The current leaf's range bound on the side the cursor moves to, if any: exclusive upper or inclusive lower. */
    private boolean bounded;
    private long bound;
    private long expectedModCount;

    BeTreeCursor(final BeTree tree) {
        this.tree = tree;
        this.layout = tree.layout();
        this.leafCapacity = tree.leafCapacity();
    }

    @Override
    public boolean seekCeiling(final long target) {
        tree.ensureOpen();
        return seek(target, true);
    }

    @Override
    public boolean seekFloor(final long target) {
        tree.ensureOpen();
        return seek(target, false);
    }

    @Override
    public boolean next() {
        requirePositioned();
        tree.ensureOpen();
        return expectedModCount == tree.modCount && ascending ? advance() : seekHigher(key());
    }

    @Override
    public boolean previous() {
        requirePositioned();
        tree.ensureOpen();
        return expectedModCount == tree.modCount && !ascending ? advance() : seekLower(key());
    }

    @Override
    protected void ensureOpen() {
        tree.ensureOpen();
    }

    /** Positions the path on {@code target}'s leaf, each level's message position at the first one to merge. */
    private boolean seek(final long target, final boolean forward) {
        ascending = forward;
        height = tree.height();
        long page = tree.root();
        for (int level = height - 1; level >= 1; level--) {
            pages[level] = page;
            final int c = BeNode.childIndexAt(layout, page, target);
            childIndex[level] = c;
            final int lower = BeNode.messageLowerBoundAt(layout, page, target, c);
            position[level] = forward || (lower < BeNode.messageCountAt(page)
                    && BeNode.messageKeyAt(layout, page, lower) == target) ? lower : lower - 1;
            page = BeNode.childAt(layout, page, c);
        }
        pages[0] = page;
        final int lower = Node.lowerBoundAt(page, target);
        position[0] = forward || (lower < Node.countAt(page) && Node.keyAt(page, lower) == target) ? lower
                : lower - 1;
        computeBound();
        return advance();
    }

    /** Moves to the next live entry in the cursor's direction, from the current positions (the scans' step). */
    boolean advance() {
        while (true) {
            boolean any = false;
            long best = 0;
            int bestLevel = -1;
            final int leafPos = position[0];
            if (ascending ? leafPos < Node.countAt(pages[0]) : leafPos >= 0) {
                best = Node.keyAt(pages[0], leafPos);
                bestLevel = 0;
                any = true;
            }
            for (int level = 1; level < height; level++) {
                if (!hasMessage(level)) {
                    continue;
                }
                final long k = BeNode.messageKeyAt(layout, pages[level], position[level]);
                if (!any || (ascending ? k < best : k > best)) {
                    best = k;
                    bestLevel = level;
                    any = true;
                } else if (k == best) {
                    bestLevel = level; // a higher level's message is newer
                }
            }
            if (!any) {
                if (!moveToNeighbourLeaf()) {
                    return unposition();
                }
                continue;
            }
            final boolean live;
            final long value;
            if (bestLevel == 0) {
                live = true;
                value = Node.slotAt(pages[0], leafCapacity, leafPos);
            } else {
                final int m = position[bestLevel];
                live = BeNode.messageKindAt(layout, pages[bestLevel], m) != DELETE;
                value = BeNode.messageValueAt(layout, pages[bestLevel], m);
            }
            final int step = ascending ? 1 : -1;
            if (leafPos >= 0 && leafPos < Node.countAt(pages[0]) && Node.keyAt(pages[0], leafPos) == best) {
                position[0] += step;
            }
            for (int level = 1; level < height; level++) {
                if (hasMessage(level) && BeNode.messageKeyAt(layout, pages[level], position[level]) == best) {
                    position[level] += step;
                }
            }
            if (live) {
                expectedModCount = tree.modCount;
                return position(best, value);
            }
        }
    }

    /** Whether {@code level}'s next message exists and lies in the current leaf's range. */
    private boolean hasMessage(final int level) {
        final int m = position[level];
        final long page = pages[level];
        if (ascending ? m >= BeNode.messageCountAt(page) : m < 0) {
            return false;
        }
        if (!bounded) {
            return true;
        }
        final long k = BeNode.messageKeyAt(layout, page, m);
        return ascending ? k < bound : k >= bound;
    }

    /**
     * Moves the path to the next (or previous) leaf: up to the lowest level where the path can turn, one child
     * over, then down the near edge. Nodes entered start at their first (or last) message.
     */
    private boolean moveToNeighbourLeaf() {
        int level = 1;
        while (level < height && (ascending ? childIndex[level] >= BeNode.pivotCountAt(pages[level])
                : childIndex[level] == 0)) {
            level++;
        }
        if (level >= height) {
            return false;
        }
        childIndex[level] += ascending ? 1 : -1;
        long page = BeNode.childAt(layout, pages[level], childIndex[level]);
        for (int below = level - 1; below >= 1; below--) {
            pages[below] = page;
            final int c = ascending ? 0 : BeNode.pivotCountAt(page);
            childIndex[below] = c;
            position[below] = ascending ? 0 : BeNode.messageCountAt(page) - 1;
            page = BeNode.childAt(layout, page, c);
        }
        pages[0] = page;
        position[0] = ascending ? 0 : Node.countAt(page) - 1;
        computeBound();
        return true;
    }

    /**
     * The current leaf's range bound in the moving direction: the pivot beside the path's child at the lowest
     * level that has one (ranges nest, so the lowest is the tightest).
     */
    private void computeBound() {
        bounded = false;
        for (int level = 1; level < height; level++) {
            final int c = childIndex[level];
            if (ascending ? c < BeNode.pivotCountAt(pages[level]) : c > 0) {
                bounded = true;
                bound = BeNode.pivotAt(layout, pages[level], ascending ? c : c - 1);
                return;
            }
        }
    }
}
