package io.nearsort.ldi.projection;

import java.util.Objects;

/**
 * Rows in columnar form, for {@link ColumnStore#append(ColumnBatch)}: one array per schema column — {@code long[]}
 * for LONG, {@code double[]} for DOUBLE, {@code String[]} for FIXED_STRING and VAR_STRING — and a row count. No
 * value is boxed: a pipeline fills the arrays (or hands over arrays it already has with {@link #wrap}) and appends
 * them in one call.
 *
 * <pre>{@code
 * ColumnBatch batch = ColumnBatch.allocate(schema, 4096);
 * long[] ids = batch.longs("id");
 * double[] distances = batch.doubles("distance");
 * String[] notes = batch.strings("note");
 * for (...) { ids[n] = ...; distances[n] = ...; notes[n] = ...; n++; }
 * store.append(batch.rows(n));   // the store copies what it keeps: the batch can be refilled at once
 * }</pre>
 *
 * <p>Not thread-safe. Memory: the arrays, on the heap, owned by the batch (or by the caller, for {@link #wrap}).
 */
public final class ColumnBatch {
    private final Schema schema;
    private final Object[] columns;
    private final int capacity;
    private int rows;

    private ColumnBatch(final Schema schema, final Object[] columns, final int capacity, final int rows) {
        this.schema = schema;
        this.columns = columns;
        this.capacity = capacity;
        this.rows = rows;
    }

    /**
     * An empty batch with room for {@code capacity} rows of {@code schema}.
     *
     * @param schema   the columns of the rows, not null
     * @param capacity rows the arrays have room for, at least 0
     * @return a batch of 0 rows, with a new array of {@code capacity} values per column
     */
    public static ColumnBatch allocate(final Schema schema, final int capacity) {
        Objects.requireNonNull(schema, "schema");
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative (got: " + capacity + ")");
        }
        final Object[] columns = new Object[schema.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = switch (schema.columns().get(c).type()) {
                case LONG -> new long[capacity];
                case DOUBLE -> new double[capacity];
                case FIXED_STRING, VAR_STRING -> new String[capacity];
            };
        }
        return new ColumnBatch(schema, columns, capacity, 0);
    }

    /**
     * A batch of the first {@code rows} values of the given arrays, one per schema column in schema order, used in
     * place (not copied).
     *
     * @param schema  the columns of the rows, not null
     * @param rows    rows in the batch, from 0 to the length of the shortest array
     * @param columns one array per schema column, in schema order: {@code long[]} for LONG, {@code double[]} for
     *                DOUBLE, {@code String[]} for FIXED_STRING and VAR_STRING
     * @return a batch over the arrays; its capacity is the length of the shortest
     */
    public static ColumnBatch wrap(final Schema schema, final int rows, final Object... columns) {
        Objects.requireNonNull(schema, "schema");
        if (columns.length != schema.size()) {
            throw new IllegalArgumentException("a batch needs one array per column: " + schema.size() + " (got: "
                    + columns.length + ")");
        }
        if (rows < 0) {
            throw new IllegalArgumentException("rows must not be negative (got: " + rows + ")");
        }
        int capacity = Integer.MAX_VALUE;
        for (int c = 0; c < columns.length; c++) {
            final Column col = schema.columns().get(c);
            final Object a = columns[c];
            final int length = switch (col.type()) {
                case LONG -> a instanceof long[] l ? l.length : -1;
                case DOUBLE -> a instanceof double[] d ? d.length : -1;
                case FIXED_STRING, VAR_STRING -> a instanceof String[] s ? s.length : -1;
            };
            if (length < 0) {
                throw new IllegalArgumentException("column " + col.name() + " of type " + col.type() + " needs a "
                        + arrayType(col.type()) + " (got: " + (a == null ? "null" : a.getClass().getSimpleName())
                        + ")");
            }
            if (length < rows) {
                throw new IllegalArgumentException("column " + col.name() + " has " + length + " values, fewer than"
                        + " the batch's " + rows + " rows");
            }
            capacity = Math.min(capacity, length);
        }
        return new ColumnBatch(schema, columns.clone(), capacity, rows);
    }

    private static String arrayType(final ColumnType type) {
        return switch (type) {
            case LONG -> "long[]";
            case DOUBLE -> "double[]";
            case FIXED_STRING, VAR_STRING -> "String[]";
        };
    }

    /**
     * The schema of the batch's rows.
     *
     * @return the schema the batch was made for
     */
    public Schema schema() {
        return schema;
    }

    /**
     * Rows in the batch.
     *
     * @return the row count, 0 to {@link #capacity()}
     */
    public int rows() {
        return rows;
    }

    /**
     * Sets the row count: the first {@code n} values of every column are the batch. Returns this batch.
     *
     * @param n the row count, 0 to {@link #capacity()}
     * @return this batch
     */
    public ColumnBatch rows(final int n) {
        if (n < 0 || n > capacity) {
            throw new IllegalArgumentException("rows must be in [0, " + capacity + "] (got: " + n + ")");
        }
        rows = n;
        return this;
    }

    /**
     * Rows the arrays have room for.
     *
     * @return the capacity in rows (for a wrapped batch, the length of its shortest array)
     */
    public int capacity() {
        return capacity;
    }

    /** Empties the batch (the arrays keep their values until overwritten). */
    public void clear() {
        rows = 0;
    }

    /**
     * The array of LONG column {@code name}.
     *
     * @param name the name of a LONG column of the schema
     * @return the batch's own array of that column, not a copy
     */
    public long[] longs(final String name) {
        return (long[]) column(name, ColumnType.LONG);
    }

    /**
     * The array of DOUBLE column {@code name}.
     *
     * @param name the name of a DOUBLE column of the schema
     * @return the batch's own array of that column, not a copy
     */
    public double[] doubles(final String name) {
        return (double[]) column(name, ColumnType.DOUBLE);
    }

    /**
     * The array of string column {@code name} (FIXED_STRING or VAR_STRING).
     *
     * @param name the name of a FIXED_STRING or VAR_STRING column of the schema
     * @return the batch's own array of that column, not a copy
     */
    public String[] strings(final String name) {
        final int c = schema.indexOf(name);
        if (!(columns[c] instanceof String[] s)) {
            throw new IllegalArgumentException("column " + name + " is " + schema.columns().get(c).type()
                    + ", not a string column");
        }
        return s;
    }

    /**
     * The array of column {@code c} (schema position): long[], double[] or String[].
     *
     * @param c the column's position in the schema, 0 to the schema's size - 1
     * @return the batch's own array of that column, not a copy
     */
    public Object column(final int c) {
        return columns[c];
    }

    private Object column(final String name, final ColumnType type) {
        final int c = schema.indexOf(name);
        if (schema.columns().get(c).type() != type) {
            throw new IllegalArgumentException("column " + name + " is " + schema.columns().get(c).type() + ", not "
                    + type);
        }
        return columns[c];
    }

    /**
     * Checks every value against its column (no NaN, no null string, fixed widths) before anything is appended:
     * a batch is appended whole or not at all. The message names the column and the row of the batch.
     */
    void check(final Schema expected) {
        if (!schema.columns().equals(expected.columns())) {
            throw new IllegalArgumentException("the batch's schema " + schema.columns() + " is not the store's "
                    + expected.columns());
        }
        for (int c = 0; c < columns.length; c++) {
            final Column col = schema.columns().get(c);
            int i = 0;
            try {
                switch (col.type()) {
                    case DOUBLE -> {
                        final double[] d = (double[]) columns[c];
                        for (; i < rows; i++) {
                            col.checkDouble(d[i]);
                        }
                    }
                    case FIXED_STRING, VAR_STRING -> {
                        final String[] s = (String[]) columns[c];
                        String checked = null;
                        for (; i < rows; i++) {
                            if (s[i] != checked || s[i] == null) { // a repeated value (one instance) is checked once
                                col.checkString(s[i]);
                                checked = s[i];
                            }
                        }
                    }
                    default -> {
                    }
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("row " + i + " of the batch: " + e.getMessage(), e);
            }
        }
    }
}
