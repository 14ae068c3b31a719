package io.nearsort.ldi.projection;

import java.util.ArrayList;
import java.util.List;

/**
 * How one projection (§2.1) sits in a table's rows: its columns in projection order, where each comes from in the
 * schema, which one is the key and how a key value maps to the {@code long} the indexes order by
 * ({@link KeyCodec}). Shared by the LDI store and the baseline stores, so all of them project rows and name their
 * files' identity the same way.
 */
public final class ProjectionLayout {
    private final Projection projection;
    private final List<Column> columns;
    private final int[] schemaPositions;
    private final int keyColumn;
    private final ColumnType keyType;

    ProjectionLayout(final Schema schema, final Projection projection) {
        this.projection = projection;
        this.schemaPositions = new int[projection.columns().size()];
        final List<Column> cols = new ArrayList<>();
        for (int i = 0; i < schemaPositions.length; i++) {
            schemaPositions[i] = schema.indexOf(projection.columns().get(i));
            cols.add(schema.columns().get(schemaPositions[i]));
        }
        this.columns = List.copyOf(cols);
        this.keyColumn = projection.columns().indexOf(projection.key());
        this.keyType = columns.get(keyColumn).type();
        if (keyType != ColumnType.LONG && keyType != ColumnType.DOUBLE) {
            throw new IllegalArgumentException("projection " + projection.name() + ": key column " + projection.key()
                    + " must be LONG or DOUBLE, not " + keyType);
        }
    }

    /**
     * The projection this layout places.
     *
     * @return the projection as declared
     */
    public Projection projection() {
        return projection;
    }

    /**
     * The projection's name.
     *
     * @return the name, unique among the table's projections
     */
    public String name() {
        return projection.name();
    }

    /**
     * The projection's columns, in projection order.
     *
     * @return the columns, unmodifiable
     */
    public List<Column> columns() {
        return columns;
    }

    /**
     * The key's position among {@link #columns()}.
     *
     * @return the key column's index in {@link #columns()}, from 0
     */
    public int keyColumn() {
        return keyColumn;
    }

    /**
     * The type of the key column.
     *
     * @return {@link ColumnType#LONG} or {@link ColumnType#DOUBLE}
     */
    public ColumnType keyType() {
        return keyType;
    }

    /**
     * The schema position of the projection's column {@code i}.
     *
     * @param i a position among {@link #columns()}, 0 to their count - 1
     * @return the column's position in the schema
     */
    public int schemaPosition(final int i) {
        return schemaPositions[i];
    }

    /**
     * The projection's values of a checked row (schema order), in projection order.
     *
     * @param row a checked row: one value per schema column, in schema order
     * @return a new array of the projection's values, in projection order
     */
    public Object[] project(final Object[] row) {
        final Object[] values = new Object[schemaPositions.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = row[schemaPositions[i]];
        }
        return values;
    }

    /**
     * The ordered {@code long} key of projected values.
     *
     * @param values the projection's values, in projection order, as {@link #project} returns them
     * @return a LONG key as it is, a DOUBLE key mapped by {@link KeyCodec#ofDouble}
     */
    public long key(final Object[] values) {
        return KeyCodec.encode(keyType, values[keyColumn]);
    }

    /**
     * A file header identity naming the projection, its key and its columns' types, for {@code kind} files.
     *
     * @param kind the kind of file, the identity's first word(s)
     * @return {@code kind}, then the projection's name, its key and its columns with their types
     */
    public String identity(final String kind) {
        final StringBuilder id = new StringBuilder(kind).append(" projection ").append(projection.name())
                .append(" key ").append(projection.key()).append(" columns");
        columns.forEach(c -> id.append(' ').append(c.describe()));
        return id.toString();
    }

    /**
     * Positions of the requested columns; throws naming a column that is not in the projection.
     *
     * @param names names of columns of the projection, in any order
     * @return their positions among {@link #columns()}, in the order of {@code names}
     */
    public int[] positions(final String... names) {
        final int[] wanted = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            wanted[i] = projection.columns().indexOf(names[i]);
            if (wanted[i] < 0) {
                throw new IllegalArgumentException("column " + names[i] + " is not in projection "
                        + projection.name() + " " + projection.columns());
            }
        }
        return wanted;
    }

    /**
     * Checks that a query's bounds are of the key's type.
     *
     * @param type the type of the query's bounds: {@link ColumnType#LONG} or {@link ColumnType#DOUBLE}
     */
    public void requireKeyType(final ColumnType type) {
        if (keyType != type) {
            throw new IllegalArgumentException("projection " + projection.name() + " has a " + keyType
                    + " key: query it with " + (keyType == ColumnType.LONG ? "long" : "double") + " bounds");
        }
    }
}
