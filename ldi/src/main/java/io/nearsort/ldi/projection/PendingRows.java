package io.nearsort.ldi.projection;

import java.util.Arrays;

/**
 * The rows of a projection waiting in LDI's main buffer (§2), by slot: the slot is the row reference the
 * bucketizer carries, so a written bucket finds its rows by index, without hashing. Slots are reused through a
 * free stack and the table grows when the buffer (or the training prefix) holds more rows than it has slots.
 * Not thread-safe: the projection store guards it.
 */
final class PendingRows {
    /** Receives a pending row. */
    @FunctionalInterface
    interface RowVisitor {
        void row(long rowId, Object[] values);
    }

    private Object[][] values = new Object[1024][];
    private long[] rowIds = new long[1024];
    private int[] free = new int[1024];
    private int freeCount;
    private int used;
    private int size;

    /** Stores a row; returns its slot. */
    int add(final long rowId, final Object[] row) {
        final int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (used == values.length) {
                values = Arrays.copyOf(values, used * 2);
                rowIds = Arrays.copyOf(rowIds, used * 2);
                free = Arrays.copyOf(free, used * 2);
            }
            slot = used++;
        }
        values[slot] = row;
        rowIds[slot] = rowId;
        size++;
        return slot;
    }

    long rowId(final int slot) {
        return rowIds[slot];
    }

    /** Removes and returns the row in {@code slot}. */
    Object[] remove(final int slot) {
        final Object[] row = values[slot];
        if (row == null) {
            throw new IllegalStateException("slot " + slot + " holds no pending row");
        }
        values[slot] = null;
        free[freeCount++] = slot;
        size--;
        return row;
    }

    /** Visits every pending row. */
    void forEach(final RowVisitor visitor) {
        for (int slot = 0; slot < used; slot++) {
            if (values[slot] != null) {
                visitor.row(rowIds[slot], values[slot]);
            }
        }
    }

    int size() {
        return size;
    }
}
