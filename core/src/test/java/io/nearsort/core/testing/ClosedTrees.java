package io.nearsort.core.testing;

import io.nearsort.core.LongCursor;
import io.nearsort.core.btree.PagedTree;

import java.util.NavigableMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The close contract of the trees: every byte freed, close idempotent, every later call refused. */
public final class ClosedTrees {
    private ClosedTrees() {
    }

    /** Closes {@code tree} (twice) and asserts the contract, for its view and a cursor taken before too. */
    public static void closeAndAssertUnusable(final PagedTree tree) {
        assertTrue(tree.bytesInUse() > 0);
        final NavigableMap<Long, Long> view = tree.asNavigableMap();
        final LongCursor cursor = tree.cursor();
        tree.close();
        tree.close();
        assertEquals(0, tree.bytesInUse());
        assertEquals(0, tree.bytesAllocated());
        assertThrows(IllegalStateException.class, () -> tree.put(1, 1));
        assertThrows(IllegalStateException.class, () -> tree.getOrDefault(1, 1));
        assertThrows(IllegalStateException.class, () -> tree.containsKey(1));
        assertThrows(IllegalStateException.class, () -> tree.getAll(new long[1], new long[1], 0, 1, 0));
        assertThrows(IllegalStateException.class, () -> tree.remove(1));
        assertThrows(IllegalStateException.class, () -> tree.forEachInRange(1, 2, (k, v) -> { }));
        assertThrows(IllegalStateException.class, tree::size);
        assertThrows(IllegalStateException.class, tree::isEmpty);
        assertThrows(IllegalStateException.class, tree::lastKey);
        assertThrows(IllegalStateException.class, tree::stats);
        assertThrows(IllegalStateException.class, tree::cursor);
        assertThrows(IllegalStateException.class, tree::asNavigableMap);
        assertThrows(IllegalStateException.class, cursor::seekFirst);
        assertThrows(IllegalStateException.class, () -> cursor.seekHigher(Long.MAX_VALUE));
        assertThrows(IllegalStateException.class, () -> view.get(1L));
        assertThrows(IllegalStateException.class, () -> tree.bulkAppend(new long[1], new long[1], 0, 1));
    }
}
