package io.nearsort.ldi.projection;

import java.util.List;

/**
 * The rows of a range query, exact (tuples of a bucket outside the range are filtered out) and ordered by key,
 * rows with equal keys by row id. Columns are addressed by name among those the query asked for.
 */
public final class QueryResult {
    private final List<Column> columns;
    private final long[] rowIds;
    private final Object[] values;
    private final long bucketsRead;
    private final long rowsScanned;

    QueryResult(final List<Column> columns, final long[] rowIds, final Object[] values, final long bucketsRead,
                final long rowsScanned) {
        this.columns = columns;
        this.rowIds = rowIds;
        this.values = values;
        this.bucketsRead = bucketsRead;
        this.rowsScanned = rowsScanned;
    }

    /**
     * Rows in the result.
     *
     * @return the number of rows, 0 when none matched
     */
    public int size() {
        return rowIds.length;
    }

    /**
     * The row id ({@link ColumnStore#append}'s return value) of result row {@code i}.
     *
     * @param i a result row, 0 to {@link #size()} - 1
     * @return the row's id
     */
    public long rowId(final int i) {
        return rowIds[i];
    }

    /**
     * Value of LONG {@code column} in row {@code row}.
     *
     * @param row    a result row, 0 to {@link #size()} - 1
     * @param column the name of a LONG column the query asked for
     * @return the value
     */
    public long getLong(final int row, final String column) {
        return ((long[]) values[index(column, ColumnType.LONG)])[row];
    }

    /**
     * Value of DOUBLE {@code column} in row {@code row}.
     *
     * @param row    a result row, 0 to {@link #size()} - 1
     * @param column the name of a DOUBLE column the query asked for
     * @return the value
     */
    public double getDouble(final int row, final String column) {
        return ((double[]) values[index(column, ColumnType.DOUBLE)])[row];
    }

    /**
     * Value of string {@code column} (FIXED_STRING or VAR_STRING) in row {@code row}.
     *
     * @param row    a result row, 0 to {@link #size()} - 1
     * @param column the name of a string column the query asked for
     * @return the value, not null
     */
    public String getString(final int row, final String column) {
        final int c = indexOf(column);
        if (!(values[c] instanceof String[] s)) {
            throw new IllegalArgumentException("column " + column + " is not a string column");
        }
        return s[row];
    }

    /**
     * Value of {@code column} in row {@code row}, boxed.
     *
     * @param row    a result row, 0 to {@link #size()} - 1
     * @param column the name of a column the query asked for
     * @return the value: a Long, Double or String by the column's type
     */
    public Object get(final int row, final String column) {
        final Object v = values[indexOf(column)];
        if (v instanceof long[] l) {
            return l[row];
        }
        if (v instanceof double[] d) {
            return d[row];
        }
        return ((String[]) v)[row];
    }

    /**
     * Buckets read from disk to answer the query (the I/O handler may have read more bytes around them).
     *
     * @return the number of buckets read from disk
     */
    public long bucketsRead() {
        return bucketsRead;
    }

    /**
     * Rows examined, the extraneous rows of overlapping buckets included.
     *
     * @return the number of rows examined, at least {@link #size()}
     */
    public long rowsScanned() {
        return rowsScanned;
    }

    private int index(final String column, final ColumnType type) {
        final int c = indexOf(column);
        if (columns.get(c).type() != type) {
            throw new IllegalArgumentException("column " + column + " is " + columns.get(c).type() + ", not " + type);
        }
        return c;
    }

    private int indexOf(final String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(column)) {
                return i;
            }
        }
        throw new IllegalArgumentException("column " + column + " was not requested by the query");
    }
}
