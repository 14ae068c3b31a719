package io.nearsort.ldi.projection;

import java.util.Arrays;
import java.util.List;

/**
 * The rows of a projection waiting in LDI's main buffer (§2), by slot: the slot is the row reference the bucketizer
 * carries, so a bucket the LDI writes gathers its rows by index into typed columns, without boxing. A slot's numbers
 * (LONG values, DOUBLE values as their bits) lie side by side in one {@code long[]}, its strings side by side in
 * one {@code String[]}: appending a row writes one contiguous stretch however many columns the projection has (the
 * slots a written bucket frees are scattered, and one array per column would cost a cache miss per value).
 * Slots are reused through a free stack; the arrays grow when the buffer (or the training prefix) holds more rows
 * than they have slots.
 *
 * <p>Not thread-safe: the projection store guards it. Memory: the arrays, on the heap; {@link #bytes()} estimates
 * what the rows held take, strings included, for the store's memory budget.
 */
final class PendingColumns {
    /** A string's bytes beyond its characters: object and array headers, alignment (an upper bound). */
    static final int STRING_OVERHEAD = 48;

    private final ProjectionLayout layout;
    private final List<Column> columns;
    /** Per projection column: its place among the slot's numbers or among its strings. */
    private final int[] place;
    private final int numbers;
    private final int strings;
    private final int keyPlace;
    private final boolean doubleKey;
    private final int fixedRowBytes;
    private long[] numeric;
    private String[] texts;
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
        this.place = new int[columns.size()];
        int n = 0;
        int s = 0;
        for (int c = 0; c < place.length; c++) {
            place[c] = isNumber(c) ? n++ : s++;
        }
        this.numbers = n;
        this.strings = s;
        this.keyPlace = place[layout.keyColumn()];
        this.doubleKey = layout.keyType() == ColumnType.DOUBLE;
        this.fixedRowBytes = fixedRowBytes(layout);
        grow(1024);
    }

    private boolean isNumber(final int c) {
        final ColumnType t = columns.get(c).type();
        return t == ColumnType.LONG || t == ColumnType.DOUBLE;
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
        numeric = numeric == null ? new long[capacity * numbers] : Arrays.copyOf(numeric, capacity * numbers);
        texts = texts == null ? new String[capacity * strings] : Arrays.copyOf(texts, capacity * strings);
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
        final int nb = slot * numbers;
        final int sb = slot * strings;
        for (int c = 0; c < place.length; c++) {
            final Object v = row[layout.schemaPosition(c)];
            switch (columns.get(c).type()) {
                case LONG -> numeric[nb + place[c]] = (Long) v;
                case DOUBLE -> numeric[nb + place[c]] = Double.doubleToRawLongBits((Double) v);
                default -> {
                    texts[sb + place[c]] = (String) v;
                    stringBytes += stringBytes((String) v);
                }
            }
        }
        finishAdd(slot, rowId);
        return slot;
    }

    /**
     * Stores rows {@code [from, to)} of a checked batch as rows {@code firstRowId, …}; their slots go to
     * {@code slots}.
     */
    void add(final long firstRowId, final ColumnBatch batch, final int from, final int to, final int[] slots) {
        final int n = to - from;
        final long[][] longs = new long[place.length][];
        final double[][] doubles = new double[place.length][];
        final String[][] text = new String[place.length][];
        final int[] longPlace = new int[place.length];
        final int[] doublePlace = new int[place.length];
        final int[] textPlace = new int[place.length];
        int nl = 0;
        int nd = 0;
        int ns = 0;
        for (int c = 0; c < place.length; c++) {
            final Object source = batch.column(layout.schemaPosition(c));
            switch (columns.get(c).type()) {
                case LONG -> {
                    longs[nl] = (long[]) source;
                    longPlace[nl++] = place[c];
                }
                case DOUBLE -> {
                    doubles[nd] = (double[]) source;
                    doublePlace[nd++] = place[c];
                }
                default -> {
                    text[ns] = (String[]) source;
                    textPlace[ns++] = place[c];
                }
            }
        }
        for (int i = 0; i < n; i++) {
            final int slot = slot();
            slots[i] = slot;
            final int row = from + i;
            final int nb = slot * numbers;
            for (int k = 0; k < nl; k++) {
                numeric[nb + longPlace[k]] = longs[k][row];
            }
            for (int k = 0; k < nd; k++) {
                numeric[nb + doublePlace[k]] = Double.doubleToRawLongBits(doubles[k][row]);
            }
            final int sb = slot * strings;
            for (int k = 0; k < ns; k++) {
                final String s = text[k][row];
                texts[sb + textPlace[k]] = s;
                stringBytes += stringBytes(s);
            }
            finishAdd(slot, firstRowId + i);
        }
    }

    private void finishAdd(final int slot, final long rowId) {
        final long v = numeric[slot * numbers + keyPlace];
        keys[slot] = doubleKey ? KeyCodec.ofDouble(Double.longBitsToDouble(v)) : v;
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

    /** The rows in {@code slots}, column by column. */
    private Object[] gather(final long[] slots, final int n) {
        final Object[] out = new Object[place.length];
        for (int c = 0; c < place.length; c++) {
            final int p = place[c];
            switch (columns.get(c).type()) {
                case LONG -> {
                    final long[] col = new long[n];
                    for (int i = 0; i < n; i++) {
                        col[i] = numeric[(int) slots[i] * numbers + p];
                    }
                    out[c] = col;
                }
                case DOUBLE -> {
                    final double[] col = new double[n];
                    for (int i = 0; i < n; i++) {
                        col[i] = Double.longBitsToDouble(numeric[(int) slots[i] * numbers + p]);
                    }
                    out[c] = col;
                }
                default -> {
                    final String[] col = new String[n];
                    for (int i = 0; i < n; i++) {
                        col[i] = texts[(int) slots[i] * strings + p];
                    }
                    out[c] = col;
                }
            }
        }
        return out;
    }

    private void release(final int slot) {
        final int sb = slot * strings;
        for (int k = 0; k < strings; k++) {
            stringBytes -= stringBytes(texts[sb + k]);
            texts[sb + k] = null;
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
