package io.nearsort.ldi.projection;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The columns of a table, in row order. */
public final class Schema {
    private final List<Column> columns;
    private final Map<String, Integer> index = new HashMap<>();

    private Schema(final List<Column> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a schema needs at least one column");
        }
        this.columns = List.copyOf(columns);
        for (int i = 0; i < columns.size(); i++) {
            if (index.put(columns.get(i).name(), i) != null) {
                throw new IllegalArgumentException("column name " + columns.get(i).name() + " appears twice");
            }
        }
    }

    /**
     * A schema of {@code columns}, in row order.
     *
     * @param columns the table's columns: at least one, names unique
     * @return the schema
     */
    public static Schema of(final Column... columns) {
        return new Schema(List.of(columns));
    }

    /**
     * A schema of {@code columns}, in row order.
     *
     * @param columns the table's columns: at least one, names unique; copied
     * @return the schema
     */
    public static Schema of(final List<Column> columns) {
        return new Schema(columns);
    }

    /**
     * The columns, in row order.
     *
     * @return the columns, unmodifiable
     */
    public List<Column> columns() {
        return columns;
    }

    /**
     * Columns in the schema.
     *
     * @return the number of columns, at least 1
     */
    public int size() {
        return columns.size();
    }

    /**
     * The position of column {@code name}; throws naming it if there is none.
     *
     * @param name a column's name
     * @return its position in row order, from 0
     */
    public int indexOf(final String name) {
        final Integer i = index.get(name);
        if (i == null) {
            throw new IllegalArgumentException("no column named " + name + " in the schema " + names());
        }
        return i;
    }

    /**
     * The column named {@code name}; throws naming it if there is none.
     *
     * @param name a column's name
     * @return the column
     */
    public Column column(final String name) {
        return columns.get(indexOf(name));
    }

    private List<String> names() {
        return columns.stream().map(Column::name).toList();
    }
}
