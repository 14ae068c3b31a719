package io.nearsort.core.betree;

import java.util.Arrays;

/**
 * An internal node being flushed, on the heap: its pivots, children and buffer, which may outgrow a page while
 * the flush runs (messages arriving from the parent, children splitting). The flush brings it back within a page
 * before writing it, splitting it into several nodes if it holds too many pivots. One per level, owned by the
 * tree's writer.
 */
final class NodeScratch {
    long[] pivots;
    long[] children;
    int pivotCount;
    /** The buffer, with the incoming messages merged in. */
    final Messages messages;
    /** The node's own buffer as loaded, before the merge. */
    private final Messages spare;
    /** Set when this node has one child and the last flush left that child's subtree empty. */
    boolean onlyChildEmpty;
    /** The message range of the child {@link #childWithMostMessages()} chose. */
    int groupFrom;
    int groupTo;

    NodeScratch(final BeNodeDescriptor layout) {
        this.pivots = new long[layout.maxPivots + 1];
        this.children = new long[layout.maxPivots + 2];
        this.messages = new Messages(2 * layout.bufferCapacity);
        this.spare = new Messages(2 * layout.bufferCapacity);
    }

    /** Loads the node {@code node} views, then merges {@code incoming} (newer) into its buffer. */
    int load(final BeNode node, final Messages incoming) {
        pivotCount = node.pivotCount();
        ensurePivotCapacity(pivotCount);
        node.read(pivots, children, spare);
        final int replaced = Messages.merge(spare, incoming, messages);
        onlyChildEmpty = false;
        return replaced;
    }

    /** Starts a new root over {@code child}: no pivot, no message. */
    void loadRoot(final long child) {
        pivotCount = 0;
        children[0] = child;
        messages.count = 0;
        onlyChildEmpty = false;
    }

    /**
     * The child receiving the most messages (the flush target of Bender et al. [8]); its messages are
     * {@code [groupFrom, groupTo)}.
     */
    int childWithMostMessages() {
        int best = 0;
        int start = 0;
        groupFrom = 0;
        groupTo = -1;
        for (int c = 0; c <= pivotCount; c++) {
            final int end = c < pivotCount ? messages.lowerBound(pivots[c], start) : messages.count;
            if (end - start > groupTo - groupFrom) {
                best = c;
                groupFrom = start;
                groupTo = end;
            }
            start = end;
        }
        return best;
    }

    /** Inserts the siblings a flush split child {@code c} into after it. */
    void insertSiblings(final int c, final NewSiblings siblings) {
        final int n = siblings.count;
        if (n == 0) {
            return;
        }
        ensurePivotCapacity(pivotCount + n);
        System.arraycopy(pivots, c, pivots, c + n, pivotCount - c);
        System.arraycopy(children, c + 1, children, c + 1 + n, pivotCount - c);
        System.arraycopy(siblings.separators, 0, pivots, c, n);
        System.arraycopy(siblings.pages, 0, children, c + 1, n);
        pivotCount += n;
    }

    /**
     * Removes child {@code c} and a pivot beside it, so that a neighbour takes over its key range; the node has
     * more than one child.
     */
    void removeChild(final int c) {
        final int pivot = c == 0 ? 0 : c - 1;
        System.arraycopy(pivots, pivot + 1, pivots, pivot, pivotCount - pivot - 1);
        System.arraycopy(children, c + 1, children, c, pivotCount - c);
        pivotCount--;
    }

    private void ensurePivotCapacity(final int count) {
        if (pivots.length < count) {
            final int grown = Math.max(count, pivots.length * 2);
            pivots = Arrays.copyOf(pivots, grown);
            children = Arrays.copyOf(children, grown + 1);
        }
    }
}
