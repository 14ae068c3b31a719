package io.nearsort.core.sbtree;

import io.nearsort.core.LongCursor;

/**
 * A {@link LongCursor} over an {@link SBTree}. Each move reflects the index at the moment of the move, with the
 * guarantees of the index's scans, and the cursor holds no block between calls. A seek is a scan of one entry (or
 * a walk back for the floor). Recent keys live in the segmented block, which must be merged to be read; a seek
 * that lands there keeps the merge ({@link CursorSnapshot}), and {@link #next()} and {@link #previous()} step
 * through it while the block is unchanged, checked by reading its slots: walking {@code S} recent entries costs
 * one merge, not {@code S}. A write to the block, or a conversion, makes the next step seek again.
 */
final class SBTreeCursor implements LongCursor {
    private final SBTree tree;
    private final long[] entry = new long[2];
    private final CursorSnapshot snapshot;
    private boolean positioned;
    /** Moves that sought from the index rather than stepping in the snapshot (tests). */
    private long seeks;

    SBTreeCursor(final SBTree tree) {
        this.tree = tree;
        this.snapshot = new CursorSnapshot(tree.perThreadBlockDescriptor());
    }

    @Override
    public boolean seekCeiling(final long key) {
        seeks++;
        return positioned = tree.seekCeiling(key, entry, snapshot);
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
        seeks++;
        return positioned = tree.seekFloor(key, entry, snapshot);
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
        final long key = key();
        return tree.stepInSnapshot(snapshot, 1, entry) || seekHigher(key);
    }

    @Override
    public boolean previous() {
        final long key = key();
        return tree.stepInSnapshot(snapshot, -1, entry) || seekLower(key);
    }

    long seeks() {
        return seeks;
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
