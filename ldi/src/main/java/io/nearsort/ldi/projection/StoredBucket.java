package io.nearsort.ldi.projection;

import io.nearsort.core.sortedness.StableMergeSort;
import io.nearsort.ldi.bucketing.KeySpan;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A bucket of one projection in columnar form, and its on-disk encoding: a header
 * {@code [count][low][high][intervalLow][intervalHigh][compacted]}, the row ids, then every column of the
 * projection in order — LONG and DOUBLE as 8-byte values, FIXED_STRING as zero-padded fields of its width,
 * VAR_STRING as {@code count + 1} offsets followed by UTF-8 bytes. The record's checksum is the
 * {@link io.nearsort.ldi.io.RecordFile}'s. The baselines store their sorted runs as blocks of the same encoding.
 */
public final class StoredBucket {
    final int count;
    final long low;
    final long high;
    final long intervalLow;
    final long intervalHigh;
    final boolean compacted;
    final long[] keys;
    final long[] rowIds;
    /** One array per projection column: long[], double[] or String[]. */
    final Object[] columns;

    StoredBucket(final long[] keys, final long[] rowIds, final Object[] columns, final long intervalLow,
                 final long intervalHigh, final boolean compacted) {
        this.count = keys.length;
        this.keys = keys;
        this.rowIds = rowIds;
        this.columns = columns;
        this.intervalLow = intervalLow;
        this.intervalHigh = intervalHigh;
        this.compacted = compacted;
        this.low = KeySpan.min(keys);
        this.high = KeySpan.max(keys);
    }


    /** Turns rows of projected values (boxed, in {@code layout} order) into columns. */
    static Object[] columnsOf(final List<Column> layout, final List<Object[]> rows) {
        final int n = rows.size();
        final Object[] columns = new Object[layout.size()];
        final Object[][] byRow = rows.toArray(new Object[0][]);
        // Column by column, so each inner loop has one type.
        for (int c = 0; c < columns.length; c++) {
            switch (layout.get(c).type()) {
                case LONG -> {
                    final long[] col = new long[n];
                    for (int i = 0; i < n; i++) {
                        col[i] = (Long) byRow[i][c];
                    }
                    columns[c] = col;
                }
                case DOUBLE -> {
                    final double[] col = new double[n];
                    for (int i = 0; i < n; i++) {
                        col[i] = (Double) byRow[i][c];
                    }
                    columns[c] = col;
                }
                default -> {
                    final String[] col = new String[n];
                    for (int i = 0; i < n; i++) {
                        col[i] = (String) byRow[i][c];
                    }
                    columns[c] = col;
                }
            }
        }
        return columns;
    }


    /**
     * A block of rows in arrival order (projected values in {@code layout} order); its interval is its key span.
     *
     * @param layout the projection's columns, in projection order
     * @param keys   the rows' ordered keys, one per row
     * @param rowIds the rows' ids, one per row
     * @param rows   the rows' projected values, one boxed array per row, in {@code layout} order
     * @return a non-compacted block of the rows, in the order given
     */
    public static StoredBucket ofRows(final List<Column> layout, final long[] keys, final long[] rowIds,
                                      final List<Object[]> rows) {
        return new StoredBucket(keys, rowIds, columnsOf(layout, rows), KeySpan.min(keys), KeySpan.max(keys), false);
    }

    /**
     * The block's rows in sorted order: keys ascending, equal keys by row id (a compacted bucket, §3.3).
     *
     * @param layout the block's columns, in their order
     * @param block  the block to sort; not changed
     * @return a new compacted block of the same rows, sorted
     */
    public static StoredBucket sorted(final List<Column> layout, final StoredBucket block) {
        final int[] rows = StableMergeSort.order(block.keys, block.rowIds, block.count);
        return gather(layout, List.of(block), new int[rows.length], rows, rows.length, true);
    }

    /**
     * A block of {@code n} rows: row {@code i} is row {@code rows[i]} of {@code sources.get(from[i])}. Its interval
     * is its own key span.
     *
     * @param layout    the sources' columns, in their order
     * @param sources   the blocks the rows are taken from
     * @param from      for each output row, the index of its block in {@code sources}
     * @param rows      for each output row, its row in that block
     * @param n         rows to gather, at most the length of {@code from} and of {@code rows}
     * @param compacted whether the new block is compacted (§3.3)
     * @return a new block of the {@code n} rows, in the order given
     */
    public static StoredBucket gather(final List<Column> layout, final List<StoredBucket> sources, final int[] from,
                                      final int[] rows, final int n, final boolean compacted) {
        final long[] keys = new long[n];
        final long[] ids = new long[n];
        final StoredBucket[] src = sources.toArray(new StoredBucket[0]);
        for (int i = 0; i < n; i++) {
            keys[i] = src[from[i]].keys[rows[i]];
            ids[i] = src[from[i]].rowIds[rows[i]];
        }
        final int[] all = new int[layout.size()];
        for (int c = 0; c < all.length; c++) {
            all[c] = c;
        }
        final Object[] columns = gatherColumns(layout, all, src, from, rows, n);
        return new StoredBucket(keys, ids, columns, KeySpan.min(keys), KeySpan.max(keys), compacted);
    }

    /**
     * Columns {@code wanted} (positions in the sources) of {@code n} rows: row {@code i} is row {@code rows[i]} of
     * {@code src[from[i]]}; {@code types} are the wanted columns'.
     */
    static Object[] gatherColumns(final List<Column> types, final int[] wanted, final StoredBucket[] src,
                                  final int[] from, final int[] rows, final int n) {
        final Object[] columns = new Object[wanted.length];
        // Column by column, so each inner loop has one type.
        for (int c = 0; c < columns.length; c++) {
            final int w = wanted[c];
            switch (types.get(c).type()) {
                case LONG -> {
                    final long[] col = new long[n];
                    for (int i = 0; i < n; i++) {
                        col[i] = ((long[]) src[from[i]].columns[w])[rows[i]];
                    }
                    columns[c] = col;
                }
                case DOUBLE -> {
                    final double[] col = new double[n];
                    for (int i = 0; i < n; i++) {
                        col[i] = ((double[]) src[from[i]].columns[w])[rows[i]];
                    }
                    columns[c] = col;
                }
                default -> {
                    final String[] col = new String[n];
                    for (int i = 0; i < n; i++) {
                        col[i] = ((String[]) src[from[i]].columns[w])[rows[i]];
                    }
                    columns[c] = col;
                }
            }
        }
        return columns;
    }

    /** Estimated heap bytes of the block (keys, row ids, columns, strings counted as {@link PendingColumns} does). */
    long heapBytes() {
        long bytes = 16L * count;
        for (Object c : columns) {
            if (c instanceof String[] s) {
                for (String v : s) {
                    bytes += 8 + PendingColumns.stringBytes(v);
                }
            } else {
                bytes += 8L * count;
            }
        }
        return bytes;
    }

    /**
     * Rows in the block.
     *
     * @return the number of rows
     */
    public int count() {
        return count;
    }

    /**
     * The smallest key.
     *
     * @return the smallest ordered key of the block's rows
     */
    public long low() {
        return low;
    }

    /**
     * The largest key.
     *
     * @return the largest ordered key of the block's rows
     */
    public long high() {
        return high;
    }

    /**
     * Whether the block is compacted (§3.3): written from one leaf interval, or sorted.
     *
     * @return true for a compacted block
     */
    public boolean compacted() {
        return compacted;
    }

    /**
     * The ordered key of row {@code i}.
     *
     * @param i a row of the block, 0 to {@link #count()} - 1
     * @return the row's ordered key
     */
    public long key(final int i) {
        return keys[i];
    }

    /**
     * The row id of row {@code i}.
     *
     * @param i a row of the block, 0 to {@link #count()} - 1
     * @return the row's id
     */
    public long rowId(final int i) {
        return rowIds[i];
    }

    /**
     * The block's encoding, to be stored as one checksummed record, in a new heap buffer.
     *
     * @param layout the block's columns, in their order
     * @return a new little-endian heap buffer holding the encoding, flipped
     */
    public ByteBuffer encode(final List<Column> layout) {
        final Encoding e = new Encoding(layout);
        return encodeInto(layout, e, ByteBuffer.allocate(e.size).order(ByteOrder.LITTLE_ENDIAN));
    }

    /**
     * The block's encoding written into {@code reuse} when it has room, else into a buffer {@code allocate} gives
     * for the size; returns the buffer, flipped (little-endian). A projection's writer reuses one heap buffer.
     */
    ByteBuffer encode(final List<Column> layout, final ByteBuffer reuse,
                      final java.util.function.IntFunction<ByteBuffer> allocate) {
        final Encoding e = new Encoding(layout);
        final ByteBuffer b = reuse != null && reuse.capacity() >= e.size ? reuse : allocate.apply(e.size);
        b.clear().limit(e.size);
        b.order(ByteOrder.LITTLE_ENDIAN);
        return encodeInto(layout, e, b);
    }

    /** The encoded size and the UTF-8 bytes of VAR_STRING values, computed before the buffer is chosen. */
    private final class Encoding {
        final int size;
        final byte[][][] strings;

        Encoding(final List<Column> layout) {
            int bytes = 4 + 8 * 4 + 1 + 8 * count;
            strings = new byte[layout.size()][][];
            for (int c = 0; c < layout.size(); c++) {
                final Column col = layout.get(c);
                switch (col.type()) {
                    case LONG, DOUBLE -> bytes += 8 * count;
                    case FIXED_STRING -> bytes += col.width() * count;
                    case VAR_STRING -> {
                        strings[c] = new byte[count][];
                        bytes += 4 * (count + 1);
                        for (int i = 0; i < count; i++) {
                            strings[c][i] = ((String[]) columns[c])[i].getBytes(StandardCharsets.UTF_8);
                            bytes += strings[c][i].length;
                        }
                    }
                    default -> throw new AssertionError(col.type());
                }
            }
            size = bytes;
        }
    }

    private ByteBuffer encodeInto(final List<Column> layout, final Encoding e, final ByteBuffer b) {
        b.putInt(count).putLong(low).putLong(high).putLong(intervalLow).putLong(intervalHigh)
                .put((byte) (compacted ? 1 : 0));
        putLongs(b, rowIds, count);
        byte[] scratch = null;
        for (int c = 0; c < layout.size(); c++) {
            final Column col = layout.get(c);
            switch (col.type()) {
                case LONG -> putLongs(b, (long[]) columns[c], count);
                case DOUBLE -> putDoubles(b, (double[]) columns[c], count);
                case FIXED_STRING -> {
                    // Fields of exactly width bytes, zero-padded: built in one array, put in one copy.
                    final int w = col.width();
                    if (scratch == null || scratch.length < w * count) {
                        scratch = new byte[w * count];
                    }
                    java.util.Arrays.fill(scratch, 0, w * count, (byte) 0);
                    final String[] values = (String[]) columns[c];
                    String last = null;
                    byte[] lastBytes = null;
                    for (int i = 0; i < count; i++) {
                        if (values[i] != last) { // repeated values (one instance) are encoded once
                            last = values[i];
                            lastBytes = last.getBytes(StandardCharsets.UTF_8);
                        }
                        System.arraycopy(lastBytes, 0, scratch, i * w, lastBytes.length);
                    }
                    b.put(scratch, 0, w * count);
                }
                case VAR_STRING -> {
                    int offset = 0;
                    b.putInt(offset);
                    for (byte[] s : e.strings[c]) {
                        offset += s.length;
                        b.putInt(offset);
                    }
                    for (byte[] s : e.strings[c]) {
                        b.put(s);
                    }
                }
                default -> throw new AssertionError(col.type());
            }
        }
        return b.flip();
    }

    /** Little-endian views of byte arrays: one intrinsic store or load per value, no per-call bounds re-checks. */
    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.invoke.VarHandle DOUBLES =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

    private static void putLongs(final ByteBuffer b, final long[] v, final int n) {
        if (b.hasArray()) {
            final byte[] a = b.array();
            final int at = b.arrayOffset() + b.position();
            java.util.Objects.checkFromIndexSize(b.position(), 8 * n, b.limit());
            for (int i = 0; i < n; i++) {
                LONGS.set(a, at + 8 * i, v[i]);
            }
        } else {
            b.asLongBuffer().put(v, 0, n);
        }
        b.position(b.position() + 8 * n);
    }

    private static void putDoubles(final ByteBuffer b, final double[] v, final int n) {
        if (b.hasArray()) {
            final byte[] a = b.array();
            final int at = b.arrayOffset() + b.position();
            java.util.Objects.checkFromIndexSize(b.position(), 8 * n, b.limit());
            for (int i = 0; i < n; i++) {
                DOUBLES.set(a, at + 8 * i, v[i]);
            }
        } else {
            b.asDoubleBuffer().put(v, 0, n);
        }
        b.position(b.position() + 8 * n);
    }

    private static void getLongs(final ByteBuffer b, final long[] v) {
        final int n = v.length;
        if (b.hasArray()) {
            final byte[] a = b.array();
            final int at = b.arrayOffset() + b.position();
            java.util.Objects.checkFromIndexSize(b.position(), 8 * n, b.limit());
            for (int i = 0; i < n; i++) {
                v[i] = (long) LONGS.get(a, at + 8 * i);
            }
        } else {
            b.asLongBuffer().get(v);
        }
        b.position(b.position() + 8 * n);
    }

    private static void getDoubles(final ByteBuffer b, final double[] v) {
        final int n = v.length;
        if (b.hasArray()) {
            final byte[] a = b.array();
            final int at = b.arrayOffset() + b.position();
            java.util.Objects.checkFromIndexSize(b.position(), 8 * n, b.limit());
            for (int i = 0; i < n; i++) {
                v[i] = (double) DOUBLES.get(a, at + 8 * i);
            }
        } else {
            b.asDoubleBuffer().get(v);
        }
        b.position(b.position() + 8 * n);
    }


    /**
     * Decodes a verified payload; {@code keyColumn} is the key's position in {@code layout}.
     *
     * @param in        the payload, from its position to its limit; its position is not changed
     * @param layout    the projection's columns, in projection order
     * @param keyColumn the key's position in {@code layout}, a LONG or DOUBLE column
     * @return the decoded block
     * @throws IllegalStateException if the payload does not have the layout's shape
     */
    public static StoredBucket decode(final ByteBuffer in, final List<Column> layout, final int keyColumn) {
        try {
            return decodeChecked(in, layout, keyColumn);
        } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new IllegalStateException("bucket does not decode: it ends early (" + e.getMessage() + ")", e);
        } catch (IllegalArgumentException e) {
            // A value no bucket can hold, such as a NaN key (KeyCodec refuses it).
            throw new IllegalStateException("bucket does not decode: " + e.getMessage(), e);
        }
    }

    private static StoredBucket decodeChecked(final ByteBuffer in, final List<Column> layout, final int keyColumn) {
        final ByteBuffer b = in.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        final int count = b.getInt();
        if (count < 1 || count > b.remaining() / 8) {
            throw new IllegalStateException("bucket row count " + count + " does not fit its record");
        }
        final long low = b.getLong();
        final long high = b.getLong();
        final long intervalLow = b.getLong();
        final long intervalHigh = b.getLong();
        final boolean compacted = b.get() == 1;
        final long[] rowIds = new long[count];
        getLongs(b, rowIds);
        final Object[] columns = new Object[layout.size()];
        for (int c = 0; c < layout.size(); c++) {
            final Column col = layout.get(c);
            switch (col.type()) {
                case LONG -> {
                    final long[] v = new long[count];
                    getLongs(b, v);
                    columns[c] = v;
                }
                case DOUBLE -> {
                    final double[] v = new double[count];
                    getDoubles(b, v);
                    columns[c] = v;
                }
                case FIXED_STRING -> {
                    final String[] v = new String[count];
                    final byte[] field = new byte[col.width()];
                    for (int i = 0; i < count; i++) {
                        b.get(field);
                        int len = field.length;
                        while (len > 0 && field[len - 1] == 0) {
                            len--;
                        }
                        v[i] = new String(field, 0, len, StandardCharsets.UTF_8);
                        if (!roundTrips(v[i], field, len)) {
                            // Bytes that are not UTF-8 decode to replacement characters, which may not fit the
                            // width when the value is written again (a merge).
                            throw new IllegalStateException("row " + i + " of column " + col.name() + " is not"
                                    + " UTF-8 text of at most " + field.length + " bytes");
                        }
                    }
                    columns[c] = v;
                }
                case VAR_STRING -> {
                    if (b.remaining() / 4 < count + 1) {
                        throw new IllegalStateException("bucket ends before the offsets of column " + col.name());
                    }
                    final int[] offsets = new int[count + 1];
                    for (int i = 0; i <= count; i++) {
                        offsets[i] = b.getInt();
                    }
                    // Offsets from the record, not trusted: every string must lie in the bytes that follow them.
                    final int room = b.remaining();
                    for (int i = 0; i <= count; i++) {
                        if ((i == 0 ? offsets[0] != 0 : offsets[i] < offsets[i - 1]) || offsets[i] > room) {
                            throw new IllegalStateException("string offset " + offsets[i] + " of row " + i
                                    + " of column " + col.name() + " out of order or past the bucket's "
                                    + room + " bytes of strings");
                        }
                    }
                    final int base = b.position();
                    final String[] v = new String[count];
                    for (int i = 0; i < count; i++) {
                        final byte[] s = new byte[offsets[i + 1] - offsets[i]];
                        b.get(base + offsets[i], s);
                        v[i] = new String(s, StandardCharsets.UTF_8);
                    }
                    b.position(base + offsets[count]);
                    columns[c] = v;
                }
                default -> throw new AssertionError(col.type());
            }
        }
        final long[] keys = keysOf(columns[keyColumn], layout.get(keyColumn).type(), count);
        final StoredBucket bucket = new StoredBucket(keys, rowIds, columns, intervalLow, intervalHigh, compacted);
        if (bucket.low != low || bucket.high != high || b.hasRemaining()) {
            throw new IllegalStateException("bucket header [" + low + ", " + high + "] disagrees with its keys");
        }
        return bucket;
    }

    /** Whether {@code value}, decoded from {@code bytes[0, len)}, encodes back to exactly those bytes. */
    private static boolean roundTrips(final String value, final byte[] bytes, final int len) {
        for (int i = 0; i < len; i++) {
            if (bytes[i] < 0) {
                final byte[] again = value.getBytes(StandardCharsets.UTF_8);
                return java.util.Arrays.equals(again, 0, again.length, bytes, 0, len);
            }
        }
        return true; // ASCII
    }

    static long[] keysOf(final Object column, final ColumnType type, final int count) {
        if (type == ColumnType.LONG) {
            return Arrays.copyOf((long[]) column, count);
        }
        final double[] d = (double[]) column;
        final long[] keys = new long[count];
        for (int i = 0; i < count; i++) {
            keys[i] = KeyCodec.ofDouble(d[i]);
        }
        return keys;
    }
}
