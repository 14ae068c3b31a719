package io.nearsort.core.betree;

import io.nearsort.core.IndexStats;
import io.nearsort.core.btree.Node;
import org.agrona.UnsafeApi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Checks every structural invariant of a {@link BeTree}: pivots, messages and leaf keys strictly ascending within
 * the bounds the ancestors' pivots give, node capacities, message kinds, all leaves at one depth, empty leaves only
 * as a root or an only child, every key at or below the written ceiling, the right spine, and the counters of
 * leaves, internal nodes, buffered messages and leaf entries.
 */
final class BeTreeValidator {
    private final BeTree tree;
    private final BeNodeDescriptor layout;
    private long leaves;
    private long internals;
    private long messages;
    private long entries;

    private BeTreeValidator(final BeTree tree) {
        this.tree = tree;
        this.layout = tree.layout();
    }

    static void check(final BeTree tree) {
        new BeTreeValidator(tree).run();
    }

    private void run() {
        visit(tree.root(), tree.height() - 1, false, 0, false, 0, true);
        final IndexStats stats = tree.stats();
        assertEquals(stats.leafCount(), leaves, "leafCount");
        assertEquals(stats.internalNodeCount(), internals, "internalNodeCount");
        assertEquals(tree.messagesBuffered(), messages, "messagesBuffered");
        assertEquals(stats.counter(BeTree.MESSAGES_BUFFERED), messages, "messagesBuffered counter");
        assertEquals(tree.leafEntries(), entries, "entries counted in leaves");
        long page = tree.root();
        for (int level = tree.height() - 1; level >= 1; level--) {
            assertEquals(page, tree.rightSpine(level), "right spine at level " + level);
            page = BeNode.childAt(layout, page, BeNode.pivotCountAt(page));
        }
        assertEquals(page, tree.rightSpine(0), "right spine at the leaves");
    }

    private void visit(final long page, final int level, final boolean hasLow, final long low, final boolean hasHigh,
                       final long high, final boolean onlyChild) {
        final int kind = UnsafeApi.getInt(page + BeNodeDescriptor.KIND_OFFSET);
        if (level == 0) {
            assertEquals(1, kind, "a leaf at level 0");
            final int count = Node.countAt(page);
            assertTrue(count <= tree.leafCapacity(), "leaf count " + count);
            assertTrue(count > 0 || onlyChild, "an empty leaf is the root or an only child");
            long previous = 0;
            for (int i = 0; i < count; i++) {
                final long key = Node.keyAt(page, i);
                checkKey("leaf key", key, i > 0, previous, hasLow, low, hasHigh, high);
                previous = key;
            }
            leaves++;
            entries += count;
            return;
        }
        assertEquals(BeNodeDescriptor.KIND_INTERNAL, kind, "an internal node above level 0");
        internals++;
        final int pivots = BeNode.pivotCountAt(page);
        assertTrue(pivots >= 0 && pivots <= layout.maxPivots, "pivot count " + pivots);
        final long[] keys = new long[pivots];
        for (int i = 0; i < pivots; i++) {
            keys[i] = BeNode.pivotAt(layout, page, i);
            checkKey("pivot at level " + level, keys[i], i > 0, i > 0 ? keys[i - 1] : 0, hasLow, low, hasHigh, high);
        }
        final int count = BeNode.messageCountAt(page);
        assertTrue(count >= 0 && count <= layout.bufferCapacity, "message count " + count);
        long previous = 0;
        for (int i = 0; i < count; i++) {
            final long key = BeNode.messageKeyAt(layout, page, i);
            checkKey("message at level " + level, key, i > 0, previous, hasLow, low, hasHigh, high);
            final byte messageKind = BeNode.messageKindAt(layout, page, i);
            assertTrue(messageKind == BeNodeDescriptor.UPSERT || messageKind == BeNodeDescriptor.DELETE,
                    "message kind " + messageKind);
            previous = key;
        }
        messages += count;
        for (int i = 0; i < pivots; i++) {
            int firstAtOrAbove = 0;
            while (firstAtOrAbove < count && BeNode.messageKeyAt(layout, page, firstAtOrAbove) < keys[i]) {
                firstAtOrAbove++;
            }
            assertEquals(firstAtOrAbove, BeNode.splitAt(layout, page, i), "split of pivot " + i + " at level " + level);
        }
        for (int c = 0; c <= pivots; c++) {
            visit(BeNode.childAt(layout, page, c), level - 1, c > 0 || hasLow, c > 0 ? keys[c - 1] : low,
                    c < pivots || hasHigh, c < pivots ? keys[c] : high, pivots == 0);
        }
    }

    private void checkKey(final String what, final long key, final boolean hasPrevious, final long previous,
                          final boolean hasLow, final long low, final boolean hasHigh, final long high) {
        if (hasPrevious && key <= previous) {
            fail(what + " " + key + " does not follow " + previous);
        }
        if (hasLow && key < low) {
            fail(what + " " + key + " below its range's bound " + low);
        }
        if (hasHigh && key >= high) {
            fail(what + " " + key + " not below its range's bound " + high);
        }
        assertTrue(tree.written() && key <= tree.writtenCeiling(), what + " " + key + " above the written ceiling");
    }
}
