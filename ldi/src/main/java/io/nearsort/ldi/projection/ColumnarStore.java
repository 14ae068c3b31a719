package io.nearsort.ldi.projection;

import java.io.IOException;

/**
 * What every column store of this module offers, so LDI and the baselines of §5 ({@code baselines}: LSM-like and
 * Sorted_Col) load and answer the same workloads: rows appended whole (values in schema order), range queries on
 * a projection's key returning the requested columns exactly (sorted by key, then row id), aggregates over them.
 */
public interface ColumnarStore extends AutoCloseable {

    /**
     * The schema and projections.
     *
     * @return the table layout the store holds
     */
    TableLayout layout();

    /**
     * Appends a row (values in schema order) to every projection; returns its row id.
     *
     * @param row one value per schema column, in schema order, none null (a LONG column also takes an Integer,
     *            Short or Byte, a DOUBLE column a Float; NaN is rejected)
     * @return the row's id, the previous row's plus one
     */
    long append(Object... row);

    /**
     * Writes buffered rows out as the store's design requires and makes its files durable.
     *
     * @throws IOException if writing or forcing the store's files fails
     */
    void flush() throws IOException;

    /**
     * Rows of {@code projection} whose ordered key lies in {@code [lo, hi]}: the LONG key itself, or a DOUBLE key
     * mapped by {@link KeyCodec#ofDouble}.
     *
     * @param projection the projection's name
     * @param lo         the lowest ordered key wanted, inclusive
     * @param hi         the highest ordered key wanted, inclusive; below {@code lo}, no row matches
     * @param columns    names of columns of {@code projection} to return
     * @return the matching rows, ordered by key then row id
     * @throws IOException if reading the projection's files fails
     */
    QueryResult queryOrdered(String projection, long lo, long hi, String... columns) throws IOException;

    /**
     * Rows of {@code projection} with LONG keys in {@code [lo, hi]}, with the requested columns.
     *
     * @param projection the projection's name; its key must be a LONG column
     * @param lo         the lowest key wanted, inclusive
     * @param hi         the highest key wanted, inclusive; below {@code lo}, no row matches
     * @param columns    names of columns of {@code projection} to return
     * @return the matching rows, ordered by key then row id
     * @throws IOException if reading the projection's files fails
     */
    default QueryResult query(final String projection, final long lo, final long hi, final String... columns)
            throws IOException {
        layout().projection(projection).requireKeyType(ColumnType.LONG);
        return queryOrdered(projection, lo, hi, columns);
    }

    /**
     * Rows of {@code projection} with DOUBLE keys in {@code [lo, hi]}, with the requested columns.
     *
     * @param projection the projection's name; its key must be a DOUBLE column
     * @param lo         the lowest key wanted, inclusive; not NaN
     * @param hi         the highest key wanted, inclusive; not NaN, below {@code lo} no row matches
     * @param columns    names of columns of {@code projection} to return
     * @return the matching rows, ordered by key then row id
     * @throws IOException if reading the projection's files fails
     */
    default QueryResult query(final String projection, final double lo, final double hi, final String... columns)
            throws IOException {
        layout().projection(projection).requireKeyType(ColumnType.DOUBLE);
        return queryOrdered(projection, KeyCodec.ofDouble(lo), KeyCodec.ofDouble(hi), columns);
    }

    /**
     * count/sum/min/max of the numeric {@code column} over the rows of a LONG-keyed range.
     *
     * @param projection the projection's name; its key must be a LONG column
     * @param lo         the lowest key, inclusive
     * @param hi         the highest key, inclusive
     * @param column     a LONG or DOUBLE column of {@code projection}
     * @return count, sum, min and max of the column over the range; count 0 and min/max NaN when no row matches
     * @throws IOException if reading the projection's files fails
     */
    default Aggregate aggregate(final String projection, final long lo, final long hi, final String column)
            throws IOException {
        return Aggregate.of(query(projection, lo, hi, column), layout().schema().column(column));
    }

    /**
     * count/sum/min/max of the numeric {@code column} over the rows of a DOUBLE-keyed range.
     *
     * @param projection the projection's name; its key must be a DOUBLE column
     * @param lo         the lowest key, inclusive; not NaN
     * @param hi         the highest key, inclusive; not NaN
     * @param column     a LONG or DOUBLE column of {@code projection}
     * @return count, sum, min and max of the column over the range; count 0 and min/max NaN when no row matches
     * @throws IOException if reading the projection's files fails
     */
    default Aggregate aggregate(final String projection, final double lo, final double hi, final String column)
            throws IOException {
        return Aggregate.of(query(projection, lo, hi, column), layout().schema().column(column));
    }

    /**
     * Rows appended.
     *
     * @return the number of rows appended
     */
    long rows();

    @Override
    void close() throws IOException;
}
