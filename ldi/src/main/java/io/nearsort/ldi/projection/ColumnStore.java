package io.nearsort.ldi.projection;

import io.nearsort.ldi.bucketing.BucketizerStats;
import io.nearsort.ldi.io.IoHandler;
import io.nearsort.ldi.io.IoStats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 * <p>Maintenance (§3.3) sort-merges the non-compacted buckets into compacted ones: in the background on each
 * projection's writer thread once {@link ColumnStoreOptions#maintenanceTrigger} of them were written, or on demand
 * with {@link #maintain}. Retired buckets leave dead bytes in the bucket file ({@link #stats}).
 *
 * <p>Threads: one thread appends, flushes and maintains; any number of threads query concurrently with it (the I/O handler
 * keeps their reads out of the write phases and de-duplicates their bucket reads). A query sees every row whose
 * {@code append} returned before the query started.
 */
public final class ColumnStore implements ColumnarStore {
    private final TableLayout table;
    private final Map<String, ProjectionStore> projections = new LinkedHashMap<>();
    private final IoHandler io;
    private long nextRowId;
    private boolean closed;

    private ColumnStore(final Path directory, final TableLayout table, final ColumnStoreOptions options)
            throws IOException {
        this.table = table;
        Files.createDirectories(directory);
        this.io = new IoHandler(options.readerThreads(), options.theta(), options.thetaGroup());
        try {
            for (ProjectionLayout p : table.projections()) {
                this.projections.put(p.name(), new ProjectionStore(directory, p, options, io));
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
        return new ColumnStore(directory, new TableLayout(schema, projections), options);
    }

    @Override
    public TableLayout layout() {
        return table;
    }

    @Override
    public long append(final Object... row) {
        ensureOpen();
        final Object[] checked = table.check(row);
        final long id = nextRowId++;
        for (ProjectionStore p : projections.values()) {
            p.append(id, checked);
        }
        return id;
    }

    /** Writes every buffered row out and makes all files (buckets, directories, IB-trees) durable. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
        for (ProjectionStore p : projections.values()) {
            p.flush();
        }
    }

    @Override
    public QueryResult queryOrdered(final String projection, final long lo, final long hi, final String... columns)
            throws IOException {
        ensureOpen();
        return projection(projection).query(lo, hi, columns);
    }

    /**
     * LDI maintenance (§3.3) on demand: sort-merges the projection's non-compacted buckets on disk into compacted
     * buckets of n rows, and reports ARB (Eq. 7) over the whole projection before and after. Rows still buffered
     * are not touched; {@link #flush()} first to include them.
     */
    public MaintenanceReport maintain(final String projection) throws IOException {
        ensureOpen();
        return projection(projection).maintain();
    }

    /** ARB (Eq. 7) over the projection's buckets on disk; reads every bucket. */
    public double arb(final String projection) throws IOException {
        ensureOpen();
        return projection(projection).arb();
    }

    /** Buckets of {@code projection} (written or being written). */
    public int buckets(final String projection) {
        return projection(projection).buckets();
    }

    /** The storage state of {@code projection}: buckets, non-compacted ones, dead bytes, IB-tree and maintenance. */
    public ProjectionStats stats(final String projection) {
        return projection(projection).stats();
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
    @Override
    public long rows() {
        return nextRowId;
    }

    private ProjectionStore projection(final String name) {
        table.projection(name);
        return projections.get(name);
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
