package io.nearsort.ldi.projection;

/**
 * count, sum, min and max of one numeric column over a key range. {@code sum}, {@code min} and {@code max} are
 * doubles: a LONG column is summed exactly in a {@code long} and converted once (beyond 2^53, or when the long sum
 * overflows, precision is lost); on no rows, {@code count} is 0, {@code sum} 0 and {@code min}/{@code max} NaN.
 *
 * @param count the number of rows aggregated, at least 0
 * @param sum   the sum of the column's values over those rows; 0 on no rows
 * @param min   the smallest of the column's values; NaN on no rows
 * @param max   the largest of the column's values; NaN on no rows
 */
public record Aggregate(long count, double sum, double min, double max) {

    /** The aggregate of {@code column} over a query's rows. */
    static Aggregate of(final QueryResult r, final Column column) {
        final Accumulator a = new Accumulator(column);
        for (int i = 0; i < r.size(); i++) {
            if (column.type() == ColumnType.LONG) {
                a.add(r.getLong(i, column.name()));
            } else {
                a.add(r.getDouble(i, column.name()));
            }
        }
        return a.result();
    }

    /** Adds values one at a time, in any order. Not thread-safe. */
    static final class Accumulator {
        private final boolean integral;
        private long count;
        private long longSum;
        private boolean overflowed;
        private double doubleSum;
        private double min = Double.NaN;
        private double max = Double.NaN;

        Accumulator(final Column column) {
            if (column.type() != ColumnType.LONG && column.type() != ColumnType.DOUBLE) {
                throw new IllegalArgumentException("column " + column.name() + " is " + column.type()
                        + ": aggregates need a number");
            }
            this.integral = column.type() == ColumnType.LONG;
        }

        void add(final long v) {
            if (!overflowed) {
                final long s = longSum + v;
                if (((longSum ^ s) & (v ^ s)) < 0) {
                    overflowed = true;
                    doubleSum = (double) longSum + v;
                } else {
                    longSum = s;
                }
            } else {
                doubleSum += v;
            }
            minMax(v);
        }

        void add(final double v) {
            doubleSum += v;
            minMax(v);
        }

        private void minMax(final double v) {
            min = count == 0 ? v : Math.min(min, v);
            max = count == 0 ? v : Math.max(max, v);
            count++;
        }

        Aggregate result() {
            final double sum = integral && !overflowed ? (double) longSum : doubleSum;
            return new Aggregate(count, sum, min, max);
        }
    }
}
