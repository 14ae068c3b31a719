package io.nearsort.ldi.projection;

import io.nearsort.ldi.bucketing.Arb;
import io.nearsort.ldi.bucketing.Bucket;
import io.nearsort.ldi.bucketing.Bucketizer;
import io.nearsort.ldi.bucketing.BucketizerBuilder;
import io.nearsort.ldi.bucketing.BucketizerStats;
import io.nearsort.ldi.bucketing.KeySpan;
import io.nearsort.ldi.io.BucketLocation;
import io.nearsort.ldi.io.CorruptFileException;
import io.nearsort.ldi.io.IoHandler;
import io.nearsort.ldi.io.RecordFile;
import org.agrona.collections.LongArrayList;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One projection of a {@link ColumnStore}: its LDI (a {@link Bucketizer}), the rows waiting in the main buffer,
 * its bucket file ({@code <name>.ldi}) and its {@link BucketDirectory} (directory file and on-disk IB-tree, §4.1).
 * Buckets are written by the projection's own writer thread, so projections write in parallel during ingest
 * (§4.2); maintenance (§3.3) runs on that thread too, after the writes queued before it.
 */
final class ProjectionStore implements AutoCloseable {
    /** Bucket writes queued to the writer thread before the appending thread waits for the oldest. */
    private static final int MAX_QUEUED_WRITES = 64;
    /** Buckets decoded at a time when measuring ARB over the whole projection. */
    private static final int ARB_BATCH = 256;

    private final ProjectionLayout layout;
    private final RecordFile data;
    private final BucketDirectory directory;
    private final IoHandler io;
    private final Bucketizer bucketizer;
    private final ExecutorService writer;
    private final int bucketRows;
    private final int maintenanceTrigger;
    private final PendingRows pending = new PendingRows();
    private final List<Unwritten> unwritten = new ArrayList<>();
    private final List<Future<?>> writes = new ArrayList<>();
    private int nonCompactedSinceMaintenance;
    private int maintenanceRuns;
    private long bucketsMerged;

    ProjectionStore(final Path dir, final ProjectionLayout layout, final ColumnStoreOptions o, final IoHandler io)
            throws IOException {
        this.layout = layout;
        this.io = io;
        this.bucketRows = o.bucketCapacity();
        this.maintenanceTrigger = o.maintenanceTrigger();
        final String name = layout.name();
        this.data = RecordFile.open(dir.resolve(name + ".ldi"), layout.identity("ldi"));
        try {
            this.directory = new BucketDirectory(dir.resolve(name + ".dir"), dir.resolve(name + ".ibt"),
                    layout.identity("ldi directory v2"), data.path(), data.size(), o.indexNodeUnits(),
                    o.indexFanout(), o.indexCachePages());
        } catch (IOException | RuntimeException e) {
            data.close();
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

    /** Buffers one row's projected values and feeds its key to the LDI. */
    void append(final long rowId, final Object[] row) {
        final Object[] values = layout.project(row);
        final int slot;
        synchronized (this) {
            slot = pending.add(rowId, values);
        }
        bucketizer.add(layout.key(values), slot);
    }

    /** The bucketizer's listener: the bucket's rows leave the buffer and go to the writer thread. */
    private void bucketWritten(final Bucket bucket) {
        final long[] slots = bucket.rowRefs();
        final long[] rowIds = new long[slots.length];
        final List<Object[]> rows = new ArrayList<>(slots.length);
        final long[] keys = bucket.keys();
        final Unwritten u = new Unwritten(keys, rowIds, rows, KeySpan.min(keys), KeySpan.max(keys));
        synchronized (this) {
            for (int i = 0; i < slots.length; i++) {
                rowIds[i] = pending.rowId((int) slots[i]);
                rows.add(pending.remove((int) slots[i]));
            }
            unwritten.add(u);
        }
        writes.add(writer.submit(() -> {
            // Columnar conversion and encoding happen here, off the appending thread.
            final BucketEntry e = write(new StoredBucket(keys, rowIds, StoredBucket.columnsOf(layout.columns(), rows),
                    bucket.intervalLow(), bucket.intervalHigh(), bucket.compacted()));
            synchronized (this) {
                directory.add(e);
                unwritten.remove(u);
            }
            return null;
        }));
        if (!bucket.compacted() && maintenanceTrigger > 0
                && ++nonCompactedSinceMaintenance >= maintenanceTrigger) {
            nonCompactedSinceMaintenance = 0;
            writes.add(writer.submit(() -> sortMerge(false, true)));
        }
        if (writes.size() > MAX_QUEUED_WRITES) {
            awaitWrites(false);
        }
        if (writes.size() > MAX_QUEUED_WRITES) {
            awaitOldestWrite(); // back-pressure: the writer is behind, so the appending thread waits for it
        }
    }

    /** Appends a bucket's record in a write phase (§4.2). */
    private BucketEntry write(final StoredBucket b) throws IOException {
        final ByteBuffer payload = b.encode(layout.columns());
        final long offset = io.writePhase(() -> data.append(payload));
        return new BucketEntry(offset, payload.limit(), b.low, b.high, b.count, KeySpan.max(b.rowIds), b.compacted);
    }

    private void awaitOldestWrite() {
        await(writes.get(0));
        writes.remove(0);
    }

    /** Waits for one queued write (or maintenance run) and rethrows its failure. */
    private void await(final Future<?> f) {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing " + data.path(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("writing " + data.path() + " failed", e.getCause());
        }
    }

    /** Waits for finished writes (all of them when {@code all}) and rethrows a failure. */
    private void awaitWrites(final boolean all) {
        final var it = writes.iterator();
        while (it.hasNext()) {
            final Future<?> f = it.next();
            if (!all && !f.isDone()) {
                continue;
            }
            await(f);
            it.remove();
        }
    }

    /** Writes the buffered rows out, waits for the writer, and makes data, directory and IB-tree durable. */
    void flush() throws IOException {
        bucketizer.drain();
        awaitWrites(true);
        persist();
    }

    private void persist() throws IOException {
        data.force();
        directory.persist();
    }

    /**
     * LDI maintenance (§3.3), on demand: after the queued writes, sort-merges every non-compacted bucket on disk
     * into compacted buckets of n rows, retires the old ones and persists; measures ARB before and after.
     */
    MaintenanceReport maintain() throws IOException {
        final Future<MaintenanceReport> run = writer.submit(() -> sortMerge(true, false));
        awaitWrites(true);
        try {
            return run.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while maintaining " + data.path(), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException("maintaining " + data.path() + " failed", e.getCause());
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
        persist();
        return new MaintenanceReport(victims.size(), written.size(), rows, before, measure ? arb() : Double.NaN,
                background);
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

    /** Reads and decodes buckets through the I/O handler, in the order given. */
    private List<StoredBucket> read(final List<BucketEntry> entries) throws IOException {
        final List<BucketLocation> locations = new ArrayList<>(entries.size());
        entries.forEach(e -> locations.add(e.location()));
        final Map<BucketLocation, ByteBuffer> bytes = io.read(data, locations);
        final List<StoredBucket> out = new ArrayList<>(entries.size());
        for (BucketLocation loc : locations) {
            try {
                out.add(StoredBucket.decode(bytes.get(loc), layout.columns(), layout.keyColumn()));
            } catch (IllegalStateException e) {
                throw new CorruptFileException(data.path(), loc.offset(), e.getMessage());
            }
        }
        return out;
    }

    /**
     * The rows with keys in {@code [lo, hi]}: buckets found through the IB-tree and read by the I/O handler, plus
     * buckets still being written and rows still in the main buffer.
     */
    QueryResult query(final long lo, final long hi, final String[] names) throws IOException {
        final QueryResultBuilder out = new QueryResultBuilder(layout, lo, hi, names);
        final List<BucketEntry> onDisk;
        final List<Unwritten> inMemory;
        final List<Object[]> bufferedRows = new ArrayList<>();
        final LongArrayList bufferedIds = new LongArrayList();
        final LongArrayList bufferedKeys = new LongArrayList();
        synchronized (this) {
            onDisk = directory.search(lo, hi);
            inMemory = new ArrayList<>(unwritten);
            pending.forEach((id, values) -> {
                final long key = layout.key(values);
                if (key >= lo && key <= hi) {
                    bufferedIds.addLong(id);
                    bufferedKeys.addLong(key);
                    bufferedRows.add(values);
                }
            });
        }
        for (StoredBucket b : read(onDisk)) {
            out.add(b);
        }
        for (Unwritten u : inMemory) {
            if (u.high() >= lo && u.low() <= hi) {
                out.add(StoredBucket.ofRows(layout.columns(), u.keys(), u.rowIds(), u.rows()));
            }
        }
        if (!bufferedRows.isEmpty()) {
            out.add(StoredBucket.ofRows(layout.columns(), bufferedKeys.toLongArray(), bufferedIds.toLongArray(),
                    bufferedRows));
        }
        return out.build(onDisk.size());
    }

    /** A bucket the LDI emitted that the writer thread has not stored yet: its rows as appended. */
    private record Unwritten(long[] keys, long[] rowIds, List<Object[]> rows, long low, long high) {
    }

    ProjectionLayout layout() {
        return layout;
    }

    /** The largest row id stored on disk, -1 for none (row ids continue from it after reopening). */
    long maxRowId() {
        return directory.maxRowId();
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
        return new ProjectionStats(directory.size(), nonCompacted, unwritten.size(), pending.size(), data.size(),
                directory.deadBytes(), directory.indexBuilds(), directory.indexNodeReads(), maintenanceRuns,
                bucketsMerged);
    }

    @Override
    public void close() throws IOException {
        try {
            flush();
        } finally {
            writer.shutdownNow();
            try {
                directory.close();
            } finally {
                data.close();
            }
        }
    }
}
