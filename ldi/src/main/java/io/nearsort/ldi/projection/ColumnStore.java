package io.nearsort.ldi.projection;

import io.nearsort.ldi.bucketing.BucketizerStats;
import io.nearsort.ldi.io.IoHandler;
import io.nearsort.ldi.io.IoStats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A column store whose projections are clustered by LDI (§2.1, §4): rows are appended whole; every projection
 * buffers its columns, buckets them by its learned key distribution and writes the buckets column-wise to its own
 * file, indexed by an IB-tree. Range queries on a projection's key return the requested columns exactly.
 *
 * <p>Durability: everything appended before {@link #flush()} or {@link #close()} returned is on disk and present
 * after {@link #open reopening}; rows appended after the last flush live in memory and are lost with the process.
 * Files carry a magic, version, the projection's schema and per-record CRC32C checksums: corruption is reported as
 * a {@link io.nearsort.ldi.io.CorruptFileException}, never returned as data.
 *
 * <p>Threads: one thread appends and flushes; any number of threads query concurrently with it (the I/O handler
 * keeps their reads out of the write phases and de-duplicates their bucket reads). A query sees every row whose
 * {@code append} returned before the query started.
 */
public final class ColumnStore implements AutoCloseable {
    private final Schema schema;
    private final Map<String, ProjectionStore> projections = new LinkedHashMap<>();
    private final IoHandler io;
    private long nextRowId;
    private boolean closed;

    private ColumnStore(final Path directory, final Schema schema, final List<Projection> projections,
                        final ColumnStoreOptions options) throws IOException {
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
        }
        Files.createDirectories(directory);
        this.io = new IoHandler(options.readerThreads(), options.theta(), options.thetaGroup());
        try {
            for (Projection p : projections) {
                if (this.projections.containsKey(p.name())) {
                    throw new IllegalArgumentException("projection name " + p.name() + " appears twice");
                }
                this.projections.put(p.name(), new ProjectionStore(directory, schema, p, options, io));
            }
        } catch (IOException | RuntimeException e) {
            for (ProjectionStore s : this.projections.values()) {
                try {
                    s.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            io.close();
            throw e;
        }
        long rows = 0;
        for (ProjectionStore s : this.projections.values()) {
            rows = Math.max(rows, s.maxRowId() + 1);
        }
        this.nextRowId = rows;
    }

    /** Opens (or creates) the store in {@code directory} with the default options. */
    public static ColumnStore open(final Path directory, final Schema schema, final List<Projection> projections)
            throws IOException {
        return open(directory, schema, projections, ColumnStoreOptions.defaults());
    }

    /** Opens (or creates) the store in {@code directory}; existing files must match the schema and projections. */
    public static ColumnStore open(final Path directory, final Schema schema, final List<Projection> projections,
                                   final ColumnStoreOptions options) throws IOException {
        return new ColumnStore(directory, schema, projections, options);
    }

    /** Appends a row (values in schema order) to every projection; returns its row id. */
    public long append(final Object... row) {
        ensureOpen();
        if (row.length != schema.size()) {
            throw new IllegalArgumentException("a row needs " + schema.size() + " values, one per column (got: "
                    + row.length + ")");
        }
        final Object[] checked = new Object[row.length];
        for (int i = 0; i < row.length; i++) {
            checked[i] = schema.columns().get(i).check(row[i]);
        }
        final long id = nextRowId++;
        for (ProjectionStore p : projections.values()) {
            p.append(id, checked);
        }
        return id;
    }

    /** Writes every buffered row out and makes all files durable. */
    public void flush() throws IOException {
        ensureOpen();
        for (ProjectionStore p : projections.values()) {
            p.flush();
        }
    }

    /** Rows of {@code projection} with LONG keys in {@code [lo, hi]}, with the requested columns. */
    public QueryResult query(final String projection, final long lo, final long hi, final String... columns)
            throws IOException {
        ensureOpen();
        final ProjectionStore p = projection(projection);
        requireKeyType(p, ColumnType.LONG);
        return p.query(lo, hi, columns);
    }

    /** Rows of {@code projection} with DOUBLE keys in {@code [lo, hi]}, with the requested columns. */
    public QueryResult query(final String projection, final double lo, final double hi, final String... columns)
            throws IOException {
        ensureOpen();
        final ProjectionStore p = projection(projection);
        requireKeyType(p, ColumnType.DOUBLE);
        return p.query(KeyCodec.ofDouble(lo), KeyCodec.ofDouble(hi), columns);
    }

    /** count/sum/min/max of the numeric {@code column} over the rows of a LONG-keyed range. */
    public Aggregate aggregate(final String projection, final long lo, final long hi, final String column)
            throws IOException {
        return aggregate(query(projection, lo, hi, column), column);
    }

    /** count/sum/min/max of the numeric {@code column} over the rows of a DOUBLE-keyed range. */
    public Aggregate aggregate(final String projection, final double lo, final double hi, final String column)
            throws IOException {
        return aggregate(query(projection, lo, hi, column), column);
    }

    private Aggregate aggregate(final QueryResult r, final String column) {
        final ColumnType type = schema.column(column).type();
        if (type != ColumnType.LONG && type != ColumnType.DOUBLE) {
            throw new IllegalArgumentException("column " + column + " is " + type + ": aggregates need a number");
        }
        double sum = 0;
        double min = Double.NaN;
        double max = Double.NaN;
        for (int i = 0; i < r.size(); i++) {
            final double v = type == ColumnType.LONG ? r.getLong(i, column) : r.getDouble(i, column);
            sum += v;
            min = i == 0 ? v : Math.min(min, v);
            max = i == 0 ? v : Math.max(max, v);
        }
        return new Aggregate(r.size(), sum, min, max);
    }

    /** Buckets of {@code projection} (written or being written). */
    public int buckets(final String projection) {
        return projection(projection).buckets();
    }

    /** The LDI counters of {@code projection}'s bucketizer since open. */
    public BucketizerStats ldiStats(final String projection) {
        return projection(projection).ldiStats();
    }

    /** The I/O handler's counters. */
    public IoStats ioStats() {
        return io.stats();
    }

    /** Rows appended, including those stored before this open. */
    public long rows() {
        return nextRowId;
    }

    private ProjectionStore projection(final String name) {
        final ProjectionStore p = projections.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no projection named " + name + " (have: " + projections.keySet()
                    + ")");
        }
        return p;
    }

    private static void requireKeyType(final ProjectionStore p, final ColumnType type) {
        final ColumnType key = p.keyType();
        if (key != type) {
            throw new IllegalArgumentException("projection " + p.projection().name() + " has a " + key
                    + " key: query it with " + (key == ColumnType.LONG ? "long" : "double") + " bounds");
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("ColumnStore is closed");
        }
    }

    /** Flushes and closes every file. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        for (ProjectionStore p : projections.values()) {
            try {
                p.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        io.close();
        if (failure != null) {
            throw failure;
        }
    }
}
