package io.nearsort.ldi.projection;

import io.nearsort.ldi.bucketing.Arb;
import io.nearsort.ldi.bucketing.Bucket;
import io.nearsort.ldi.bucketing.Bucketizer;
import io.nearsort.ldi.bucketing.BucketizerBuilder;
import io.nearsort.ldi.bucketing.BucketizerStats;
import io.nearsort.ldi.commit.BucketEntry;
import io.nearsort.ldi.commit.ProjectionCommit;
import io.nearsort.ldi.commit.ProjectionState;
import io.nearsort.ldi.io.BucketLocation;
import io.nearsort.ldi.io.BucketPointer;
import io.nearsort.core.CorruptFileException;
import io.nearsort.ldi.io.IoHandler;
import io.nearsort.ldi.io.RecordFile;
import io.nearsort.ldi.io.Segments;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One projection of a {@link ColumnStore}: its LDI (a {@link Bucketizer}), the rows waiting in the main buffer
 * ({@link PendingColumns}), its bucket file cut into {@link Segments} and its {@link BucketDirectory} (live buckets
 * and on-disk IB-tree, §4.1). Buckets are written by the projection's own writer thread, so projections write in
 * parallel during ingest (§4.2); maintenance (§3.3) and space reclamation run on that thread too, between bucket
 * writes.
 *
 * <p>Space reclamation: a sealed segment whose dead bytes (buckets retired by maintenance) reach a fraction of it
 * has its live buckets copied, one bucket per writer task, to the active segment; each copy retires the old entry.
 * Once a segment holds no live bucket, no retained commit point refers to it and no query reads it, it is deleted
 * after a commit.
 */
final class ProjectionStore implements AutoCloseable {
    /** Bucket writes queued to the writer thread before the appending thread waits for the oldest. */
    static final int MAX_QUEUED_WRITES = 64;
    /** Buckets decoded at a time when measuring ARB over the whole projection. */
    private static final int ARB_BATCH = 256;

    private final ProjectionLayout layout;
    private final Segments segments;
    private final BucketDirectory directory;
    private final IoHandler io;
    private final Bucketizer bucketizer;
    private final ExecutorService writer;
    private final int bucketRows;
    private final int maintenanceTrigger;
    private final PendingColumns pending;
    private final List<StoredBucket> unwritten = new ArrayList<>();
    private final List<Future<?>> writes = new ArrayList<>();
    private final List<Future<?>> maintenance = new ArrayList<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final Object reclaimLock = new Object();
    private Future<ReclaimReport> reclaiming;
    private volatile boolean closing;
    /** The writer thread's buffer for bucket encodings, reused (heap). */
    private ByteBuffer encodeBuffer;
    private int nonCompactedSinceMaintenance;
    private int maintenanceRuns;
    private long bucketsMerged;
    private long bucketsMoved;
    private long bytesMoved;
    private long segmentsDeleted;
    private long bytesReclaimed;

    ProjectionStore(final Path dir, final ProjectionLayout layout, final ColumnStoreOptions o, final IoHandler io,
                    final ProjectionState state, final Set<Integer> retainedSegments) throws IOException {
        this.layout = layout;
        this.io = io;
        this.bucketRows = o.bucketCapacity();
        this.maintenanceTrigger = o.maintenanceTrigger();
        this.pending = new PendingColumns(layout);
        final String name = layout.name();
        final java.util.TreeSet<Integer> referenced = new java.util.TreeSet<>(retainedSegments);
        for (BucketEntry e : state.live()) {
            referenced.add(e.segment());
        }
        this.segments = Segments.open(o.fileIo(), dir, name, layout.identity("ldi segment"), o.segmentBytes(),
                state.activeSegment(), state.activeEnd(), state.nextSegment(), referenced);
        try {
            for (BucketEntry e : state.live()) {
                final long fileEnd = segments.has(e.segment())
                        ? segments.file(e.segment()).size() : 0;
                if (e.location().end() > fileEnd || e.high() < e.low() || e.count() < 1) {
                    throw new CorruptFileException(Segments.path(dir, name, e.segment()), e.location().offset(),
                            "bucket of " + e.count() + " rows listed by the manifest lies beyond the end of the"
                                    + " segment (" + fileEnd + " bytes): truncated");
                }
            }
            this.directory = new BucketDirectory(o.fileIo(), dir.resolve(name + ".ibt"), state.live(),
                    o.indexNodeUnits(), o.indexFanout(), o.indexCachePages());
        } catch (IOException | RuntimeException e) {
            segments.close();
            throw e;
        }
        final BucketizerBuilder ldi = Bucketizer.builder().trainingPrefix(o.trainingPrefix());
        if (o.fanout() > 0) {
            ldi.fanout(o.fanout());
        } else {
            ldi.intervalLoad((int) Math.max(1, (long) o.bucketCapacity() * o.trainingPrefix() / o.bufferCapacity()));
        }
        this.bucketizer = ldi
                .bufferCapacity(o.bufferCapacity()).bucketCapacity(o.bucketCapacity())
                .windowSize(o.windowSize()).driftThresholds(o.phiMax(), o.phiMin())
                .onBucket(this::bucketWritten)
                .build();
        this.writer = Executors.newSingleThreadExecutor(r -> {
            final Thread t = new Thread(r, "ldi-writer-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Buffers one checked row (values in schema order) and feeds its key to the LDI. */
    void append(final long rowId, final Object[] row) {
        final int slot;
        synchronized (this) {
            slot = pending.add(rowId, row);
        }
        bucketizer.add(pending.key(slot), slot);
    }

    /** Buffers rows {@code [from, to)} of a checked batch, the first as row {@code firstRowId}. */
    void append(final long firstRowId, final ColumnBatch batch, final int from, final int to) {
        final int[] slots = new int[to - from];
        synchronized (this) {
            pending.add(firstRowId, batch, from, to, slots);
        }
        // Outside the lock: a bucket the LDI completes may make this thread wait for the writer, which needs it.
        for (int slot : slots) {
            bucketizer.add(pending.key(slot), slot);
        }
    }

    /** The bucketizer's listener: the bucket's rows leave the buffer and go to the writer thread. */
    private void bucketWritten(final Bucket bucket) {
        final StoredBucket block;
        synchronized (this) {
            block = pending.take(bucket.rowRefs(), bucket.keys(), bucket.intervalLow(), bucket.intervalHigh(),
                    bucket.compacted());
            unwritten.add(block);
        }
        final long bytes = block.heapBytes();
        queuedBytes.addAndGet(bytes);
        writes.add(writer.submit(() -> {
            try {
                // Encoding happens here, off the appending thread.
                final BucketEntry e = write(block);
                synchronized (this) {
                    directory.add(e);
                    unwritten.remove(block);
                }
            } finally {
                queuedBytes.addAndGet(-bytes);
            }
            return null;
        }));
        if (!bucket.compacted() && maintenanceTrigger > 0
                && ++nonCompactedSinceMaintenance >= maintenanceTrigger) {
            nonCompactedSinceMaintenance = 0;
            maintenance.add(writer.submit(() -> sortMerge(false, true)));
        }
        if (writes.size() > MAX_QUEUED_WRITES) {
            awaitWrites(writes, false);
        }
        if (writes.size() > MAX_QUEUED_WRITES) {
            await(writes.remove(0)); // back-pressure: the writer is behind, so the appending thread waits for it
        }
    }

    /** Appends a bucket's record in a write phase (§4.2). Runs on the writer thread, which owns the encode buffer. */
    private BucketEntry write(final StoredBucket b) throws IOException {
        final ByteBuffer payload = b.encode(layout.columns(), encodeBuffer,
                size -> ByteBuffer.allocate(Math.max(size, 1 << 16)));
        encodeBuffer = payload;
        final int length = payload.remaining();
        final long pointer = io.writePhase(() -> segments.append(payload));
        return new BucketEntry(pointer, length, b.low, b.high, b.count, max(b.rowIds), b.compacted);
    }

    private static long max(final long[] values) {
        long m = Long.MIN_VALUE;
        for (long v : values) {
            m = Math.max(m, v);
        }
        return m;
    }

    /** Waits for one queued task and rethrows its failure, naming the projection's files. */
    private <T> T await(final Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing " + where(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("writing " + where() + " failed: " + e.getCause(), e.getCause());
        }
    }

    /** Waits for finished tasks of {@code list} (all of them when {@code all}) and rethrows a failure. */
    private void awaitWrites(final List<Future<?>> list, final boolean all) {
        final var it = list.iterator();
        while (it.hasNext()) {
            final Future<?> f = it.next();
            if (!all && !f.isDone()) {
                continue;
            }
            await(f);
            it.remove();
        }
    }

    /** Waits until every queued bucket write is done (the writer catches up): frees the memory they hold. */
    void awaitQueuedWrites() {
        awaitWrites(writes, true);
    }

    /** Writes the buffered rows out as buckets and waits for them and for queued maintenance: before a commit. */
    void drain() {
        bucketizer.drain();
        awaitWrites(writes, true);
        awaitWrites(maintenance, true);
    }

    /**
     * The changes since the last commit and the active segment's state, taken together (the writer thread may go on
     * writing meanwhile: what it writes later goes to the next commit).
     */
    Changes takeChanges() {
        synchronized (this) {
            final long[] active = segments.activeState();
            final java.util.TreeSet<Integer> s = directory.liveSegments();
            if (active[1] > 0) {
                s.add((int) active[0]);
            }
            return new Changes(directory.takeChanges(active), s.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    /**
     * A commit's share of one projection: its changes, and the segments the committed state refers to (taken at the
     * same instant: a reclamation that empties a segment right after must not make it look unreferenced).
     */
    record Changes(ProjectionCommit commit, int[] referencedSegments) {
    }

    /** Whether buckets were added or retired since the last commit. */
    boolean hasChanges() {
        return directory.hasChanges();
    }

    /** The largest row id in a live bucket, -1 for none. */
    long maxRowId() {
        return directory.maxRowId();
    }

    /** Forces the segments written since the last call; returns whether a segment file was created meanwhile. */
    boolean forceSegments() throws IOException {
        return segments.force();
    }

    /**
     * After a commit: deletes the segments no live bucket, retained commit point or reader needs any more, and
     * rebuilds the IB-tree file when enough buckets changed.
     */
    void committed(final Set<Integer> retainedSegments) throws IOException {
        final List<Integer> victims = new ArrayList<>();
        synchronized (this) {
            // Numbers before the active segment: a segment the writer starts meanwhile is not among them.
            final List<Integer> numbers = segments.numbers();
            final int active = segments.active();
            final Set<Integer> live = directory.liveSegments();
            for (int s : numbers) {
                if (s != active && !live.contains(s) && !retainedSegments.contains(s) && !directory.pinned(s)) {
                    victims.add(s);
                }
            }
        }
        for (int s : victims) {
            final long bytes = segments.file(s).size();
            segments.delete(s);
            synchronized (this) {
                segmentsDeleted++;
                bytesReclaimed += bytes;
            }
        }
        directory.maybeRebuildIndex(false);
    }

    /**
     * LDI maintenance (§3.3), on demand: after the queued writes, sort-merges every non-compacted bucket on disk
     * into compacted buckets of n rows, retires the old ones; measures ARB before and after.
     */
    MaintenanceReport maintain() throws IOException {
        final Future<MaintenanceReport> run = writer.submit(() -> sortMerge(true, false));
        awaitWrites(writes, true);
        try {
            return run.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while maintaining " + where(), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException failure) {
                throw failure;
            }
            throw new IllegalStateException("maintaining " + where() + " failed", e.getCause());
        }
    }

    /** Runs on the writer thread. */
    private MaintenanceReport sortMerge(final boolean measure, final boolean background) throws IOException {
        final double before = measure ? arb() : Double.NaN;
        final List<BucketEntry> victims = new ArrayList<>();
        for (BucketEntry e : directory.entries()) {
            if (!e.compacted()) {
                victims.add(e);
            }
        }
        if (victims.size() < 2) {
            return new MaintenanceReport(0, 0, 0, before, before, background);
        }
        final List<BlockMerger.BlockSource> runs = new ArrayList<>();
        for (StoredBucket b : read(victims)) {
            runs.add(BlockMerger.single(StoredBucket.sorted(layout.columns(), b)));
        }
        final List<BucketEntry> written = new ArrayList<>();
        final long rows = BlockMerger.merge(layout.columns(), runs, bucketRows, block -> written.add(write(block)));
        synchronized (this) {
            victims.forEach(directory::retire);
            written.forEach(directory::add);
            maintenanceRuns++;
            bucketsMerged += victims.size();
        }
        return new MaintenanceReport(victims.size(), written.size(), rows, before, measure ? arb() : Double.NaN,
                background);
    }

    /**
     * Space reclamation: copies the live buckets of every sealed segment whose dead bytes are at least
     * {@code minDeadFraction} of it (and more than none) to the active segment, one bucket per writer task so that
     * bucket writes and queries wait at most one bucket copy. Starts a run unless one is going on; returns it.
     */
    Future<ReclaimReport> reclaim(final double minDeadFraction) {
        synchronized (reclaimLock) {
            if (reclaiming != null && !reclaiming.isDone()) {
                return reclaiming;
            }
            final List<Integer> chosen = new ArrayList<>();
            final Map<Integer, Long> dead = new LinkedHashMap<>();
            synchronized (this) {
                final int active = segments.active();
                for (int s : segments.numbers()) {
                    final long total = segments.recordBytes(s);
                    final long d = total - directory.liveBytes(s);
                    if (s != active && d > 0 && directory.liveBytes(s) > 0 && d >= minDeadFraction * total) {
                        chosen.add(s);
                        dead.put(s, d);
                    }
                }
            }
            chosen.sort(Comparator.comparingLong((Integer s) -> dead.get(s)).reversed());
            final ReclaimRun run = new ReclaimRun(chosen);
            run.next();
            reclaiming = run.done;
            return run.done;
        }
    }

    /** One reclamation run: a chain of writer tasks, each copying one bucket and queueing the next. */
    private final class ReclaimRun {
        private final List<BucketEntry> todo = new ArrayList<>();
        private final java.util.concurrent.CompletableFuture<ReclaimReport> done =
                new java.util.concurrent.CompletableFuture<>();
        private final int segmentsChosen;
        private int moved;
        private long bytes;
        private int next;

        ReclaimRun(final List<Integer> chosen) {
            segmentsChosen = chosen.size();
            for (int s : chosen) {
                todo.addAll(directory.liveIn(s));
            }
        }

        void next() {
            if (next >= todo.size() || closing) {
                done.complete(new ReclaimReport(layout.name(), segmentsChosen, moved, bytes));
                return;
            }
            final BucketEntry e = todo.get(next++);
            try {
                writer.submit(() -> {
                    try {
                        copy(e);
                        next();
                    } catch (IOException | RuntimeException failure) {
                        done.completeExceptionally(failure);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                done.complete(new ReclaimReport(layout.name(), segmentsChosen, moved, bytes));
            }
        }

        /** Runs on the writer thread: reads the record (verified), appends it to the active segment, switches. */
        private void copy(final BucketEntry e) throws IOException {
            if (!directory.isLive(e)) {
                return; // maintenance retired it meanwhile
            }
            final RecordFile from = segments.file(e.segment());
            final ByteBuffer payload = io.read(from, List.of(e.location())).get(e.location());
            final long pointer = io.writePhase(() -> segments.append(payload));
            synchronized (ProjectionStore.this) {
                if (directory.isLive(e)) {
                    directory.retire(e);
                    directory.add(e.movedTo(pointer));
                    moved++;
                    bytes += e.location().recordBytes();
                    bucketsMoved++;
                    bytesMoved += e.location().recordBytes();
                }
            }
        }
    }

    /** Eq. 7 over every bucket on disk; reads them all. */
    double arb() throws IOException {
        final List<BucketEntry> all = directory.entries();
        final List<long[]> keys = new ArrayList<>(all.size());
        for (int from = 0; from < all.size(); from += ARB_BATCH) {
            for (StoredBucket b : read(all.subList(from, Math.min(all.size(), from + ARB_BATCH)))) {
                keys.add(b.keys);
            }
        }
        return Arb.of(keys);
    }

    /** Reads and decodes buckets through the I/O handler (one request set per segment), in the order given. */
    List<StoredBucket> read(final List<BucketEntry> entries) throws IOException {
        final Map<Integer, List<BucketLocation>> bySegment = new LinkedHashMap<>();
        for (BucketEntry e : entries) {
            bySegment.computeIfAbsent(e.segment(), s -> new ArrayList<>()).add(e.location());
        }
        final Map<Long, ByteBuffer> bytes = new java.util.HashMap<>();
        for (Map.Entry<Integer, List<BucketLocation>> s : bySegment.entrySet()) {
            final Map<BucketLocation, ByteBuffer> read = io.read(segmentFile(s.getKey()), s.getValue());
            read.forEach((loc, b) -> bytes.put(BucketPointer.of(s.getKey(), loc.offset()), b));
        }
        final List<StoredBucket> out = new ArrayList<>(entries.size());
        for (BucketEntry e : entries) {
            try {
                out.add(StoredBucket.decode(bytes.get(e.pointer()), layout.columns(), layout.keyColumn()));
            } catch (IllegalStateException | java.nio.BufferUnderflowException
                     | IndexOutOfBoundsException failure) {
                throw new CorruptFileException(Segments.path(segments.directory(), layout.name(), e.segment()),
                        e.location().offset(), "bucket does not decode: " + failure.getMessage());
            }
        }
        return out;
    }

    private RecordFile segmentFile(final int s) throws IOException {
        try {
            return segments.file(s);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** What a query or cursor reads: pinned on-disk buckets plus copies of the rows in memory, taken together. */
    record Snapshot(List<BucketEntry> onDisk, List<StoredBucket> inMemory) {
    }

    /**
     * The buckets on disk whose key span meets {@code [lo, hi]} (their segments pinned until {@link #release}) and
     * the rows in range still in memory: buckets being written and rows in the main buffer.
     */
    Snapshot snapshot(final long lo, final long hi) throws IOException {
        synchronized (this) {
            final List<BucketEntry> onDisk = directory.search(lo, hi, true);
            final List<StoredBucket> memory = new ArrayList<>();
            for (StoredBucket u : unwritten) {
                if (u.high >= lo && u.low <= hi) {
                    memory.add(u);
                }
            }
            final StoredBucket buffered = pending.copyInRange(lo, hi);
            if (buffered != null) {
                memory.add(buffered);
            }
            return new Snapshot(onDisk, memory);
        }
    }

    /** Releases a snapshot's pins. */
    void release(final Snapshot s) {
        directory.unpin(s.onDisk());
    }

    /** The rows with keys in {@code [lo, hi]}, exact, materialised. */
    QueryResult query(final long lo, final long hi, final String[] names) throws IOException {
        final QueryResultBuilder out = new QueryResultBuilder(layout, lo, hi, names);
        final Snapshot s = snapshot(lo, hi);
        try {
            for (StoredBucket b : read(s.onDisk())) {
                out.add(b);
            }
            s.inMemory().forEach(out::add);
            return out.build(s.onDisk().size());
        } finally {
            release(s);
        }
    }

    ProjectionLayout layout() {
        return layout;
    }

    /** Estimated heap bytes held: rows in the main buffer and buckets queued to the writer. */
    long memoryBytes() {
        return pending.bytes() + queuedBytes.get();
    }

    /** Heap bytes one buffered row takes besides its strings. */
    int fixedRowBytes() {
        return pending.fixedRowBytes();
    }

    synchronized int buckets() {
        return directory.size() + unwritten.size();
    }

    BucketizerStats ldiStats() {
        return bucketizer.stats();
    }

    synchronized ProjectionStats stats() {
        int nonCompacted = 0;
        for (BucketEntry e : directory.entries()) {
            nonCompacted += e.compacted() ? 0 : 1;
        }
        long recordBytes = 0;
        for (int s : segments.numbers()) {
            recordBytes += segments.recordBytes(s);
        }
        final long live = directory.liveBytes();
        return new ProjectionStats(directory.size(), nonCompacted, unwritten.size(), pending.size(), segments.bytes(),
                recordBytes - live, directory.indexBuilds(), directory.indexNodeReads(), maintenanceRuns,
                bucketsMerged, live, segments.numbers().size(), bucketsMoved, bytesMoved, segmentsDeleted,
                bytesReclaimed);
    }

    /** "projection P (files DIR/P.*)", for messages. */
    String where() {
        return "projection " + layout.name() + " (" + segments.directory().resolve(layout.name() + ".*") + ")";
    }

    /**
     * Stops the writer (after the writes queued) and closes the files; {@code committed}: the in-memory state is the
     * last commit's, so the IB-tree file is brought up to date for the next open.
     */
    void close(final boolean committed) throws IOException {
        closing = true;
        writer.shutdown();
        try {
            if (!writer.awaitTermination(60, TimeUnit.SECONDS)) {
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            writer.shutdownNow();
        }
        try {
            if (committed) {
                directory.maybeRebuildIndex(true);
            }
        } finally {
            try {
                directory.close();
            } finally {
                segments.close();
            }
        }
    }

    @Override
    public void close() throws IOException {
        close(false);
    }
}
