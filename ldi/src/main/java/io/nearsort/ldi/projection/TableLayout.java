package io.nearsort.ldi.projection;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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

    /**
     * Validates {@code projections} against {@code schema}.
     *
     * @param schema      the table's columns
     * @param projections the projections: at least one, names unique, every column in the schema and in at most one
     * @throws IllegalArgumentException naming the projection or column that is not accepted
     */
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

    /**
     * The table's columns.
     *
     * @return the schema
     */
    public Schema schema() {
        return schema;
    }

    /**
     * The projections, in the order given.
     *
     * @return the projections' layouts, in the order given, unmodifiable
     */
    public List<ProjectionLayout> projections() {
        return List.copyOf(projections.values());
    }

    /**
     * The projection named {@code name}; throws naming it if there is none.
     *
     * @param name a projection's name
     * @return its layout
     */
    public ProjectionLayout projection(final String name) {
        final ProjectionLayout p = projections.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no projection named " + name + " (have: " + projections.keySet()
                    + ")");
        }
        return p;
    }

    /**
     * The schema and projections as a store's manifest records them:
     * {@code [columns:4]{[name][type ordinal:1][width:4]}[projections:4]{[name][key][columns:4]{[name]}}}, names as
     * {@code [UTF-8 bytes:4][UTF-8]}, little-endian.
     *
     * @return a new array holding the encoding
     */
    public byte[] encode() {
        final List<byte[]> parts = new ArrayList<>();
        int size = 8;
        for (Column c : schema.columns()) {
            parts.add(c.name().getBytes(StandardCharsets.UTF_8));
            size += 4 + parts.get(parts.size() - 1).length + 5;
        }
        for (ProjectionLayout p : projections.values()) {
            size += 4;
            for (String name : names(p.projection())) {
                size += 4 + name.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        final ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(schema.size());
        for (int i = 0; i < schema.size(); i++) {
            final Column c = schema.columns().get(i);
            b.putInt(parts.get(i).length).put(parts.get(i)).put((byte) c.type().ordinal()).putInt(c.width());
        }
        b.putInt(projections.size());
        for (ProjectionLayout p : projections.values()) {
            final List<String> names = names(p.projection());
            put(b, names.get(0));
            put(b, names.get(1));
            b.putInt(names.size() - 2);
            for (String name : names.subList(2, names.size())) {
                put(b, name);
            }
        }
        return b.array();
    }

    /**
     * The layout {@link #encode} wrote; a malformed encoding is an {@link IllegalStateException}.
     *
     * @param encoded the bytes {@link #encode} returned, exactly
     * @return the layout, validated as the constructor does
     */
    public static TableLayout decode(final byte[] encoded) {
        final ByteBuffer b = ByteBuffer.wrap(encoded).order(ByteOrder.LITTLE_ENDIAN);
        try {
            final int columns = b.getInt();
            final List<Column> cols = new ArrayList<>();
            for (int i = 0; i < columns; i++) {
                final String name = get(b);
                final int type = b.get();
                if (type < 0 || type >= ColumnType.values().length) {
                    throw new IllegalStateException("column type " + type);
                }
                cols.add(new Column(name, ColumnType.values()[type], b.getInt()));
            }
            final int count = b.getInt();
            final List<Projection> ps = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                final String name = get(b);
                final String key = get(b);
                final int n = b.getInt();
                final List<String> names = new ArrayList<>();
                for (int j = 0; j < n; j++) {
                    names.add(get(b));
                }
                ps.add(new Projection(name, key, names));
            }
            if (b.hasRemaining()) {
                throw new IllegalStateException(b.remaining() + " bytes left over");
            }
            return new TableLayout(Schema.of(cols), ps);
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
            throw new IllegalStateException("table layout does not decode: " + e.getMessage(), e);
        }
    }

    private static List<String> names(final Projection p) {
        final List<String> names = new ArrayList<>();
        names.add(p.name());
        names.add(p.key());
        names.addAll(p.columns());
        return names;
    }

    private static void put(final ByteBuffer b, final String s) {
        final byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.putInt(bytes.length).put(bytes);
    }

    private static String get(final ByteBuffer b) {
        final int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalStateException("name of " + n + " bytes");
        }
        final byte[] bytes = new byte[n];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * The schema and projections, for messages: {@code id:LONG note:VAR_STRING; by_id(id: id, note)}.
     *
     * @return the description, on one line
     */
    public String describe() {
        final StringBuilder s = new StringBuilder();
        schema.columns().forEach(c -> s.append(s.length() == 0 ? "" : " ").append(c.describe()));
        for (ProjectionLayout p : projections.values()) {
            s.append("; ").append(p.name()).append('(').append(p.projection().key()).append(": ")
                    .append(String.join(", ", p.projection().columns())).append(')');
        }
        return s.toString();
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof TableLayout t && java.util.Arrays.equals(encode(), t.encode());
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(encode());
    }

    /**
     * A row (values in schema order) checked column by column and normalised (Integer to Long, …).
     *
     * @param row one value per schema column, in schema order
     * @return a new array of the checked values, normalised
     */
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
