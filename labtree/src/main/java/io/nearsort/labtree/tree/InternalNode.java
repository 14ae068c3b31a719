package io.nearsort.labtree.tree;

import java.nio.ByteBuffer;

/** Static accessors of an internal node page: children with the low bound of their key range. */
final class InternalNode {
    private InternalNode() {
    }

    static int count(final ByteBuffer page) {
        return page.getInt(NodePageDescriptor.COUNT_OFFSET);
    }

    static long low(final ByteBuffer page, final int i) {
        return page.getLong(NodePageDescriptor.INTERNAL_ENTRIES_OFFSET + i * NodePageDescriptor.INTERNAL_ENTRY_LENGTH);
    }

    static long child(final ByteBuffer page, final int i) {
        return page.getLong(NodePageDescriptor.INTERNAL_ENTRIES_OFFSET + i * NodePageDescriptor.INTERNAL_ENTRY_LENGTH
                + Long.BYTES);
    }

    static void set(final ByteBuffer page, final int i, final long low, final long child) {
        final int at = NodePageDescriptor.INTERNAL_ENTRIES_OFFSET + i * NodePageDescriptor.INTERNAL_ENTRY_LENGTH;
        page.putLong(at, low);
        page.putLong(at + Long.BYTES, child);
    }

    /** The child whose range holds {@code key}: the last i with low_i <= key (child 0 covers the node's low end). */
    static int childFor(final ByteBuffer page, final long key) {
        int lo = 1;
        int hi = count(page) - 1;
        int found = 0;
        while (lo <= hi) {
            final int mid = (lo + hi) >>> 1;
            if (low(page, mid) <= key) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** Inserts (low, child) at position i, shifting the rest right. */
    static void insert(final ByteBuffer page, final int i, final long low, final long child) {
        final int count = count(page);
        for (int j = count; j > i; j--) {
            set(page, j, low(page, j - 1), child(page, j - 1));
        }
        set(page, i, low, child);
        page.putInt(NodePageDescriptor.COUNT_OFFSET, count + 1);
    }

    /** Removes entry i, shifting the rest left. */
    static void remove(final ByteBuffer page, final int i) {
        final int count = count(page);
        for (int j = i; j < count - 1; j++) {
            set(page, j, low(page, j + 1), child(page, j + 1));
        }
        page.putInt(NodePageDescriptor.COUNT_OFFSET, count - 1);
    }

    static void init(final ByteBuffer page) {
        page.putInt(NodePageDescriptor.TYPE_OFFSET, NodePageDescriptor.TYPE_INTERNAL);
        page.putInt(NodePageDescriptor.COUNT_OFFSET, 0);
    }
}
