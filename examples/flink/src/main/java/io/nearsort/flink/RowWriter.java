package io.nearsort.flink;

import io.nearsort.ldi.projection.Column;
import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.ColumnType;
import io.nearsort.ldi.projection.Schema;

import java.util.Arrays;

/**
 * One row of a {@link ColumnBatch} being filled by a {@link RowMapper}: typed setters write straight into the
 * batch's column arrays (no boxing); {@link #set(int, Object)} converts a boxed value for the generic mappers. Every
 * column must be set once per row. Not thread-safe; owned by one writer.
 */
public final class RowWriter {
    private final Schema schema;
    private final Column[] columns;
    private final boolean[] isSet;
    private ColumnBatch batch;
    private int row;

    RowWriter(final Schema schema) {
        this.schema = schema;
        this.columns = schema.columns().toArray(Column[]::new);
        this.isSet = new boolean[columns.length];
    }

    /** The store's schema: the columns a mapper must set. */
    public Schema schema() {
        return schema;
    }

    void begin(final ColumnBatch target, final int index) {
        this.batch = target;
        this.row = index;
        Arrays.fill(isSet, false);
    }

    /** Checks that the mapper set every column. */
    void finish() {
        for (int c = 0; c < columns.length; c++) {
            if (!isSet[c]) {
                throw new IllegalArgumentException("the row mapper did not set column " + columns[c].name());
            }
        }
    }

    public RowWriter setLong(final int column, final long value) {
        ((long[]) slot(column, ColumnType.LONG))[row] = value;
        isSet[column] = true;
        return this;
    }

    public RowWriter setLong(final String column, final long value) {
        return setLong(schema.indexOf(column), value);
    }

    public RowWriter setDouble(final int column, final double value) {
        final double[] slot = (double[]) slot(column, ColumnType.DOUBLE);
        columns[column].checkDouble(value);
        slot[row] = value;
        isSet[column] = true;
        return this;
    }

    public RowWriter setDouble(final String column, final double value) {
        return setDouble(schema.indexOf(column), value);
    }

    /** A string column's value: not null, for a FIXED_STRING at most its width in UTF-8 and without NUL. */
    public RowWriter setString(final int column, final String value) {
        final String[] slot = (String[]) slot(column, null);
        columns[column].checkString(value);
        slot[row] = value;
        isSet[column] = true;
        return this;
    }

    public RowWriter setString(final String column, final String value) {
        return setString(schema.indexOf(column), value);
    }

    /**
     * Sets column {@code column} from a boxed value: an integral {@link Number} (or a {@link java.time.Instant} /
     * {@link java.util.Date} as epoch milliseconds) for LONG, any {@link Number} for DOUBLE, a {@link String} for the
     * string types.
     */
    public RowWriter set(final int column, final Object value) {
        final Column c = columns[checkIndex(column)];
        if (value == null) {
            throw new IllegalArgumentException("column " + c.name() + " does not accept null");
        }
        switch (c.type()) {
            case LONG -> {
                if (value instanceof Long || value instanceof Integer || value instanceof Short
                        || value instanceof Byte) {
                    return setLong(column, ((Number) value).longValue());
                }
                if (value instanceof java.time.Instant i) {
                    return setLong(column, i.toEpochMilli());
                }
                if (value instanceof java.util.Date d) {
                    return setLong(column, d.getTime());
                }
            }
            case DOUBLE -> {
                if (value instanceof Number n) {
                    return setDouble(column, n.doubleValue());
                }
            }
            case FIXED_STRING, VAR_STRING -> {
                if (value instanceof String s) {
                    return setString(column, s);
                }
            }
            default -> throw new AssertionError(c.type());
        }
        throw new IllegalArgumentException("column " + c.name() + " of type " + c.type() + " does not accept a "
                + value.getClass().getSimpleName() + " (" + value + ")");
    }

    public RowWriter set(final String column, final Object value) {
        return set(schema.indexOf(column), value);
    }

    private int checkIndex(final int column) {
        if (column < 0 || column >= columns.length) {
            throw new IllegalArgumentException("column index must be in [0, " + columns.length + ") (got: " + column
                    + ")");
        }
        return column;
    }

    /** The column's array once its index and type are checked; the caller checks the value, stores it, marks it set. */
    private Object slot(final int column, final ColumnType type) {
        checkIndex(column);
        final ColumnType actual = columns[column].type();
        if (type == null ? actual != ColumnType.FIXED_STRING && actual != ColumnType.VAR_STRING : actual != type) {
            throw new IllegalArgumentException("column " + columns[column].name() + " is " + actual + ", not "
                    + (type == null ? "a string column" : type));
        }
        return batch.column(column);
    }
}
