package io.nearsort.ldi.projection;

import java.util.Objects;

/**
 * A typed column of a {@link Schema}.
 *
 * @param name  unique within the schema: letters, digits and underscores
 * @param type  its type
 * @param width bytes of a {@link ColumnType#FIXED_STRING}, 0 for the other types
 */
public record Column(String name, ColumnType type, int width) {
    /**
     * Checks the name and the width.
     *
     * @param name  the column's name, not null: letters, digits and underscores, not starting with a digit
     * @param type  its type, not null
     * @param width bytes of a {@link ColumnType#FIXED_STRING}, 1 to 65535; 0 for the other types
     * @throws IllegalArgumentException naming the column, if the name or the width is not accepted
     */
    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("column name must be letters, digits and underscores (got: '" + name
                    + "')");
        }
        if (type == ColumnType.FIXED_STRING ? width < 1 || width > 65_535 : width != 0) {
            throw new IllegalArgumentException("column " + name + ": width must be in [1, 65535] for FIXED_STRING"
                    + " and 0 otherwise (got: " + width + ")");
        }
    }

    /**
     * A {@link ColumnType#LONG} column.
     *
     * @param name the column's name: letters, digits and underscores, not starting with a digit
     * @return the column
     */
    public static Column longColumn(final String name) {
        return new Column(name, ColumnType.LONG, 0);
    }

    /**
     * A {@link ColumnType#DOUBLE} column.
     *
     * @param name the column's name: letters, digits and underscores, not starting with a digit
     * @return the column
     */
    public static Column doubleColumn(final String name) {
        return new Column(name, ColumnType.DOUBLE, 0);
    }

    /**
     * A {@link ColumnType#FIXED_STRING} column.
     *
     * @param name  the column's name: letters, digits and underscores, not starting with a digit
     * @param width the most UTF-8 bytes a value takes, and the bytes each takes on disk: 1 to 65535
     * @return the column
     */
    public static Column fixedString(final String name, final int width) {
        return new Column(name, ColumnType.FIXED_STRING, width);
    }

    /**
     * A {@link ColumnType#VAR_STRING} column.
     *
     * @param name the column's name: letters, digits and underscores, not starting with a digit
     * @return the column
     */
    public static Column varString(final String name) {
        return new Column(name, ColumnType.VAR_STRING, 0);
    }

    /** Checks that {@code value} fits this column; returns it normalised (Integer to Long, Float to Double). */
    Object check(final Object value) {
        if (value == null) {
            throw new IllegalArgumentException("column " + name + " does not accept null");
        }
        switch (type) {
            case LONG -> {
                if (value instanceof Long) {
                    return value;
                }
                if (value instanceof Integer || value instanceof Short
                        || value instanceof Byte) {
                    return ((Number) value).longValue();
                }
            }
            case DOUBLE -> {
                if (value instanceof Double d && !d.isNaN()) {
                    return value;
                }
                if (value instanceof Double || value instanceof Float) {
                    final double d = ((Number) value).doubleValue();
                    checkDouble(d);
                    return d;
                }
            }
            case FIXED_STRING -> {
                if (value instanceof String s) {
                    checkString(s);
                    return s;
                }
            }
            case VAR_STRING -> {
                if (value instanceof String s) {
                    return s;
                }
            }
            default -> throw new AssertionError(type);
        }
        throw new IllegalArgumentException("column " + name + " of type " + type + " does not accept a "
                + value.getClass().getSimpleName() + " (" + value + ")");
    }

    /**
     * Checks a value of this DOUBLE column: NaN is rejected. Public so that the sinks' mappers reject what
     * {@link ColumnStore#append} would, with the same rule.
     *
     * @param d a value for this column
     * @throws IllegalArgumentException naming the column
     */
    public void checkDouble(final double d) {
        if (Double.isNaN(d)) {
            throw new IllegalArgumentException("column " + name + " does not accept NaN");
        }
    }

    /**
     * Checks a value of this string column: not null, and for FIXED_STRING at most its width, no NUL. Public so that
     * the sinks' mappers reject what {@link ColumnStore#append} would, with the same rule.
     *
     * @param s a value for this column
     * @throws IllegalArgumentException naming the column
     */
    public void checkString(final String s) {
        if (s == null) {
            throw new IllegalArgumentException("column " + name + " does not accept null");
        }
        if (type == ColumnType.FIXED_STRING) {
            // One pass for the common case: ASCII without NUL is as many bytes as characters.
            boolean plain = s.length() <= width;
            for (int i = 0; plain && i < s.length(); i++) {
                final char c = s.charAt(i);
                plain = c != 0 && c < 0x80;
            }
            if (plain) {
                return;
            }
            final int bytes = utf8Length(s);
            if (bytes > width) {
                throw new IllegalArgumentException("column " + name + " holds at most " + width
                        + " UTF-8 bytes (got " + bytes + ")");
            }
            if (s.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("column " + name + " does not accept NUL characters");
            }
        }
    }

    /** Bytes a value of this column takes in a bucket's encoding (for a VAR_STRING its offset, the text aside). */
    int fixedBytes() {
        return switch (type) {
            case LONG, DOUBLE -> 8;
            case FIXED_STRING -> width;
            case VAR_STRING -> 4;
        };
    }

    /** Bytes of {@code s} in UTF-8, without encoding it. */
    private static int utf8Length(final String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                bytes++; // an unpaired surrogate: String.getBytes writes '?'
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** The column as written into file headers. */
    String describe() {
        return name + ":" + type + (type == ColumnType.FIXED_STRING ? "(" + width + ")" : "");
    }
}
