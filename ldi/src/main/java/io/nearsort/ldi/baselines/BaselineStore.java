package io.nearsort.ldi.baselines;

import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.io.IoHandler;
import io.nearsort.ldi.io.NamingFileIo;
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
import java.util.Objects;
import java.util.stream.Stream;

/**
 * What the baseline column stores of §5 share: the table layout, row ids, one {@link BaselineProjection} per
 * projection, the I/O handler for query reads (one reader: the baselines get no parallel I/O), and the lifecycle.
 *
 * <p>Baselines exist to be compared with LDI on the same loads and queries: their runs are checksummed and forced
 * at {@link #flush()}, but they keep no manifest, so they are not reopenable and promise nothing about what survives
 * a crash; they need an empty directory, and {@link #close()} deletes their run files. One thread appends and
 * flushes; queries run on that thread too.
 *
 * <p>Every run file is created, read, written, forced and deleted through the {@link FileIo} given at construction
 * ({@link FileIo#standard()} by default; the directory itself is created and listed through the standard file
 * system), and every I/O error names its file. A block read back that fails its checksum or does not match what was
 * written there is a {@link io.nearsort.core.CorruptFileException} naming the file, never returned as rows. A
 * failed query changes nothing: the store goes on. A failed {@link #append} or {@link #flush()} may have lost rows
 * (a buffer taken, a merge half done), so the store then refuses every further append, flush and query with an
 * {@link IllegalStateException} naming the directory and the failure; {@link #close()} still deletes every run file
 * and releases every channel (it tries them all, and throws the first failure).
 */
public abstract class BaselineStore implements ColumnarStore {
    private final TableLayout table;
    private final Map<String, BaselineProjection> projections = new LinkedHashMap<>();
    private final IoHandler io = new IoHandler(1, 2.0, 8);
    private final Path directory;
    private long nextRowId;
    private boolean closed;
    /** The failure of an append or flush after which the store refuses use; null while it has none. */
    private Exception failure;

    /**
     * Creates the store's directory if needed and one projection per {@code projections}; its run files are
     * reached through {@link FileIo#standard()}.
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
        this(directory, schema, projections, bufferRows, blockRows, FileIo.standard());
    }

    /**
     * Creates the store's directory if needed and one projection per {@code projections}; its run files are
     * reached through {@code fileIo}.
     *
     * @param directory   where the run files go; created when absent, and must be empty
     * @param schema      the table's columns
     * @param projections the projections, which partition the schema's columns
     * @param bufferRows  B: rows a projection buffers in memory before they become a run, at least 1
     * @param blockRows   rows per block of a run file (the unit a query reads), at least 1
     * @param fileIo      how every run file is opened and deleted ({@link FileIo#standard()}, or a
     *                    {@link io.nearsort.core.io.FaultInjectingFileIo} in tests of I/O faults, issue 22); its
     *                    errors are made to name their file
     * @throws IOException when the directory cannot be created or listed
     * @throws IllegalArgumentException when {@code bufferRows} or {@code blockRows} is below 1, the directory is not
     *         empty, or the schema and projections do not form a valid table layout
     * @throws NullPointerException when {@code fileIo} is null
     */
    protected BaselineStore(final Path directory, final Schema schema, final List<Projection> projections,
                            final int bufferRows, final int blockRows, final FileIo fileIo) throws IOException {
        final FileIo named = NamingFileIo.of(Objects.requireNonNull(fileIo, "fileIo"));
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
            this.projections.put(p.name(), new BaselineProjection(directory, p, bufferRows, blockRows, io, named));
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

    @Override
    public TableLayout layout() {
        return table;
    }

    /**
     * {@inheritDoc}
     *
     * @throws UncheckedIOException when writing or merging run files fails, naming the file in its message (a
     *         {@link io.nearsort.core.CorruptFileException} cause when a run read back is corrupt); the store then
     *         refuses further use
     * @throws IllegalStateException when the store is closed or refuses use after an earlier failure
     */
    @Override
    public long append(final Object... row) {
        ensureUsable();
        final Object[] checked = table.check(row);
        final long id = nextRowId++;
        try {
            for (BaselineProjection p : projections.values()) {
                if (p.append(id, checked)) {
                    bufferFull(p);
                }
            }
        } catch (IOException e) {
            failure = e;
            throw new UncheckedIOException("writing a run in " + directory + " failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            failure = e;
            throw e;
        }
        return id;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IOException when writing, merging or forcing run files fails, naming the file (a
     *         {@link io.nearsort.core.CorruptFileException} when a run read back is corrupt); the store then refuses
     *         further use
     * @throws IllegalStateException when the store is closed or refuses use after an earlier failure
     */
    @Override
    public void flush() throws IOException {
        ensureUsable();
        try {
            for (BaselineProjection p : projections.values()) {
                flush(p);
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
            throw e;
        }
    }

    /**
     * {@inheritDoc}
     *
     * @throws IOException when reading a run file fails, naming the file (a
     *         {@link io.nearsort.core.CorruptFileException} when a block is corrupt); the store goes on
     * @throws IllegalStateException when the store is closed or refuses use after a failed append or flush
     */
    @Override
    public QueryResult queryOrdered(final String projection, final long lo, final long hi, final String... columns)
            throws IOException {
        ensureUsable();
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

    private void ensureUsable() {
        if (closed) {
            throw new IllegalStateException(getClass().getSimpleName() + " is closed");
        }
        if (failure != null) {
            throw new IllegalStateException(getClass().getSimpleName() + " in " + directory + " refuses further use:"
                    + " an append or flush failed (" + failure + "), so its rows may be incomplete; close it (baseline"
                    + " stores are not reopenable)", failure);
        }
    }

    /**
     * Closes and deletes every run file, trying each even when one fails, and releases the store, also after a
     * failure; a second call does nothing.
     *
     * @throws IOException the first run file that could not be deleted, naming it (the others suppressed in it);
     *         every channel is closed all the same
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException first = null;
        try {
            for (BaselineProjection p : projections.values()) {
                try {
                    p.deleteAll();
                } catch (IOException e) {
                    if (first == null) {
                        first = e;
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
        } finally {
            io.close();
        }
        if (first != null) {
            throw first;
        }
    }
}
