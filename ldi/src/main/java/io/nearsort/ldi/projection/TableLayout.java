package io.nearsort.ldi.projection;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A schema and its projections, validated: at least one projection, unique names, every column known and in at
 * most one projection (§2.1: projections partition the columns, nothing is replicated). Checks rows against the
 * schema for every store kind.
 */
public final class TableLayout {
    private final Schema schema;
    private final Map<String, ProjectionLayout> projections = new LinkedHashMap<>();

    public TableLayout(final Schema schema, final List<Projection> projections) {
        this.schema = schema;
        if (projections.isEmpty()) {
            throw new IllegalArgumentException("a column store needs at least one projection");
        }
        final Set<String> used = new HashSet<>();
        for (Projection p : projections) {
            for (String column : p.columns()) {
                schema.indexOf(column);
                if (!used.add(column)) {
                    throw new IllegalArgumentException("column " + column + " is in more than one projection;"
                            + " projections partition the columns (§2.1)");
                }
            }
            if (this.projections.put(p.name(), new ProjectionLayout(schema, p)) != null) {
                throw new IllegalArgumentException("projection name " + p.name() + " appears twice");
            }
        }
    }

    public Schema schema() {
        return schema;
    }

    /** The projections, in the order given. */
    public List<ProjectionLayout> projections() {
        return List.copyOf(projections.values());
    }

    /** The projection named {@code name}; throws naming it if there is none. */
    public ProjectionLayout projection(final String name) {
        final ProjectionLayout p = projections.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no projection named " + name + " (have: " + projections.keySet()
                    + ")");
        }
        return p;
    }

    /** A row (values in schema order) checked column by column and normalised (Integer to Long, …). */
    public Object[] check(final Object... row) {
        if (row.length != schema.size()) {
            throw new IllegalArgumentException("a row needs " + schema.size() + " values, one per column (got: "
                    + row.length + ")");
        }
        final Object[] checked = new Object[row.length];
        for (int i = 0; i < row.length; i++) {
            checked[i] = schema.columns().get(i).check(row[i]);
        }
        return checked;
    }
}
