package io.nearsort.ldi.projection;

import io.nearsort.core.CorruptFileException;
import io.nearsort.ldi.bucketing.BucketizerStats;
import io.nearsort.ldi.commit.CommitPoint;
import io.nearsort.ldi.commit.Manifest;
import io.nearsort.ldi.commit.ManifestDescriptor;
import io.nearsort.ldi.commit.ProjectionCommit;
import io.nearsort.ldi.commit.ProjectionState;
import io.nearsort.ldi.io.IoHandler;
import io.nearsort.ldi.io.IoStats;
import io.nearsort.ldi.io.NamingFileIo;
import io.nearsort.ldi.io.Segments;
import io.nearsort.ldi.io.StoreLock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A column store whose projections are clustered by LDI (§2.1, §4): rows are appended whole, one at a time
 * ({@link #append(Object...)}) or column-wise in batches ({@link #append(ColumnBatch)}, no boxing); every projection
 * buffers its columns, buckets them by its learned key distribution and writes the buckets column-wise to its own
 * segment files, indexed by an IB-tree. Range queries on a projection's key return the requested columns exactly,
 * materialised ({@link #query}) or streamed in key order in bounded memory ({@link #scan}).
 *
 * <h2>Commit points</h2>
 * {@link #flush(Map)} makes every row appended so far durable, in every projection at once, together with a small
 * map of the caller's (for a stream sink: the next offset of each topic partition, or the checkpoint id) — one
 * record of the store's manifest ({@link ManifestDescriptor}) commits all projections atomically.
 * {@link #lastCommit()} returns it after a reopen. A crash at any moment leaves the store openable at its last
 * completed commit with exactly that commit's rows: what was appended after it is gone. The last
 * {@link ColumnStoreOptions#retainedCommits} commit points are retained, and the store can be reopened at any of
 * them ({@link ColumnStoreOptions.Builder#atCommit}), discarding what came after.
 *
 * <p>For a Kafka Connect sink: {@code flush(Map.of(topicPartition, nextOffset, …))} in {@code preCommit} (return those
 * offsets), {@code lastCommit()} in {@code open} to seek the partitions. For a Flink sink: {@code flush(Map.of(
 * "checkpointId", id))} when a checkpoint is taken; on restore from checkpoint c, reopen
 * {@code atCommit(the commit whose checkpointId is c)}. Open such a store with
 * {@link ColumnStoreOptions.Builder#commitOnClose commitOnClose(false)}, so that only checkpoints commit.
 *
 * <h2>Space</h2>
 * Maintenance (§3.3) sort-merges the non-compacted buckets into compacted ones: in the background on each
 * projection's writer thread once {@link ColumnStoreOptions#maintenanceTrigger} of them were written, or on demand
 * with {@link #maintain}. Space reclamation copies the live buckets out of segment files mostly made of retired
 * buckets, one bucket at a time, and deletes those files once no retained commit point refers to them: in the
 * background after commits ({@link ColumnStoreOptions#reclaimThreshold}) or on demand with {@link #reclaim}.
 * {@link #stats()} reports live and dead bytes.
 *
 * <h2>Operations</h2>
 * One process at a time opens a store: {@value StoreLock#FILE} is locked while it is open. The store keeps rows not
 * yet written and cursor windows within a heap budget ({@link ColumnStoreOptions#memoryBudget}); it has no off-heap
 * memory. Every error names the store directory or the file. Files carry magic numbers, versions and CRC32C
 * checksums: corruption is reported as a {@link CorruptFileException}, never returned as data.
 *
 * <h2>Threads</h2>
 * One thread appends, flushes, maintains, reclaims and closes; any number of threads query concurrently with it (the
 * I/O handler keeps their reads out of the write phases and de-duplicates their bucket reads). A query sees every
 * row whose {@code append} returned before the query started.
 */
public final class ColumnStore implements ColumnarStore {
    /** Rows of a batch appended between two memory-budget checks. */
    private static final int BATCH_CHUNK = 256;
    /** The size below which the manifest is not rewritten. */
    private static final long REWRITE_BYTES = Manifest.DEFAULT_REWRITE_BYTES;

    private final Path directory;
    private final TableLayout table;
    private final ColumnStoreOptions options;
    private final StoreLock lock;
    private final Manifest manifest;
    private final Map<String, ProjectionStore> projections = new LinkedHashMap<>();
    private final List<ProjectionStore> ordered = new ArrayList<>();
    private final IoHandler io;
    private final AtomicLong cursorBytes = new AtomicLong();
    private final int fixedRowBytes;
    private long nextRowId;
    private long committedRows;
    private boolean closed;
    private volatile RuntimeException failure;

    private ColumnStore(final Path directory, final TableLayout given, final ColumnStoreOptions options)
            throws IOException {
        this.directory = directory;
        this.options = options;
        if (given != null) {
            checkBudgetFitsBuffers(given, options, directory);
            Files.createDirectories(directory);
        } else if (!Manifest.exists(directory)) {
            throw new java.nio.file.NoSuchFileException(directory.resolve(ManifestDescriptor.FILE).toString(), null,
                    "no column store in " + directory);
        }
        this.lock = StoreLock.acquire(options.fileIo(), directory);
        IoHandler handler = null;
        Manifest log = null;
        try {
            options.fileIo().deleteIfExists(directory.resolve(ManifestDescriptor.TEMP));
            if (!Manifest.exists(directory)) {
                refuseForeignFiles(directory, given);
                log = Manifest.create(options.fileIo(), directory, given.encode(), given.projections().size(),
                        options.retainedCommits(), REWRITE_BYTES);
            } else {
                final int count = given != null ? given.projections().size()
                        : TableLayout.decode(peekLayout(options.fileIo(), directory)).projections().size();
                log = Manifest.open(options.fileIo(), directory, count, options.retainedCommits(),
                        options.commitPoint(), REWRITE_BYTES);
            }
            final TableLayout stored;
            try {
                stored = TableLayout.decode(log.layout());
            } catch (IllegalStateException e) {
                throw new CorruptFileException(log.path(), 0, e.getMessage());
            }
            if (given != null && !given.equals(stored)) {
                throw new IllegalArgumentException(log.path() + " was written for " + stored.describe() + ", not "
                        + given.describe());
            }
            this.table = stored;
            checkBudgetFitsBuffers(stored, options, directory);
            handler = new IoHandler(options.readerThreads(), options.theta(), options.thetaGroup());
            final List<ProjectionState> states = log.openedState();
            for (int p = 0; p < table.projections().size(); p++) {
                final ProjectionLayout layout = table.projections().get(p);
                final ProjectionStore store = new ProjectionStore(directory, layout, options, handler,
                        states.get(p), log.retainedSegments(p));
                projections.put(layout.name(), store);
                ordered.add(store);
            }
            this.fixedRowBytes = fixedRowBytes(table);
        } catch (IOException | RuntimeException e) {
            for (ProjectionStore s : ordered) {
                try {
                    s.close(false);
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            if (handler != null) {
                handler.close();
            }
            if (log != null) {
                log.close();
            }
            lock.close();
            throw e;
        }
        this.io = handler;
        this.manifest = log;
        this.committedRows = manifest.lastCommit().map(CommitPoint::rows).orElse(0L);
        this.nextRowId = committedRows;
        for (ProjectionStore s : ordered) {
            if (s.maxRowId() >= committedRows) {
                close();
                throw new CorruptFileException(manifest.path(), manifest.bytes(), "projection "
                        + s.layout().name() + " holds row " + s.maxRowId() + " but the last commit has "
                        + committedRows + " rows");
            }
        }
    }

    /** The layout of an existing store, read without opening it for writing. */
    private static byte[] peekLayout(final io.nearsort.core.io.FileIo io, final Path directory)
            throws IOException {
        return Manifest.readLayout(io, directory);
    }

    /** A new store must not be created over the files of an old or foreign one. */
    private static void refuseForeignFiles(final Path dir, final TableLayout layout) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                final String name = f.getFileName().toString();
                if (name.endsWith(".ldi") || name.endsWith(".dir")) {
                    throw new IllegalArgumentException(dir + " holds " + name + ", a column store file of the earlier"
                            + " format (one .ldi file per projection, no manifest), which this version does not read");
                }
                for (ProjectionLayout p : layout.projections()) {
                    if (!Segments.list(dir, p.name()).isEmpty()) {
                        throw new IllegalArgumentException(dir + " holds segment files of projection " + p.name()
                                + " but no " + ManifestDescriptor.FILE + ": not creating a store over them");
                    }
                }
            }
        }
    }

    /**
     * Opens (or creates) the store in {@code directory} with the default options.
     *
     * @param directory   the store's directory, created if missing
     * @param schema      the table's columns
     * @param projections the projections: at least one, no column in two of them
     * @return the open store; it holds the store's lock until closed
     * @throws IOException if the store cannot be created or read, or it is open elsewhere
     *                     ({@link StoreLock.StoreLockedException})
     */
    public static ColumnStore open(final Path directory, final Schema schema, final List<Projection> projections)
            throws IOException {
        return open(directory, schema, projections, ColumnStoreOptions.defaults());
    }

    /**
     * Opens (or creates) the store in {@code directory}; an existing store must have this schema and projections.
     *
     * @param directory   the store's directory, created if missing
     * @param schema      the table's columns
     * @param projections the projections: at least one, no column in two of them
     * @param options     the tuning; the buffers it configures must fit its memory budget
     * @return the open store; it holds the store's lock until closed
     * @throws IOException if the store cannot be created or read, or it is open elsewhere
     *                     ({@link StoreLock.StoreLockedException})
     */
    public static ColumnStore open(final Path directory, final Schema schema, final List<Projection> projections,
                                   final ColumnStoreOptions options) throws IOException {
        return new ColumnStore(directory, new TableLayout(schema, projections), namingFiles(options));
    }

    /**
     * Opens the existing store in {@code directory} with the schema and projections it was created with.
     *
     * @param directory the directory of an existing store
     * @return the open store; it holds the store's lock until closed
     * @throws IOException if there is no store in {@code directory} ({@link java.nio.file.NoSuchFileException}), its
     *                     files cannot be read, or it is open elsewhere ({@link StoreLock.StoreLockedException})
     */
    public static ColumnStore open(final Path directory) throws IOException {
        return open(directory, ColumnStoreOptions.defaults());
    }

    /**
     * Opens the existing store in {@code directory} with its own schema and projections.
     *
     * @param directory the directory of an existing store
     * @param options   the tuning; the buffers it configures must fit its memory budget
     * @return the open store; it holds the store's lock until closed
     * @throws IOException if there is no store in {@code directory} ({@link java.nio.file.NoSuchFileException}), its
     *                     files cannot be read, or it is open elsewhere ({@link StoreLock.StoreLockedException})
     */
    public static ColumnStore open(final Path directory, final ColumnStoreOptions options) throws IOException {
        return new ColumnStore(directory, null, namingFiles(options));
    }

    /** The options with their {@link ColumnStoreOptions#fileIo} wrapped so that every I/O error names its file. */
    private static ColumnStoreOptions namingFiles(final ColumnStoreOptions options) {
        return options.toBuilder().fileIo(NamingFileIo.of(options.fileIo())).build();
    }

    /** One of the {@code open} calls, for {@link #openWhenReleased}. */
    @FunctionalInterface
    public interface Opener {
        /**
         * Opens the store.
         *
         * @return the open store
         * @throws IOException as the {@code open} call does: {@link StoreLock.StoreLockedException} while another
         *                     owner has the store open
         */
        ColumnStore open() throws IOException;
    }

    /**
     * Runs {@code opener} (one of the {@code open} calls), retrying every 100 ms while the store is open for writing
     * elsewhere ({@link StoreLock.StoreLockedException}), for up to {@code timeoutMillis}: for an owner that takes a
     * store over from a previous one that may still be closing it (a stream sink's task or writer after a restart or
     * rebalance, in the same process or another).
     *
     * @param timeoutMillis how long to keep retrying, in milliseconds, at least 0 (0: a single attempt)
     * @param opener        the {@code open} call to run and retry
     * @return the store {@code opener} opened
     * @throws StoreLock.StoreLockedException the last one, if the store is still locked after {@code timeoutMillis}
     * @throws java.io.InterruptedIOException if the thread is interrupted while waiting (its flag is set again)
     */
    public static ColumnStore openWhenReleased(final long timeoutMillis, final Opener opener) throws IOException {
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("timeoutMillis must not be negative (got: " + timeoutMillis + ")");
        }
        final long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            try {
                return opener.open();
            } catch (StoreLock.StoreLockedException locked) {
                final long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw locked;
                }
                try {
                    Thread.sleep(Math.min(100, Math.max(1, left / 1_000_000L)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    final java.io.InterruptedIOException interrupted = new java.io.InterruptedIOException(
                            "interrupted while waiting for the lock: " + locked.getMessage());
                    interrupted.addSuppressed(locked);
                    throw interrupted;
                }
            }
        }
    }

    @Override
    public TableLayout layout() {
        return table;
    }

    /**
     * The store's directory.
     *
     * @return the directory the store was opened in
     */
    public Path directory() {
        return directory;
    }

    @Override
    public long append(final Object... row) {
        ensureWritable();
        final Object[] checked = table.check(row);
        long strings = 0;
        for (Object v : checked) {
            if (v instanceof String s) {
                strings += PendingColumns.stringBytes(s);
            }
        }
        reserve(fixedRowBytes + strings, 0, 1);
        final long id = nextRowId++;
        try {
            for (ProjectionStore p : ordered) {
                p.append(id, checked);
            }
        } catch (RuntimeException e) {
            throw fail(e);
        }
        return id;
    }

    /**
     * Appends the batch's rows, column-wise without boxing, to every projection; returns the first row's id (the
     * others follow it). The batch is checked whole before any row is appended; the store keeps copies, so the
     * batch may be refilled when this returns.
     *
     * @param batch rows of the store's schema: its first {@link ColumnBatch#rows()} values of every column
     * @return the first row's id (with no rows, the id the next row will get)
     * @throws IllegalArgumentException     naming the column and row of a value its column does not accept
     * @throws MemoryBudgetExceededException if the store's memory budget would be exceeded; the rows from the one
     *                                       named on were not appended
     */
    public long append(final ColumnBatch batch) {
        ensureWritable();
        batch.check(table.schema());
        final long first = nextRowId;
        final int n = batch.rows();
        for (int from = 0; from < n; from += BATCH_CHUNK) {
            final int to = Math.min(n, from + BATCH_CHUNK);
            long strings = 0;
            for (int c = 0; c < table.schema().size(); c++) {
                if (batch.column(c) instanceof String[] s) {
                    for (int i = from; i < to; i++) {
                        strings += PendingColumns.stringBytes(s[i]);
                    }
                }
            }
            reserve((long) fixedRowBytes * (to - from) + strings, from, n);
            try {
                for (ProjectionStore p : ordered) {
                    p.append(nextRowId, batch, from, to);
                }
            } catch (RuntimeException e) {
                throw fail(e);
            }
            nextRowId += to - from;
        }
        return first;
    }

    /**
     * Checks that {@code bytes} more fit the memory budget, waiting for the writers to catch up first if they do not.
     */
    private void reserve(final long bytes, final int row, final int rows) {
        if (memoryBytes() + bytes <= options.memoryBudget()) {
            return;
        }
        for (ProjectionStore p : ordered) {
            try {
                p.awaitQueuedWrites();
            } catch (RuntimeException e) {
                throw fail(e);
            }
        }
        final long used = memoryBytes();
        if (used + bytes > options.memoryBudget()) {
            final StringBuilder held = new StringBuilder();
            for (ProjectionStore p : ordered) {
                held.append(held.length() == 0 ? "" : ", ").append(p.layout().name()).append(' ')
                        .append(p.memoryBytes());
            }
            throw new MemoryBudgetExceededException("column store " + directory + ": "
                    + (rows == 1 ? "the row" : "rows " + row + ".." + (rows - 1) + " of the batch (the rows before"
                    + " were appended)") + " would take the store to " + (used + bytes) + " bytes, over its memory"
                    + " budget of " + options.memoryBudget() + " bytes (held: " + held + " bytes, cursors "
                    + cursorBytes.get() + "; each projection's main buffer holds bufferCapacity = "
                    + options.bufferCapacity() + " rows: raise memoryBudget or lower bufferCapacity)");
        }
    }

    /** Heap bytes held for rows not yet written and open cursors. */
    private long memoryBytes() {
        long sum = cursorBytes.get();
        for (ProjectionStore p : ordered) {
            sum += p.memoryBytes();
        }
        return sum;
    }

    /** Heap bytes a buffered row takes over all projections, strings aside ({@link PendingColumns}). */
    private static int fixedRowBytes(final TableLayout table) {
        int bytes = 0;
        for (ProjectionLayout p : table.projections()) {
            bytes += PendingColumns.fixedRowBytes(p);
        }
        return bytes;
    }

    /** The buffers the options configure must fit the memory budget before a single string is stored. */
    private static void checkBudgetFitsBuffers(final TableLayout table, final ColumnStoreOptions options,
                                               final Path directory) {
        final long buffered = Math.max(options.bufferCapacity(), options.trainingPrefix());
        final long rows = buffered + (long) (ProjectionStore.MAX_QUEUED_WRITES + 1) * options.bucketCapacity();
        final long needed = rows * fixedRowBytes(table);
        if (needed > options.memoryBudget()) {
            throw new IllegalArgumentException("memoryBudget of " + options.memoryBudget() + " bytes is below what "
                    + "the buffers of " + directory + " need before any string: " + needed + " bytes (" + buffered
                    + " buffered rows and " + (ProjectionStore.MAX_QUEUED_WRITES + 1) + " queued buckets of "
                    + options.bucketCapacity() + " rows, " + fixedRowBytes(table) + " bytes a row over all"
                    + " projections)");
        }
    }

    /** Reserves a cursor's memory; releases it with {@link #releaseMemory}. */
    private void reserveCursor(final long bytes) {
        if (memoryBytes() + bytes > options.memoryBudget()) {
            throw new MemoryBudgetExceededException("column store " + directory + ": a cursor of "
                    + options.cursorWindowRows() + " rows a pass needs " + bytes + " bytes; with "
                    + memoryBytes() + " held that is over the memory budget of " + options.memoryBudget()
                    + " bytes (lower cursorWindowRows or raise memoryBudget)");
        }
        cursorBytes.addAndGet(bytes);
    }

    void releaseMemory(final long bytes) {
        cursorBytes.addAndGet(-bytes);
    }

    /**
     * Commits with the metadata of the last commit (none before the first): every row appended so far becomes
     * durable.
     */
    @Override
    public void flush() throws IOException {
        flush(manifest.lastCommit().map(CommitPoint::metadata).orElse(Map.of()));
    }

    /**
     * Makes every row appended so far durable in all projections, atomically with {@code metadata}, and returns the
     * commit point. Rows still in the main buffers are written out as buckets first. After a failure the store must
     * be reopened (it then opens at its last completed commit); every call until then throws.
     *
     * @param metadata the caller's map, at most {@link CommitPoint#MAX_METADATA_BYTES} encoded
     * @return the new commit point
     * @throws IOException if writing or forcing the files or the manifest fails; the store must then be reopened
     */
    public CommitPoint flush(final Map<String, String> metadata) throws IOException {
        return commit(metadata, true);
    }

    private CommitPoint commit(final Map<String, String> metadata, final boolean startReclamation)
            throws IOException {
        ensureWritable();
        CommitPoint.check(metadata);
        try {
            for (ProjectionStore p : ordered) {
                p.drain();
            }
            final List<ProjectionCommit> changes = new ArrayList<>();
            final int[][] segments = new int[ordered.size()][];
            for (int p = 0; p < ordered.size(); p++) {
                final ProjectionStore.Changes c = ordered.get(p).takeChanges();
                changes.add(c.commit());
                segments[p] = c.referencedSegments();
            }
            boolean newFiles = false;
            for (ProjectionStore p : ordered) {
                newFiles |= p.forceSegments();
            }
            if (newFiles) {
                options.fileIo().forceDirectory(directory);
            }
            final CommitPoint point = manifest.commit(metadata, nextRowId, changes, segments);
            committedRows = point.rows();
            afterCommit(point, startReclamation);
            return point;
        } catch (IOException e) {
            fail(new IllegalStateException(e.getMessage(), e));
            throw e;
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /**
     * What follows a durable commit: rewriting the manifest when due, deleting the segments no longer referred to,
     * rebuilding the IB-tree files, starting background reclamation. The commit stands whatever happens here, so
     * {@code flush} returns it (issue 22: a flush that throws has not committed); a failure makes the store refuse
     * further writes, naming it, until it is closed and reopened, which repairs what was left half done (unreferenced
     * segments are deleted and a stale IB-tree file rebuilt at open).
     */
    private void afterCommit(final CommitPoint point, final boolean startReclamation) {
        try {
            manifest.rewriteIfDue();
            for (int p = 0; p < ordered.size(); p++) {
                ordered.get(p).committed(manifest.retainedSegments(p));
            }
            if (startReclamation && options.reclaimThreshold() > 0) {
                for (ProjectionStore p : ordered) {
                    p.reclaim(options.reclaimThreshold());
                }
            }
        } catch (IOException | RuntimeException e) {
            fail(new IllegalStateException("commit " + point.id() + " of " + directory + " is durable, but what"
                    + " follows it failed: " + e.getMessage(), e));
        }
    }

    /**
     * The last completed commit point, empty before the first.
     *
     * @return the last commit point, or empty if the store was never committed
     */
    public Optional<CommitPoint> lastCommit() {
        ensureOpen();
        return manifest.lastCommit();
    }

    /**
     * The retained commit points, oldest first: the store can be reopened at any of them.
     *
     * @return the retained commit points, oldest first; empty before the first commit
     */
    public List<CommitPoint> commits() {
        ensureOpen();
        return manifest.commits();
    }

    @Override
    public QueryResult queryOrdered(final String projection, final long lo, final long hi, final String... columns)
            throws IOException {
        ensureOpen();
        return projection(projection).query(lo, hi, columns);
    }

    /**
     * The rows of {@code projection} whose LONG key lies in {@code [lo, hi]}, with the requested columns, streamed
     * in key order (equal keys by row id) in bounded memory; see {@link RowCursor}. Close the cursor.
     *
     * @param projection the projection's name; its key must be a LONG column
     * @param lo         the lowest key, inclusive
     * @param hi         the highest key, inclusive; below {@code lo}, the cursor has no row
     * @param columns    names of columns of {@code projection}, in the cursor's column order
     * @return an open cursor, before its first row
     * @throws IOException if looking up the buckets in range fails
     */
    public RowCursor scan(final String projection, final long lo, final long hi, final String... columns)
            throws IOException {
        table.projection(projection).requireKeyType(ColumnType.LONG);
        return scanOrdered(projection, lo, hi, columns);
    }

    /**
     * {@link #scan(String, long, long, String...)} for a DOUBLE key.
     *
     * @param projection the projection's name; its key must be a DOUBLE column
     * @param lo         the lowest key, inclusive; not NaN
     * @param hi         the highest key, inclusive; not NaN, below {@code lo} the cursor has no row
     * @param columns    names of columns of {@code projection}, in the cursor's column order
     * @return an open cursor, before its first row
     * @throws IOException if looking up the buckets in range fails
     */
    public RowCursor scan(final String projection, final double lo, final double hi, final String... columns)
            throws IOException {
        table.projection(projection).requireKeyType(ColumnType.DOUBLE);
        return scanOrdered(projection, KeyCodec.ofDouble(lo), KeyCodec.ofDouble(hi), columns);
    }

    /**
     * A cursor over ordered keys {@code [lo, hi]} (a DOUBLE key mapped by {@link KeyCodec#ofDouble}).
     *
     * @param projection the projection's name
     * @param lo         the lowest ordered key, inclusive
     * @param hi         the highest ordered key, inclusive; below {@code lo}, the cursor has no row
     * @param columns    names of columns of {@code projection}, in the cursor's column order
     * @return an open cursor, before its first row; its memory counts against the store's budget until it is closed
     *         or exhausted
     * @throws IOException if looking up the buckets in range fails
     */
    public RowCursor scanOrdered(final String projection, final long lo, final long hi, final String... columns)
            throws IOException {
        ensureOpen();
        final ProjectionStore p = projection(projection);
        p.layout().positions(columns);
        final int window = options.cursorWindowRows();
        final long bytes = RowCursor.windowBytes(window, columns.length)
                + (long) RowCursor.READ_GROUP * options.bucketCapacity() * p.fixedRowBytes();
        reserveCursor(bytes);
        try {
            return new RowCursor(this, p, lo, hi, columns, window, bytes);
        } catch (IOException | RuntimeException e) {
            releaseMemory(bytes);
            throw e;
        }
    }

    /** count/sum/min/max of {@code column} over a LONG-keyed range, streamed over the buckets (any row order). */
    @Override
    public Aggregate aggregate(final String projection, final long lo, final long hi, final String column)
            throws IOException {
        table.projection(projection).requireKeyType(ColumnType.LONG);
        return aggregateOrdered(projection, lo, hi, column);
    }

    /** count/sum/min/max of {@code column} over a DOUBLE-keyed range, streamed over the buckets. */
    @Override
    public Aggregate aggregate(final String projection, final double lo, final double hi, final String column)
            throws IOException {
        table.projection(projection).requireKeyType(ColumnType.DOUBLE);
        return aggregateOrdered(projection, KeyCodec.ofDouble(lo), KeyCodec.ofDouble(hi), column);
    }

    /**
     * count/sum/min/max of {@code column} over ordered keys {@code [lo, hi]}, reading a group of buckets at a time.
     *
     * @param projection the projection's name
     * @param lo         the lowest ordered key, inclusive
     * @param hi         the highest ordered key, inclusive; below {@code lo}, no row matches
     * @param column     a LONG or DOUBLE column of {@code projection}
     * @return count, sum, min and max of the column over the range; count 0 and min/max NaN when no row matches
     * @throws IOException if reading a bucket fails
     */
    public Aggregate aggregateOrdered(final String projection, final long lo, final long hi, final String column)
            throws IOException {
        ensureOpen();
        final ProjectionStore p = projection(projection);
        final int c = p.layout().positions(column)[0];
        final Column type = p.layout().columns().get(c);
        final Aggregate.Accumulator acc = new Aggregate.Accumulator(type);
        if (lo > hi) {
            return acc.result();
        }
        final ProjectionStore.Snapshot s = p.snapshot(lo, hi);
        try {
            final List<StoredBucket> blocks = new ArrayList<>(s.inMemory());
            for (int from = 0; from < s.onDisk().size() || !blocks.isEmpty(); from += RowCursor.READ_GROUP) {
                if (from < s.onDisk().size()) {
                    blocks.addAll(p.read(s.onDisk().subList(from, Math.min(s.onDisk().size(),
                            from + RowCursor.READ_GROUP))));
                }
                for (StoredBucket b : blocks) {
                    for (int r = 0; r < b.count; r++) {
                        if (b.keys[r] >= lo && b.keys[r] <= hi) {
                            if (b.columns[c] instanceof long[] l) {
                                acc.add(l[r]);
                            } else {
                                acc.add(((double[]) b.columns[c])[r]);
                            }
                        }
                    }
                }
                blocks.clear();
            }
        } finally {
            p.release(s);
        }
        return acc.result();
    }

    /**
     * LDI maintenance (§3.3) on demand: sort-merges the projection's non-compacted buckets on disk into compacted
     * buckets of n rows, and reports ARB (Eq. 7) over the whole projection before and after. Rows still buffered
     * are not touched; {@link #flush()} first to include them. The result is durable with the next commit.
     *
     * @param projection the projection's name
     * @return the buckets merged and written, the rows moved, and ARB before and after
     * @throws IOException if reading or writing the projection's buckets fails
     */
    public MaintenanceReport maintain(final String projection) throws IOException {
        ensureWritable();
        try {
            return projection(projection).maintain();
        } catch (IllegalStateException e) {
            throw fail(e);
        }
    }

    /**
     * Space reclamation on demand: copies the live buckets out of every sealed segment of {@code projection} that
     * holds dead bytes at least {@code minDeadFraction} of it (0: any), one bucket at a time between the writer's
     * other work, and waits for the copies. They become durable with the next commit; the emptied segment files are
     * deleted after a commit once no retained commit point refers to them (after {@code retainedCommits} commits)
     * and no reader is reading them.
     *
     * @param projection      the projection's name
     * @param minDeadFraction dead fraction of a sealed segment from which it is reclaimed, in [0, 1] (0: any)
     * @return the segments chosen and the buckets and bytes copied out of them
     * @throws IOException if copying a bucket fails, or the thread is interrupted while waiting for the copies
     */
    public ReclaimReport reclaim(final String projection, final double minDeadFraction) throws IOException {
        ensureWritable();
        if (!(minDeadFraction >= 0 && minDeadFraction <= 1)) {
            throw new IllegalArgumentException("minDeadFraction must be in [0, 1] (got: " + minDeadFraction + ")");
        }
        final ProjectionStore p = projection(projection);
        final Future<ReclaimReport> run = p.reclaim(minDeadFraction);
        try {
            return run.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reclaiming space of " + p.where(), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException failed) {
                fail(new IllegalStateException(failed.getMessage(), failed));
                throw failed;
            }
            throw fail(new IllegalStateException("reclaiming space of " + p.where() + " failed", e.getCause()));
        }
    }

    /**
     * ARB (Eq. 7) over the projection's buckets on disk; reads every bucket.
     *
     * @param projection the projection's name
     * @return ARB: 1 when no bucket holds a key from elsewhere (or no bucket has a key range), smaller as buckets
     *         overlap more
     * @throws IOException if reading a bucket fails
     */
    public double arb(final String projection) throws IOException {
        ensureOpen();
        return projection(projection).arb();
    }

    /**
     * Buckets of {@code projection} (written or being written).
     *
     * @param projection the projection's name
     * @return the buckets on disk plus those queued for the projection's writer
     */
    public int buckets(final String projection) {
        return projection(projection).buckets();
    }

    /**
     * The storage state of {@code projection}: buckets, non-compacted ones, live and dead bytes, IB-tree, …
     *
     * @param projection the projection's name
     * @return the projection's counters, as of this call
     */
    public ProjectionStats stats(final String projection) {
        return projection(projection).stats();
    }

    /**
     * The storage state of the store: live and dead bytes, files, commits, memory, and every projection's.
     *
     * @return the store's counters, as of this call
     */
    public StoreStats stats() {
        ensureOpen();
        final Map<String, ProjectionStats> each = new LinkedHashMap<>();
        long live = 0;
        long dead = 0;
        long files = 0;
        for (ProjectionStore p : ordered) {
            final ProjectionStats s = p.stats();
            each.put(p.layout().name(), s);
            live += s.liveBytes();
            dead += s.deadBytes();
        }
        try (Stream<Path> all = Files.list(directory)) {
            for (Path f : (Iterable<Path>) all::iterator) {
                files += Files.isRegularFile(f) ? Files.size(f) : 0;
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("listing " + directory + " failed", e);
        }
        return new StoreStats(nextRowId, committedRows, live, dead, files, manifest.bytes(), manifest.rewrites(),
                manifest.commits().size(), memoryBytes(), options.memoryBudget(), each);
    }

    /**
     * The LDI counters of {@code projection}'s bucketizer since open.
     *
     * @param projection the projection's name
     * @return the bucketizer's counters
     */
    public BucketizerStats ldiStats(final String projection) {
        return projection(projection).ldiStats();
    }

    /**
     * The I/O handler's counters.
     *
     * @return the counters of the I/O handler all projections read through
     */
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

    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("column store " + directory + " is closed");
        }
    }

    private void ensureWritable() {
        ensureOpen();
        final RuntimeException f = failure;
        if (f != null) {
            throw new IllegalStateException("column store " + directory + " failed (" + f.getMessage() + "); close"
                    + " and reopen it: it opens at its last completed commit", f);
        }
    }

    /** Records that the store's in-memory state can no longer be committed; returns the failure to throw. */
    private RuntimeException fail(final RuntimeException e) {
        if (!(e instanceof IllegalArgumentException) && !(e instanceof MemoryBudgetExceededException)) {
            failure = e;
        }
        return e;
    }

    /**
     * Commits what was appended or changed since the last commit (with its metadata) unless the store was opened
     * {@link ColumnStoreOptions.Builder#commitOnClose without commit on close}, then closes every file and releases the
     * lock. After a failure nothing is committed.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        IOException error = null;
        try {
            if (failure == null && options.commitOnClose()
                    && (nextRowId != committedRows || hasUncommittedChanges())) {
                commit(manifest.lastCommit().map(CommitPoint::metadata).orElse(Map.of()), false);
            }
        } catch (IOException e) {
            error = e;
        } catch (RuntimeException e) {
            error = new IOException("committing " + directory + " on close failed: " + e.getMessage(), e);
        }
        closed = true;
        final boolean committed = failure == null && nextRowId == committedRows && !hasUncommittedChanges();
        for (ProjectionStore p : ordered) {
            try {
                p.close(committed);
            } catch (IOException e) {
                error = firstOf(error, e);
            } catch (RuntimeException e) {
                error = firstOf(error, new IOException("closing " + p.where() + " failed: " + e.getMessage(), e));
            }
        }
        // Every step runs whatever failed before: the lock above all, so that the store can be reopened.
        io.close();
        try {
            manifest.close();
        } catch (IOException e) {
            error = firstOf(error, e);
        }
        try {
            lock.close();
        } catch (IOException e) {
            error = firstOf(error, e);
        }
        if (error != null) {
            throw error;
        }
    }

    /** {@code first}, carrying {@code next} as suppressed, or {@code next} when there is no first failure yet. */
    private static IOException firstOf(final IOException first, final IOException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    private boolean hasUncommittedChanges() {
        for (ProjectionStore p : ordered) {
            if (p.hasChanges()) {
                return true;
            }
        }
        return false;
    }
}
