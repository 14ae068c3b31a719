package io.nearsort.core.sware;

import io.nearsort.core.LongCursor;

/**
 * A {@link LongCursor} over a {@link SortednessAwareIndex}. Each move is one merged seek from the current key
 * under the index's shared lock, so the cursor never holds a lock between calls and always reflects the index
 * at the moment of the move.
 */
final class SwareCursor implements LongCursor {
    private final SortednessAwareIndex index;
    private final long[] entry = new long[2];
    private boolean positioned;

    SwareCursor(final SortednessAwareIndex index) {
        this.index = index;
    }

    @Override
    public boolean seekCeiling(final long key) {
        return positioned = index.seek(key, true, entry);
    }

    @Override
    public boolean seekHigher(final long key) {
        if (key == Long.MAX_VALUE) {
            index.ensureOpen();
            return positioned = false;
        }
        return seekCeiling(key + 1);
    }

    @Override
    public boolean seekFloor(final long key) {
        return positioned = index.seek(key, false, entry);
    }

    @Override
    public boolean seekLower(final long key) {
        if (key == Long.MIN_VALUE) {
            index.ensureOpen();
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
