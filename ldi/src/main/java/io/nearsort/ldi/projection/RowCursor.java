package io.nearsort.ldi.projection;

import io.nearsort.core.sortedness.StableMergeSort;
import io.nearsort.ldi.commit.BucketEntry;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The rows of a range query on one projection, streamed in key order (equal keys by row id) in bounded memory
 * ({@link ColumnStore#scan}). Use it like a JDBC result set, and close it:
 *
 * <pre>{@code
 * try (RowCursor c = store.scan("by_time", from, to, "time", "amount")) {
 *     while (c.next()) {
 *         consume(c.getLong(0), c.getDouble(1));
 *     }
 * }
 * }</pre>
 *
 * <p>How: LDI's buckets are only approximately sorted, and a bucket's key span may overlap many others (§3.3), so
 * rows cannot be emitted as buckets are read. The cursor works in passes: each pass reads, in order of their low
 * keys, the buckets that may hold rows after the last one emitted, and keeps the {@code W} smallest of them (W =
 * {@link ColumnStoreOptions#cursorWindowRows}) — when 2W are held, it keeps the W smallest and from then on ignores
 * rows and buckets beyond the W-th. The pass then emits its rows in order. Memory: at most 2W rows of the requested
 * columns and a group of buckets being decoded, whatever the range. The price is that a bucket spanning many
 * windows is read once per pass it overlaps; maintenance (§3.3), which makes buckets narrow, makes that rare.
 *
 * <p>A snapshot: the cursor returns the rows appended before it was opened — rows on disk, in buckets being written
 * and in the main buffer — whatever is appended, maintained or reclaimed meanwhile; it keeps the segment files it
 * reads from being deleted until it is closed or exhausted. Not thread-safe: one thread reads a cursor (any number
 * of cursors and queries may run beside the appending thread). Memory: on the heap, within the store's memory
 * budget.
 */
public final class RowCursor implements AutoCloseable {
    /** Buckets read from disk in one request set. */
    static final int READ_GROUP = 16;

    private record Source(long low, long high, BucketEntry entry, StoredBucket block) {
    }

    private final ColumnStore store;
    private final ProjectionStore projection;
    private final ProjectionStore.Snapshot snapshot;
    private final List<Column> columns = new ArrayList<>();
    private final String[] names;
    private final int[] wanted;
    private final long lo;
    private final long hi;
    private final int window;
    private final long reservedBytes;
    private final Source[] sources;
    private long[] keys;
    private long[] ids;
    private Object[] values;
    private int size;
    private int[] order;
    private int emitCount;
    private int emitPos = -1;
    private int current = -1;
    private boolean hasLast;
    private long lastKey;
    private long lastRow;
    private boolean exhausted;
    private boolean released;
    private boolean closed;
    private long passes;
    private long bucketsRead;
    private long rowsScanned;
    private long rowsReturned;
    private int peakRows;

    RowCursor(final ColumnStore store, final ProjectionStore projection, final long lo, final long hi,
              final String[] names, final int window, final long reservedBytes) throws IOException {
        this.store = store;
        this.projection = projection;
        this.lo = lo;
        this.hi = hi;
        this.names = names.clone();
        this.window = window;
        this.reservedBytes = reservedBytes;
        final ProjectionLayout layout = projection.layout();
        this.wanted = layout.positions(names);
        for (int w : wanted) {
            columns.add(layout.columns().get(w));
        }
        this.snapshot = lo <= hi ? projection.snapshot(lo, hi) : new ProjectionStore.Snapshot(List.of(), List.of());
        final List<Source> list = new ArrayList<>();
        for (BucketEntry e : snapshot.onDisk()) {
            list.add(new Source(e.low(), e.high(), e, null));
        }
        for (StoredBucket b : snapshot.inMemory()) {
            list.add(new Source(b.low, b.high, null, b));
        }
        list.sort(Comparator.comparingLong(Source::low));
        this.sources = list.toArray(new Source[0]);
        this.exhausted = lo > hi;
    }

    /** Bytes a cursor of {@code window} rows over {@code columns} columns holds at most (before strings). */
    static long windowBytes(final int window, final int columns) {
        return 2L * window * (16 + 8L * columns);
    }

    /**
     * Moves to the next row; false when there is none (the cursor then releases what it holds).
     *
     * @return true when the cursor is on a row; false when the rows are exhausted
     * @throws IOException if reading a bucket fails
     */
    public boolean next() throws IOException {
        ensureOpen();
        if (released) {
            return false;
        }
        while (true) {
            if (emitPos + 1 < emitCount) {
                current = order[++emitPos];
                rowsReturned++;
                return true;
            }
            current = -1;
            if (exhausted) {
                release();
                return false;
            }
            pass();
        }
    }

    private boolean skip(final Source s) {
        return s.high < lo || s.low > hi || (hasLast && s.high < lastKey);
    }

    /** One pass: gathers the W smallest rows after the last emitted, then orders them for emission. */
    private void pass() throws IOException {
        passes++;
        allocate();
        size = 0;
        boolean bounded = false;
        long boundKey = hi;
        long boundRow = Long.MAX_VALUE;
        int i = 0;
        while (i < sources.length) {
            final Source s = sources[i];
            if (s.low > boundKey) {
                break; // sorted by low: no later source reaches back into the window
            }
            if (skip(s)) {
                i++;
                continue;
            }
            final List<StoredBucket> blocks = new ArrayList<>();
            if (s.block != null) {
                blocks.add(s.block);
                i++;
            } else {
                final List<BucketEntry> group = new ArrayList<>();
                while (i < sources.length && group.size() < READ_GROUP && sources[i].block == null
                        && sources[i].low <= boundKey) {
                    if (!skip(sources[i])) {
                        group.add(sources[i].entry);
                    }
                    i++;
                }
                blocks.addAll(projection.read(group));
                bucketsRead += group.size();
            }
            for (StoredBucket b : blocks) {
                rowsScanned += b.count;
                for (int r = 0; r < b.count; r++) {
                    final long k = b.keys[r];
                    if (k < lo || k > hi) {
                        continue;
                    }
                    final long id = b.rowIds[r];
                    if (hasLast && compare(k, id, lastKey, lastRow) <= 0 || compare(k, id, boundKey, boundRow) > 0) {
                        continue;
                    }
                    add(b, r);
                    if (size == 2 * window) {
                        keepSmallest(window);
                        bounded = true;
                        boundKey = keys[window - 1];
                        boundRow = ids[window - 1];
                    }
                }
            }
        }
        if (size > window) {
            keepSmallest(window);
            bounded = true;
        }
        order = StableMergeSort.order(keys, ids, size);
        emitCount = size;
        emitPos = -1;
        if (size > 0) {
            hasLast = true;
            lastKey = keys[order[size - 1]];
            lastRow = ids[order[size - 1]];
        }
        exhausted = !bounded;
    }

    private static int compare(final long k1, final long r1, final long k2, final long r2) {
        final int c = Long.compare(k1, k2);
        return c != 0 ? c : Long.compare(r1, r2);
    }

    private void allocate() {
        if (keys != null) {
            return;
        }
        final int capacity = 2 * window;
        keys = new long[capacity];
        ids = new long[capacity];
        values = new Object[columns.size()];
        for (int c = 0; c < values.length; c++) {
            values[c] = switch (columns.get(c).type()) {
                case LONG -> new long[capacity];
                case DOUBLE -> new double[capacity];
                case FIXED_STRING, VAR_STRING -> new String[capacity];
            };
        }
    }

    private void add(final StoredBucket b, final int r) {
        keys[size] = b.keys[r];
        ids[size] = b.rowIds[r];
        for (int c = 0; c < values.length; c++) {
            final Object from = b.columns[wanted[c]];
            switch (columns.get(c).type()) {
                case LONG -> ((long[]) values[c])[size] = ((long[]) from)[r];
                case DOUBLE -> ((double[]) values[c])[size] = ((double[]) from)[r];
                default -> ((String[]) values[c])[size] = ((String[]) from)[r];
            }
        }
        size++;
        peakRows = Math.max(peakRows, size);
    }

    /** Keeps the {@code n} smallest rows of the window, in order, at its front. */
    private void keepSmallest(final int n) {
        final int[] o = StableMergeSort.order(keys, ids, size);
        keys = permute(keys, o, n);
        ids = permute(ids, o, n);
        for (int c = 0; c < values.length; c++) {
            final Object v = values[c];
            if (v instanceof long[] l) {
                values[c] = permute(l, o, n);
            } else if (v instanceof double[] d) {
                final double[] out = new double[d.length];
                for (int i = 0; i < n; i++) {
                    out[i] = d[o[i]];
                }
                values[c] = out;
            } else {
                final String[] s = (String[]) v;
                final String[] out = new String[s.length];
                for (int i = 0; i < n; i++) {
                    out[i] = s[o[i]];
                }
                values[c] = out;
            }
        }
        size = n;
    }

    private static long[] permute(final long[] a, final int[] o, final int n) {
        final long[] out = new long[a.length];
        for (int i = 0; i < n; i++) {
            out[i] = a[o[i]];
        }
        return out;
    }

    private int row() {
        if (current < 0) {
            throw new IllegalStateException("the cursor is not on a row: call next() first (and check it returned"
                    + " true)");
        }
        return current;
    }

    /**
     * The position of requested column {@code name} among the cursor's columns.
     *
     * @param name the name of a column the cursor was asked for
     * @return its position among the requested columns, from 0
     */
    public int column(final String name) {
        for (int c = 0; c < names.length; c++) {
            if (names[c].equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("column " + name + " was not requested by the cursor "
                + List.of(names));
    }

    /**
     * The columns the cursor returns, in the order requested.
     *
     * @return the columns, unmodifiable
     */
    public List<Column> columns() {
        return List.copyOf(columns);
    }

    /**
     * The current row's ordered key (a DOUBLE key mapped by {@link KeyCodec#ofDouble}).
     *
     * @return the ordered key
     */
    public long key() {
        return keys[row()];
    }

    /**
     * The current row's id ({@link ColumnStore#append}'s return value).
     *
     * @return the row id
     */
    public long rowId() {
        return ids[row()];
    }

    /**
     * LONG column {@code c} (position among the requested columns) of the current row.
     *
     * @param c the position of a LONG column among the requested columns, from 0
     * @return its value in the current row
     */
    public long getLong(final int c) {
        return ((long[]) typed(c, ColumnType.LONG))[row()];
    }

    /**
     * DOUBLE column {@code c} of the current row.
     *
     * @param c the position of a DOUBLE column among the requested columns, from 0
     * @return its value in the current row
     */
    public double getDouble(final int c) {
        return ((double[]) typed(c, ColumnType.DOUBLE))[row()];
    }

    /**
     * String column {@code c} of the current row.
     *
     * @param c the position of a FIXED_STRING or VAR_STRING column among the requested columns, from 0
     * @return its value in the current row, not null
     */
    public String getString(final int c) {
        if (!(values[checkColumn(c)] instanceof String[] s)) {
            throw new IllegalArgumentException("column " + names[c] + " is " + columns.get(c).type()
                    + ", not a string column");
        }
        return s[row()];
    }

    /**
     * LONG column {@code name} of the current row.
     *
     * @param name the name of a LONG column the cursor was asked for
     * @return its value in the current row
     */
    public long getLong(final String name) {
        return getLong(column(name));
    }

    /**
     * DOUBLE column {@code name} of the current row.
     *
     * @param name the name of a DOUBLE column the cursor was asked for
     * @return its value in the current row
     */
    public double getDouble(final String name) {
        return getDouble(column(name));
    }

    /**
     * String column {@code name} of the current row.
     *
     * @param name the name of a FIXED_STRING or VAR_STRING column the cursor was asked for
     * @return its value in the current row, not null
     */
    public String getString(final String name) {
        return getString(column(name));
    }

    /**
     * Column {@code c} of the current row, boxed.
     *
     * @param c the position of a column among the requested columns, from 0
     * @return its value in the current row: a Long, Double or String by the column's type
     */
    public Object get(final int c) {
        final Object v = values[checkColumn(c)];
        final int r = row();
        if (v instanceof long[] l) {
            return l[r];
        }
        if (v instanceof double[] d) {
            return d[r];
        }
        return ((String[]) v)[r];
    }

    private int checkColumn(final int c) {
        if (c < 0 || c >= names.length) {
            throw new IllegalArgumentException("column index " + c + " out of range [0, " + names.length + ")");
        }
        row();
        return c;
    }

    private Object typed(final int c, final ColumnType type) {
        checkColumn(c);
        if (columns.get(c).type() != type) {
            throw new IllegalArgumentException("column " + names[c] + " is " + columns.get(c).type() + ", not "
                    + type);
        }
        return values[c];
    }

    /**
     * Rows returned so far.
     *
     * @return the number of rows {@link #next()} moved to
     */
    public long rowsReturned() {
        return rowsReturned;
    }

    /**
     * Bucket reads from disk so far (a bucket read again by a later pass counts again).
     *
     * @return the number of bucket reads
     */
    public long bucketsRead() {
        return bucketsRead;
    }

    /**
     * Rows examined so far, those outside the range or the pass's window included.
     *
     * @return the number of rows examined
     */
    public long rowsScanned() {
        return rowsScanned;
    }

    /**
     * Passes so far.
     *
     * @return the number of passes made, each gathering up to a window of rows
     */
    public long passes() {
        return passes;
    }

    /**
     * The most rows the cursor held at once.
     *
     * @return the peak number of rows held, at most twice the window
     */
    public int peakRows() {
        return peakRows;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the cursor is closed");
        }
        store.ensureOpen();
    }

    private void release() {
        if (!released) {
            released = true;
            current = -1;
            emitCount = 0;
            keys = null;
            ids = null;
            values = null;
            projection.release(snapshot);
            store.releaseMemory(reservedBytes);
        }
    }

    /** Releases the cursor's pins and memory; further calls of {@link #next()} fail. */
    @Override
    public void close() {
        closed = true;
        release();
    }

    @Override
    public String toString() {
        return "RowCursor[" + projection.layout().name() + " [" + lo + ", " + hi + "], " + rowsReturned
                + " rows returned, " + passes + " passes]";
    }
}
