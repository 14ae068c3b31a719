package io.nearsort.examples.cli.ingest;

import io.nearsort.ldi.projection.Column;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * A column type as {@code nearsort ingest} reads it from text: {@code long}, {@code double}, {@code string} (any
 * length), {@code string(N)} (at most N UTF-8 bytes, stored in N) or {@code date} (ISO {@code yyyy-mm-dd}, stored as
 * a LONG of days since 1970-01-01, as TPC-H's generator gives dates).
 *
 * @param kind  the text form's kind
 * @param width N of {@code string(N)}, 0 otherwise
 */
public record FieldType(Kind kind, int width) {
    /** The kinds of text value. */
    public enum Kind { LONG, DOUBLE, STRING, FIXED_STRING, DATE }

    /** The accepted spellings, for messages. */
    public static final String SPELLINGS = "long, double, string, string(N), date";

    /** The type spelled {@code text}; throws naming it and the accepted spellings. */
    public static FieldType parse(final String text) {
        final String t = text.strip().toLowerCase(Locale.ROOT);
        switch (t) {
            case "long", "int", "integer" -> {
                return new FieldType(Kind.LONG, 0);
            }
            case "double", "float" -> {
                return new FieldType(Kind.DOUBLE, 0);
            }
            case "string", "text" -> {
                return new FieldType(Kind.STRING, 0);
            }
            case "date" -> {
                return new FieldType(Kind.DATE, 0);
            }
            default -> {
                if (t.startsWith("string(") && t.endsWith(")")) {
                    try {
                        final int n = Integer.parseInt(t.substring(7, t.length() - 1));
                        if (n >= 1 && n <= 65_535) {
                            return new FieldType(Kind.FIXED_STRING, n);
                        }
                    } catch (NumberFormatException e) {
                        // reported below
                    }
                }
                throw new IllegalArgumentException("unknown type '" + text + "' (types: " + SPELLINGS
                        + ", N in [1, 65535])");
            }
        }
    }

    /** The store's column of this type named {@code name}. */
    public Column column(final String name) {
        return switch (kind) {
            case LONG, DATE -> Column.longColumn(name);
            case DOUBLE -> Column.doubleColumn(name);
            case STRING -> Column.varString(name);
            case FIXED_STRING -> Column.fixedString(name, width);
        };
    }

    /** A LONG value read from text: an integer, or for a date the days since 1970-01-01. */
    public long parseLong(final String text) {
        if (kind == Kind.DATE) {
            try {
                return LocalDate.parse(text.strip()).toEpochDay();
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("'" + text + "' is not a date (yyyy-mm-dd)");
            }
        }
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a long integer");
        }
    }

    /** A DOUBLE value read from text (NaN is rejected, as the store rejects it). */
    public double parseDouble(final String text) {
        final double d;
        try {
            d = Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a number");
        }
        if (Double.isNaN(d)) {
            throw new IllegalArgumentException("NaN is not accepted");
        }
        return d;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case LONG -> "long";
            case DOUBLE -> "double";
            case STRING -> "string";
            case DATE -> "date";
            case FIXED_STRING -> "string(" + width + ")";
        };
    }
}
