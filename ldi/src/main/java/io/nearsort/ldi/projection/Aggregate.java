package io.nearsort.ldi.projection;

/**
 * count, sum, min and max of one numeric column over a key range. {@code sum}, {@code min} and {@code max} are
 * doubles (a LONG column's sum beyond 2^53 loses precision); on no rows, {@code count} is 0, {@code sum} 0 and
 * {@code min}/{@code max} NaN.
 */
public record Aggregate(long count, double sum, double min, double max) {

    /** The aggregate of {@code column} over a query's rows. */
    static Aggregate of(final QueryResult r, final Column column) {
        final ColumnType type = column.type();
        if (type != ColumnType.LONG && type != ColumnType.DOUBLE) {
            throw new IllegalArgumentException("column " + column.name() + " is " + type
                    + ": aggregates need a number");
        }
        double sum = 0;
        double min = Double.NaN;
        double max = Double.NaN;
        for (int i = 0; i < r.size(); i++) {
            final double v = type == ColumnType.LONG ? r.getLong(i, column.name()) : r.getDouble(i, column.name());
            sum += v;
            min = i == 0 ? v : Math.min(min, v);
            max = i == 0 ? v : Math.max(max, v);
        }
        return new Aggregate(r.size(), sum, min, max);
    }
}
