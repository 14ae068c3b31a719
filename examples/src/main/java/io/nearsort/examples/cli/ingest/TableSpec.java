package io.nearsort.examples.cli.ingest;

import io.nearsort.ldi.projection.Column;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.Schema;

import java.util.ArrayList;
import java.util.List;

/**
 * The columns {@code nearsort ingest} reads, as written in {@code --schema} or in a typed header line:
 * {@code name:type,name:type,…} ({@link FieldType}), and projections as written in {@code --projection}:
 * {@code NAME=KEY,COLUMN,…} (the key first; it must be a long, date or double column).
 *
 * @param names the column names, in order
 * @param types their types
 */
public record TableSpec(List<String> names, List<FieldType> types) {
    public TableSpec {
        names = List.copyOf(names);
        types = List.copyOf(types);
    }

    /** Parses {@code name:type,…}; throws naming the column or type that is wrong. */
    public static TableSpec parse(final String spec) {
        final List<String> names = new ArrayList<>();
        final List<FieldType> types = new ArrayList<>();
        for (String part : spec.split(",", -1)) {
            final int colon = part.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("column '" + part.strip() + "' has no type: write name:type"
                        + " (types: " + FieldType.SPELLINGS + ")");
            }
            final String name = part.substring(0, colon).strip();
            final FieldType type;
            try {
                type = FieldType.parse(part.substring(colon + 1));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("column " + name + ": " + e.getMessage());
            }
            names.add(name);
            types.add(type);
        }
        final TableSpec t = new TableSpec(names, types);
        t.schema(); // checks names: letters, digits, underscores, unique
        return t;
    }

    /** The store's schema. */
    public Schema schema() {
        final List<Column> columns = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            columns.add(types.get(i).column(names.get(i)));
        }
        return Schema.of(columns);
    }

    /** Parses {@code NAME=KEY,COLUMN,…}. */
    public static Projection projection(final String spec) {
        final int eq = spec.indexOf('=');
        if (eq < 1 || eq == spec.length() - 1) {
            throw new IllegalArgumentException("'" + spec + "' is not NAME=KEY,COLUMN,... (the key column first)");
        }
        final List<String> columns = new ArrayList<>();
        for (String c : spec.substring(eq + 1).split(",", -1)) {
            columns.add(c.strip());
        }
        return new Projection(spec.substring(0, eq).strip(), columns.get(0), columns);
    }

    /** The spec as {@code --schema} takes it. */
    @Override
    public String toString() {
        final StringBuilder s = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            s.append(i == 0 ? "" : ",").append(names.get(i)).append(':').append(types.get(i));
        }
        return s.toString();
    }
}
