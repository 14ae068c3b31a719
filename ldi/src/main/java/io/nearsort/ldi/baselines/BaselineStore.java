package io.nearsort.ldi.baselines;

import io.nearsort.ldi.io.IoHandler;
import io.nearsort.ldi.projection.ColumnarStore;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.ProjectionLayout;
import io.nearsort.ldi.projection.QueryResult;
import io.nearsort.ldi.projection.Schema;
import io.nearsort.ldi.projection.TableLayout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the baseline column stores of §5 share: the table layout, row ids, one {@link BaselineProjection} per
 * projection, the I/O handler for query reads (one reader: the baselines get no parallel I/O), and the lifecycle.
 *
 * <p>Baselines exist to be compared with LDI on the same loads and queries: their runs are checksummed and forced
 * at {@link #flush()}, but they keep no manifest, so they are not reopenable; they need an empty directory, and
 * {@link #close()} deletes their run files. One thread appends and flushes; queries run on that thread too.
 */
public abstract class BaselineStore implements ColumnarStore {
    private final TableLayout table;
    private final Map<String, BaselineProjection> projections = new LinkedHashMap<>();
    private final IoHandler io = new IoHandler(1, 2.0, 8);
    private final Path directory;
    private long nextRowId;
    private boolean closed;

    /**
     * Creates the store's directory if needed and one projection per {@code projections}.
     *
     * @param directory   where the run files go; created when absent, and must be empty
     * @param schema      the table's columns
     * @param projections the projections, which partition the schema's columns
     * @param bufferRows  B: rows a projection buffers in memory before they become a run, at least 1
     * @param blockRows   rows per block of a run file (the unit a query reads), at least 1
     * @throws IOException when the directory cannot be created or listed
     * @throws IllegalArgumentException when {@code bufferRows} or {@code blockRows} is below 1, the directory is not
     *         empty, or the schema and projections do not form a valid table layout
     */
    protected BaselineStore(final Path directory, final Schema schema, final List<Projection> projections,
                            final int bufferRows, final int blockRows) throws IOException {
        if (bufferRows < 1) {
            throw new IllegalArgumentException("bufferRows (B) must be at least 1 (got: " + bufferRows + ")");
        }
        if (blockRows < 1) {
            throw new IllegalArgumentException("blockRows must be at least 1 (got: " + blockRows + ")");
        }
        this.table = new TableLayout(schema, projections);
        this.directory = directory;
        Files.createDirectories(directory);
        try (Stream<Path> existing = Files.list(directory)) {
            if (existing.findAny().isPresent()) {
                throw new IllegalArgumentException("directory " + directory + " is not empty: baseline stores are"
                        + " not reopenable and start in an empty directory");
            }
        }
        for (ProjectionLayout p : table.projections()) {
            this.projections.put(p.name(), new BaselineProjection(directory, p, bufferRows, blockRows, io));
        }
    }

    /**
     * A projection's buffer is full: its rows must go to disk as a run.
     *
     * @param p the projection whose buffer is full
     * @throws IOException when writing or merging run files fails
     */
    protected abstract void bufferFull(BaselineProjection p) throws IOException;

    /**
     * Makes the projection's state durable (and, for Sorted_Col, fully sorted).
     *
     * @param p the projection to make durable
     * @throws IOException when writing, merging or forcing run files fails
     */
    protected abstract void flush(BaselineProjection p) throws IOException;

    /**
     * The runs a query on {@code p} must look at.
     *
     * @param p the projection queried
     * @return its run files on disk (the in-memory buffer is not among them)
     */
    protected abstract List<RunFile> runs(BaselineProjection p);

    /**
     * Deletes the projection's run files.
     *
     * @param p the projection whose runs are deleted
     * @throws IOException when a run file cannot be closed or deleted
     */
    protected abstract void deleteRuns(BaselineProjection p) throws IOException;

    @Override
    public TableLayout layout() {
        return table;
    }

    @Override
    public long append(final Object... row) {
        ensureOpen();
        final Object[] checked = table.check(row);
        final long id = nextRowId++;
        try {
            for (BaselineProjection p : projections.values()) {
                if (p.append(id, checked)) {
                    bufferFull(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing a run in " + directory + " failed", e);
        }
        return id;
    }

    @Override
    public void flush() throws IOException {
        ensureOpen();
        for (BaselineProjection p : projections.values()) {
            flush(p);
        }
    }

    @Override
    public QueryResult queryOrdered(final String projection, final long lo, final long hi, final String... columns)
            throws IOException {
        ensureOpen();
        final BaselineProjection p = projection(projection);
        return p.query(runs(p), lo, hi, columns);
    }

    @Override
    public long rows() {
        return nextRowId;
    }

    /**
     * The counters of {@code projection}: runs and bytes written, tuples read back by merges.
     *
     * @param projection the projection's name
     * @return a snapshot of its counters, with the number of runs a query looks at now
     * @throws IllegalArgumentException when no projection has that name
     */
    public BaselineStats stats(final String projection) {
        final BaselineProjection p = projection(projection);
        return new BaselineStats(p.runsWritten(), p.bytesWritten(), p.tuplesWritten(), p.tuplesRead(), runs(p).size());
    }

    /**
     * The projection named {@code name}.
     *
     * @param name the projection's name
     * @return the store's state of that projection
     * @throws IllegalArgumentException when no projection has that name
     */
    protected BaselineProjection projection(final String name) {
        table.projection(name);
        return projections.get(name);
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(getClass().getSimpleName() + " is closed");
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            for (BaselineProjection p : projections.values()) {
                deleteRuns(p);
            }
        } finally {
            io.close();
        }
    }
}
