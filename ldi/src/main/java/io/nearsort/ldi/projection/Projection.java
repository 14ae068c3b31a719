package io.nearsort.ldi.projection;

import java.util.List;
import java.util.Objects;

/**
 * A column group stored together and clustered on its key column (§2.1), with an LDI of its own.
 *
 * @param name    unique among the store's projections; names its file
 * @param key     the key column: a LONG or DOUBLE column among {@code columns}
 * @param columns the projection's columns (the key included), no column belonging to another projection
 */
public record Projection(String name, String key, List<String> columns) {
    /**
     * Checks the name and the columns, and keeps an unmodifiable copy of the column list.
     *
     * @param name    the projection's name, not null: letters, digits and underscores, not starting with a digit
     * @param key     the key column's name, not null: one of {@code columns}
     * @param columns names of the projection's columns, the key included, each once
     * @throws IllegalArgumentException naming the projection, if the name, the key or the columns are not accepted
     */
    public Projection {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(key, "key");
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("projection name must be letters, digits and underscores (got: '"
                    + name + "')");
        }
        columns = List.copyOf(columns);
        if (!columns.contains(key)) {
            throw new IllegalArgumentException("projection " + name + ": key column " + key
                    + " must be one of its columns " + columns);
        }
        if (columns.stream().distinct().count() != columns.size()) {
            throw new IllegalArgumentException("projection " + name + " names a column twice: " + columns);
        }
    }

    /**
     * A projection of {@code columns} clustered on {@code key}.
     *
     * @param name    the projection's name: letters, digits and underscores, not starting with a digit
     * @param key     the key column's name: a LONG or DOUBLE column among {@code columns}
     * @param columns names of the projection's columns, the key included, each once
     * @return the projection
     */
    public static Projection of(final String name, final String key, final String... columns) {
        return new Projection(name, key, List.of(columns));
    }
}
