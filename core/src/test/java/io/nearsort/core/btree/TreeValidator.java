package io.nearsort.core.btree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Checks every structural invariant of a {@link BPlusTree}: keys ascending in every node and within the
 * bounds its ancestors' separators give, all leaves at one depth, the leaf chain in both directions equal to
 * the in-order leaves, the right spine, the tail-leaf minimum, the node and entry counts.
 */
final class TreeValidator {
    private final BPlusTree tree;
    private final Node node;
    private long leaves;
    private long internals;
    private long entries;
    private long previousLeaf;
    private final java.util.List<Long> leafOrder = new java.util.ArrayList<>();

    private TreeValidator(final BPlusTree tree) {
        this.tree = tree;
        this.node = tree.newFlyweight();
    }

    static void check(final BPlusTree tree) {
        new TreeValidator(tree).run();
    }

    private void run() {
        final int height = tree.height();
        visit(tree.root(), height - 1, false, 0, false, 0, true);
        assertEquals(tree.size(), entries, "entries counted in leaves");
        assertEquals(tree.stats().leafCount(), leaves, "leafCount");
        assertEquals(tree.stats().internalNodeCount(), internals, "internalNodeCount");
        assertEquals(leafOrder.get(leafOrder.size() - 1), tree.lastLeaf(), "tail leaf is the last leaf");
        // Backward chain equals the in-order leaves reversed.
        long page = tree.lastLeaf();
        for (int i = leafOrder.size() - 1; i >= 0; i--) {
            assertEquals(leafOrder.get(i), page, "backward leaf chain at " + i);
            page = node.wrap(page).prev();
        }
        assertEquals(0L, page, "first leaf has no predecessor");
        // Right spine: the right-most node of each level.
        page = tree.root();
        for (int level = height - 1; level >= 0; level--) {
            assertEquals(page, tree.rightSpine(level), "right spine at level " + level);
            node.wrap(page);
            if (level > 0) {
                page = node.slot(node.count());
            }
        }
        if (height > 1) {
            assertTrue(node.wrap(tree.root()).count() >= 1, "an internal root has at least two children");
        }
    }

    private void visit(final long page, final int level, final boolean hasLow, final long low, final boolean hasHigh,
                       final long high, final boolean rightMost) {
        node.wrap(page);
        final int count = node.count();
        final long[] keys = new long[count];
        for (int i = 0; i < count; i++) {
            keys[i] = node.key(i);
            if (i > 0 && keys[i] <= keys[i - 1]) {
                fail("keys not strictly ascending in node at level " + level);
            }
            if (hasLow && keys[i] < low) {
                fail("key " + keys[i] + " below separator " + low + " at level " + level);
            }
            if (hasHigh && keys[i] >= high) {
                fail("key " + keys[i] + " not below separator " + high + " at level " + level);
            }
        }
        if (level == 0) {
            assertTrue(node.isLeaf(), "node at level 0 is a leaf");
            assertTrue(count > 0 || tree.height() == 1, "only a root leaf may be empty");
            assertEquals(previousLeaf, node.prev(), "leaf prev pointer");
            if (previousLeaf != 0) {
                final Node prev = tree.newFlyweight().wrap(previousLeaf);
                assertEquals(page, prev.next(), "leaf next pointer");
            }
            previousLeaf = page;
            leafOrder.add(page);
            leaves++;
            entries += count;
            if (rightMost) {
                assertEquals(0L, node.next(), "the last leaf has no successor");
            }
            return;
        }
        assertTrue(!node.isLeaf(), "node above level 0 is internal");
        internals++;
        final long[] children = new long[count + 1];
        for (int i = 0; i <= count; i++) {
            children[i] = node.slot(i);
        }
        for (int i = 0; i <= count; i++) {
            final boolean childHasLow = i > 0 || hasLow;
            final long childLow = i > 0 ? keys[i - 1] : low;
            final boolean childHasHigh = i < count || hasHigh;
            final long childHigh = i < count ? keys[i] : high;
            visit(children[i], level - 1, childHasLow, childLow, childHasHigh, childHigh, rightMost && i == count);
        }
    }
}
