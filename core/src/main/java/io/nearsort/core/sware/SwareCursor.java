package io.nearsort.core.sware;

import io.nearsort.core.AbstractLongCursor;

/**
 * A {@link io.nearsort.core.LongCursor} over a {@link SortednessAwareIndex}. Each move is one merged seek from the
 * current key under the index's shared lock, so the cursor never holds a lock between calls and always reflects
 * the index at the moment of the move.
 */
final class SwareCursor extends AbstractLongCursor {
    private final SortednessAwareIndex index;
    private final long[] entry = new long[2];

    SwareCursor(final SortednessAwareIndex index) {
        this.index = index;
    }

    @Override
    public boolean seekCeiling(final long key) {
        return index.seek(key, true, entry) ? position(entry[0], entry[1]) : unposition();
    }

    @Override
    public boolean seekFloor(final long key) {
        return index.seek(key, false, entry) ? position(entry[0], entry[1]) : unposition();
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
    protected void ensureOpen() {
        index.ensureOpen();
    }
}
