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

    public static Projection of(final String name, final String key, final String... columns) {
        return new Projection(name, key, List.of(columns));
    }
}
