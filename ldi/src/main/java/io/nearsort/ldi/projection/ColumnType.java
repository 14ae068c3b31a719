package io.nearsort.ldi.projection;

/** The types a column of the column store can have (§2.1). */
public enum ColumnType {
    /** 64-bit signed integers; usable as a projection key. */
    LONG,
    /** 64-bit floating point (NaN rejected); usable as a projection key. */
    DOUBLE,
    /** UTF-8 strings of at most a fixed number of bytes, stored in exactly that many. */
    FIXED_STRING,
    /** UTF-8 strings of any length. */
    VAR_STRING
}
