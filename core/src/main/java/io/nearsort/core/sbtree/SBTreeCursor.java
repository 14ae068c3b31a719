package io.nearsort.core.sbtree;

import io.nearsort.core.AbstractLongCursor;
import io.nearsort.core.LongCursor;

/**
 * A {@link LongCursor} over an {@link SBTree}. Each move reflects the index at the moment of the move, with the
 * guarantees of the index's scans, and the cursor holds no block between calls. A seek is a scan of one entry (or
 * a walk back for the floor). Recent keys live in the segmented block, which must be merged to be read; a seek
 * that lands there keeps the merge ({@link CursorSnapshot}), and {@link #next()} and {@link #previous()} step
 * through it while the block is unchanged, checked by reading its slots: walking {@code S} recent entries costs
 * one merge, not {@code S}. A write to the block, or a conversion, makes the next step seek again.
 */
final class SBTreeCursor extends AbstractLongCursor {
    private final SBTree tree;
    /** Where the index's seeks and steps write the entry they land on: key, value. */
    private final long[] entry = new long[2];
    private final CursorSnapshot snapshot;
    /** Moves that sought from the index rather than stepping in the snapshot (tests). */
    private long seeks;

    SBTreeCursor(final SBTree tree) {
        this.tree = tree;
        this.snapshot = new CursorSnapshot(tree.perThreadBlockDescriptor());
    }

    @Override
    protected void ensureOpen() {
        tree.ensureOpen();
    }

    @Override
    public boolean seekCeiling(final long key) {
        seeks++;
        return settle(tree.seekCeiling(key, entry, snapshot));
    }

    @Override
    public boolean seekFloor(final long key) {
        seeks++;
        return settle(tree.seekFloor(key, entry, snapshot));
    }

    @Override
    public boolean next() {
        final long key = key();
        return tree.stepInSnapshot(snapshot, 1, entry) ? settle(true) : seekHigher(key);
    }

    @Override
    public boolean previous() {
        final long key = key();
        return tree.stepInSnapshot(snapshot, -1, entry) ? settle(true) : seekLower(key);
    }

    private boolean settle(final boolean found) {
        return found ? position(entry[0], entry[1]) : unposition();
    }

    long seeks() {
        return seeks;
    }
}
