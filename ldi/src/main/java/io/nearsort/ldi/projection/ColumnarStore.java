package io.nearsort.ldi.projection;

import java.io.IOException;

/**
 * What every column store of this module offers, so LDI and the baselines of §5 ({@code baselines}: LSM-like and
 * Sorted_Col) load and answer the same workloads: rows appended whole (values in schema order), range queries on
 * a projection's key returning the requested columns exactly (sorted by key, then row id), aggregates over them.
 */
public interface ColumnarStore extends AutoCloseable {

    /** The schema and projections. */
    TableLayout layout();

    /** Appends a row (values in schema order) to every projection; returns its row id. */
    long append(Object... row);

    /** Writes buffered rows out as the store's design requires and makes its files durable. */
    void flush() throws IOException;

    /**
     * Rows of {@code projection} whose ordered key lies in {@code [lo, hi]}: the LONG key itself, or a DOUBLE key
     * mapped by {@link KeyCodec#ofDouble}.
     */
    QueryResult queryOrdered(String projection, long lo, long hi, String... columns) throws IOException;

    /** Rows of {@code projection} with LONG keys in {@code [lo, hi]}, with the requested columns. */
    default QueryResult query(final String projection, final long lo, final long hi, final String... columns)
            throws IOException {
        layout().projection(projection).requireKeyType(ColumnType.LONG);
        return queryOrdered(projection, lo, hi, columns);
    }

    /** Rows of {@code projection} with DOUBLE keys in {@code [lo, hi]}, with the requested columns. */
    default QueryResult query(final String projection, final double lo, final double hi, final String... columns)
            throws IOException {
        layout().projection(projection).requireKeyType(ColumnType.DOUBLE);
        return queryOrdered(projection, KeyCodec.ofDouble(lo), KeyCodec.ofDouble(hi), columns);
    }

    /** count/sum/min/max of the numeric {@code column} over the rows of a LONG-keyed range. */
    default Aggregate aggregate(final String projection, final long lo, final long hi, final String column)
            throws IOException {
        return Aggregate.of(query(projection, lo, hi, column), layout().schema().column(column));
    }

    /** count/sum/min/max of the numeric {@code column} over the rows of a DOUBLE-keyed range. */
    default Aggregate aggregate(final String projection, final double lo, final double hi, final String column)
            throws IOException {
        return Aggregate.of(query(projection, lo, hi, column), layout().schema().column(column));
    }

    /** Rows appended. */
    long rows();

    @Override
    void close() throws IOException;
}
