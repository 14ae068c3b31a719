package io.nearsort.core.sbtree;

import io.nearsort.core.LongCursor;

/**
 * A {@link LongCursor} over an {@link SBTree}. Each move is one seek from the current key (a scan of one entry,
 * or a walk back for the floor), so the cursor holds no block between calls and reflects the index at the
 * moment of the move, with the guarantees of the index's scans.
 */
final class SBTreeCursor implements LongCursor {
    private final SBTree tree;
    private final long[] entry = new long[2];
    private boolean positioned;

    SBTreeCursor(final SBTree tree) {
        this.tree = tree;
    }

    @Override
    public boolean seekCeiling(final long key) {
        return positioned = tree.seekCeiling(key, entry);
    }

    @Override
    public boolean seekHigher(final long key) {
        if (key == Long.MAX_VALUE) {
            tree.ensureOpen();
            return positioned = false;
        }
        return seekCeiling(key + 1);
    }

    @Override
    public boolean seekFloor(final long key) {
        return positioned = tree.seekFloor(key, entry);
    }

    @Override
    public boolean seekLower(final long key) {
        if (key == Long.MIN_VALUE) {
            tree.ensureOpen();
            return positioned = false;
        }
        return seekFloor(key - 1);
    }

    @Override
    public boolean seekFirst() {
        return seekCeiling(Long.MIN_VALUE);
    }

    @Override
    public boolean seekLast() {
        return seekFloor(Long.MAX_VALUE);
    }

    @Override
    public boolean next() {
        return seekHigher(key());
    }

    @Override
    public boolean previous() {
        return seekLower(key());
    }

    @Override
    public boolean isPositioned() {
        return positioned;
    }

    @Override
    public long key() {
        requirePositioned();
        return entry[0];
    }

    @Override
    public long value() {
        requirePositioned();
        return entry[1];
    }

    private void requirePositioned() {
        if (!positioned) {
            throw new IllegalStateException("cursor is not positioned on an entry");
        }
    }
}
