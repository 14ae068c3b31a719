package io.nearsort.ldi.projection;

import java.util.Arrays;
import java.util.List;

/**
 * The rows of a projection waiting in LDI's main buffer (§2), stored column by column in slots: one typed array per
 * projection column ({@code long[]}, {@code double[]}, {@code String[]}), plus each row's ordered key and row id.
 * The slot is the row reference the bucketizer carries, so a bucket the LDI writes gathers its rows by index into
 * typed columns without boxing. Slots are reused through a free stack; the arrays grow when the buffer (or the
 * training prefix) holds more rows than they have slots.
 *
 * <p>Not thread-safe: the projection store guards it. Memory: the arrays, on the heap; {@link #bytes()} estimates
 * what the rows held take, strings included, for the store's memory budget.
 */
final class PendingColumns {
    /** A string's bytes beyond its characters: object and array headers, alignment (an upper bound). */
    static final int STRING_OVERHEAD = 48;

    private final ProjectionLayout layout;
    private final List<Column> columns;
    private final int keyColumn;
    private final boolean doubleKey;
    private final int fixedRowBytes;
    private Object[] values;
    private long[] keys;
    private long[] rowIds;
    private int[] free;
    private int freeCount;
    private int used;
    private int size;
    private long stringBytes;

    PendingColumns(final ProjectionLayout layout) {
        this.layout = layout;
        this.columns = layout.columns();
        this.keyColumn = layout.keyColumn();
        this.doubleKey = layout.keyType() == ColumnType.DOUBLE;
        this.fixedRowBytes = fixedRowBytes(layout);
        grow(1024);
    }

    /** Heap bytes a row of {@code layout} takes here besides its strings: key, row id and a slot per column. */
    static int fixedRowBytes(final ProjectionLayout layout) {
        return 16 + 8 * layout.columns().size();
    }

    /** Heap bytes a row takes here besides its strings. */
    int fixedRowBytes() {
        return fixedRowBytes;
    }

    private void grow(final int capacity) {
        final Object[] next = new Object[columns.size()];
        for (int c = 0; c < next.length; c++) {
            next[c] = switch (columns.get(c).type()) {
                case LONG -> values == null ? new long[capacity] : Arrays.copyOf((long[]) values[c], capacity);
                case DOUBLE -> values == null ? new double[capacity] : Arrays.copyOf((double[]) values[c], capacity);
                case FIXED_STRING, VAR_STRING -> values == null ? new String[capacity]
                        : Arrays.copyOf((String[]) values[c], capacity);
            };
        }
        values = next;
        keys = keys == null ? new long[capacity] : Arrays.copyOf(keys, capacity);
        rowIds = rowIds == null ? new long[capacity] : Arrays.copyOf(rowIds, capacity);
        free = free == null ? new int[capacity] : Arrays.copyOf(free, capacity);
    }

    private int slot() {
        if (freeCount > 0) {
            return free[--freeCount];
        }
        if (used == keys.length) {
            grow(used * 2);
        }
        return used++;
    }

    /** Stores row {@code rowId} of a checked row (values in schema order); returns its slot. */
    int add(final long rowId, final Object[] row) {
        final int slot = slot();
        for (int c = 0; c < values.length; c++) {
            final Object v = row[layout.schemaPosition(c)];
            switch (columns.get(c).type()) {
                case LONG -> ((long[]) values[c])[slot] = (Long) v;
                case DOUBLE -> ((double[]) values[c])[slot] = (Double) v;
                default -> {
                    ((String[]) values[c])[slot] = (String) v;
                    stringBytes += stringBytes((String) v);
                }
            }
        }
        finishAdd(slot, rowId);
        return slot;
    }

    /** Stores row {@code i} of a checked batch as row {@code rowId}; returns its slot. */
    int add(final long rowId, final ColumnBatch batch, final int i) {
        final int slot = slot();
        for (int c = 0; c < values.length; c++) {
            final Object source = batch.column(layout.schemaPosition(c));
            switch (columns.get(c).type()) {
                case LONG -> ((long[]) values[c])[slot] = ((long[]) source)[i];
                case DOUBLE -> ((double[]) values[c])[slot] = ((double[]) source)[i];
                default -> {
                    final String s = ((String[]) source)[i];
                    ((String[]) values[c])[slot] = s;
                    stringBytes += stringBytes(s);
                }
            }
        }
        finishAdd(slot, rowId);
        return slot;
    }

    private void finishAdd(final int slot, final long rowId) {
        keys[slot] = doubleKey ? KeyCodec.ofDouble(((double[]) values[keyColumn])[slot])
                : ((long[]) values[keyColumn])[slot];
        rowIds[slot] = rowId;
        size++;
    }

    /** An estimate of the heap bytes of string {@code s}. */
    static long stringBytes(final String s) {
        return STRING_OVERHEAD + 2L * s.length();
    }

    long key(final int slot) {
        return keys[slot];
    }

    /**
     * Removes the rows in {@code slots} (in that order) and returns them as one block, typed column by column: the
     * bucket the LDI wrote. {@code keys} are the rows' ordered keys, as the bucketizer reports them.
     */
    StoredBucket take(final long[] slots, final long[] keys, final long intervalLow, final long intervalHigh,
                      final boolean compacted) {
        final int n = slots.length;
        final long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = rowIds[(int) slots[i]];
        }
        final Object[] block = gather(slots, n);
        for (int i = 0; i < n; i++) {
            release((int) slots[i]);
        }
        return new StoredBucket(keys, ids, block, intervalLow, intervalHigh, compacted);
    }

    private Object[] gather(final long[] slots, final int n) {
        final Object[] out = new Object[values.length];
        // Column by column, so each inner loop has one type.
        for (int c = 0; c < values.length; c++) {
            switch (columns.get(c).type()) {
                case LONG -> {
                    final long[] src = (long[]) values[c];
                    final long[] col = new long[n];
                    for (int i = 0; i < n; i++) {
                        col[i] = src[(int) slots[i]];
                    }
                    out[c] = col;
                }
                case DOUBLE -> {
                    final double[] src = (double[]) values[c];
                    final double[] col = new double[n];
                    for (int i = 0; i < n; i++) {
                        col[i] = src[(int) slots[i]];
                    }
                    out[c] = col;
                }
                default -> {
                    final String[] src = (String[]) values[c];
                    final String[] col = new String[n];
                    for (int i = 0; i < n; i++) {
                        col[i] = src[(int) slots[i]];
                    }
                    out[c] = col;
                }
            }
        }
        return out;
    }

    private void release(final int slot) {
        for (int c = 0; c < values.length; c++) {
            if (values[c] instanceof String[] s) {
                stringBytes -= stringBytes(s[slot]);
                s[slot] = null;
            }
        }
        rowIds[slot] = -1;
        free[freeCount++] = slot;
        size--;
    }

    /** The pending rows with keys in {@code [lo, hi]}, copied into one block (null when there are none). */
    StoredBucket copyInRange(final long lo, final long hi) {
        int n = 0;
        long[] slots = new long[16];
        for (int slot = 0; slot < used; slot++) {
            if (rowIds[slot] >= 0 && keys[slot] >= lo && keys[slot] <= hi) {
                if (n == slots.length) {
                    slots = Arrays.copyOf(slots, n * 2);
                }
                slots[n++] = slot;
            }
        }
        if (n == 0) {
            return null;
        }
        final long[] k = new long[n];
        final long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = keys[(int) slots[i]];
            ids[i] = rowIds[(int) slots[i]];
        }
        final Object[] block = gather(slots, n);
        return new StoredBucket(k, ids, block, lo, hi, false);
    }

    int size() {
        return size;
    }

    /** Estimated heap bytes of the rows held (slots of free rows excluded). */
    long bytes() {
        return (long) size * fixedRowBytes + stringBytes;
    }
}
