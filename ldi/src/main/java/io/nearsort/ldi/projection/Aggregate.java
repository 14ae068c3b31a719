package io.nearsort.ldi.projection;

/**
 * count, sum, min and max of one numeric column over a key range. {@code sum}, {@code min} and {@code max} are
 * doubles (a LONG column's sum beyond 2^53 loses precision); on no rows, {@code count} is 0, {@code sum} 0 and
 * {@code min}/{@code max} NaN.
 */
public record Aggregate(long count, double sum, double min, double max) {
}
