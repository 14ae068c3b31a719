package io.nearsort.ldi.projection;

import io.nearsort.core.sortedness.StableMergeSort;
import io.nearsort.ldi.bucketing.Bucket;
import io.nearsort.ldi.bucketing.Bucketizer;
import io.nearsort.ldi.bucketing.BucketizerStats;
import io.nearsort.ldi.bucketing.KeySpan;
import io.nearsort.ldi.ibtree.IntervalBTree;
import io.nearsort.ldi.io.BucketLocation;
import io.nearsort.ldi.io.CorruptFileException;
import io.nearsort.ldi.io.IoHandler;
import io.nearsort.ldi.io.RecordFile;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayList;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * its bucket file ({@code <name>.ldi}), its bucket directory ({@code <name>.dir}, written at flush) and the
 * IB-tree over the buckets' key ranges (§4.1), rebuilt from the directory on open. Buckets are written by the
 * projection's own writer thread, so projections write in parallel during ingest (§4.2).
 */
final class ProjectionStore implements AutoCloseable {
    private static final int DIRECTORY_ENTRY = 8 + 4 + 8 + 8 + 4 + 8;

    private final Projection projection;
    private final List<Column> layout;
    private final int[] schemaPositions;
    private final int keyColumn;
    private final ColumnType keyType;
    private final RecordFile data;
    private final RecordFile directory;
    private final IoHandler io;
    private final Bucketizer bucketizer;
    private final ExecutorService writer;
    private final Long2ObjectHashMap<Object[]> pending = new Long2ObjectHashMap<>();
    private final IntervalBTree index;
    private final List<BucketLocation> locations = new ArrayList<>();
    /** Per bucket, parallel to {@code locations}: low key, high key, rows, largest row id. */
    private final List<long[]> ranges = new ArrayList<>();
    private final List<StoredBucket> unwritten = new ArrayList<>();
    private final List<Future<?>> writes = new ArrayList<>();
    private int inDirectory;

    ProjectionStore(final Path dir, final Schema schema, final Projection projection, final ColumnStoreOptions o,
                    final IoHandler io) throws IOException {
        this.projection = projection;
        this.io = io;
        this.layout = new ArrayList<>();
        this.schemaPositions = new int[projection.columns().size()];
        for (int i = 0; i < schemaPositions.length; i++) {
            schemaPositions[i] = schema.indexOf(projection.columns().get(i));
            layout.add(schema.columns().get(schemaPositions[i]));
        }
        this.keyColumn = projection.columns().indexOf(projection.key());
        this.keyType = layout.get(keyColumn).type();
        if (keyType != ColumnType.LONG && keyType != ColumnType.DOUBLE) {
            throw new IllegalArgumentException("projection " + projection.name() + ": key column " + projection.key()
                    + " must be LONG or DOUBLE, not " + keyType);
        }
        final StringBuilder identity = new StringBuilder("projection ").append(projection.name()).append(" key ")
                .append(projection.key()).append(" columns");
        layout.forEach(c -> identity.append(' ').append(c.describe()));
        this.index = new IntervalBTree(o.indexFanout());
        final RecordFile d = RecordFile.open(dir.resolve(projection.name() + ".ldi"), identity.toString());
        try {
            this.directory = RecordFile.open(dir.resolve(projection.name() + ".dir"), identity + " directory");
        } catch (IOException | RuntimeException e) {
            d.close();
            throw e;
        }
        this.data = d;
        try {
            loadDirectory();
        } catch (IOException | RuntimeException e) {
            data.close();
            directory.close();
            throw e;
        }
        this.bucketizer = Bucketizer.builder()
                .trainingPrefix(o.trainingPrefix()).fanout(o.fanout())
                .bufferCapacity(o.bufferCapacity()).bucketCapacity(o.bucketCapacity())
                .windowSize(o.windowSize()).driftThresholds(o.phiMax(), o.phiMin())
                .onBucket(this::bucketWritten)
                .build();
        this.writer = Executors.newSingleThreadExecutor(r -> {
            final Thread t = new Thread(r, "ldi-writer-" + projection.name());
            t.setDaemon(true);
            return t;
        });
    }

    private void loadDirectory() throws IOException {
        directory.scan((offset, entry) -> {
            if (entry.remaining() != DIRECTORY_ENTRY) {
                throw new CorruptFileException(directory.path(), offset, "directory entry of " + entry.remaining()
                        + " bytes, expected " + DIRECTORY_ENTRY);
            }
            final BucketLocation loc = new BucketLocation(entry.getLong(0), entry.getInt(8));
            final long low = entry.getLong(12);
            final long high = entry.getLong(20);
            if (loc.offset() < 0 || loc.end() > data.size() || high < low) {
                throw new CorruptFileException(data.path(), loc.offset(), "bucket " + locations.size()
                        + " of the directory lies beyond the end of the file (" + data.size() + " bytes): truncated");
            }
            index.insert(low, high, locations.size());
            locations.add(loc);
            ranges.add(new long[] {low, high, entry.getInt(28), entry.getLong(32)});
        });
        inDirectory = locations.size();
    }

    /** Buffers one row's projected values and feeds its key to the LDI. */
    void append(final long rowId, final Object[] row) {
        final Object[] values = new Object[schemaPositions.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = row[schemaPositions[i]];
        }
        synchronized (this) {
            pending.put(rowId, values);
        }
        bucketizer.add(KeyCodec.encode(keyType, values[keyColumn]), rowId);
    }

    /** The bucketizer's listener: the bucket's rows leave the buffer and go to the writer thread. */
    private void bucketWritten(final Bucket bucket) {
        final long[] rowIds = bucket.rowRefs();
        final List<Object[]> rows = new ArrayList<>(rowIds.length);
        final StoredBucket stored;
        synchronized (this) {
            for (long id : rowIds) {
                rows.add(pending.remove(id));
            }
            stored = new StoredBucket(bucket.keys(), rowIds, StoredBucket.columnsOf(layout, rows), bucket.intervalLow(),
                    bucket.intervalHigh(),
                    bucket.compacted());
            unwritten.add(stored);
        }
        final ByteBuffer payload = stored.encode(layout);
        writes.add(writer.submit(() -> {
            final long offset = io.writePhase(() -> data.append(payload));
            synchronized (this) {
                index.insert(stored.low, stored.high, locations.size());
                locations.add(new BucketLocation(offset, payload.limit()));
                ranges.add(new long[] {stored.low, stored.high, stored.count, KeySpan.max(stored.rowIds)});
                unwritten.remove(stored);
            }
            return null;
        }));
        if (writes.size() > 64) {
            awaitWrites(false);
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
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while writing " + data.path(), e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("writing a bucket to " + data.path() + " failed", e.getCause());
            }
            it.remove();
        }
    }

    /** Writes the buffered rows out, waits for the writer, and makes data and directory durable. */
    void flush() throws IOException {
        bucketizer.drain();
        awaitWrites(true);
        data.force();
        final int known;
        synchronized (this) {
            known = locations.size();
        }
        for (int b = inDirectory; b < known; b++) {
            final BucketLocation loc;
            final long[] range;
            synchronized (this) {
                loc = locations.get(b);
                range = ranges.get(b);
            }
            final ByteBuffer entry = ByteBuffer.allocate(DIRECTORY_ENTRY).order(ByteOrder.LITTLE_ENDIAN);
            entry.putLong(loc.offset()).putInt(loc.length()).putLong(range[0]).putLong(range[1])
                    .putInt((int) range[2]).putLong(range[3]).flip();
            directory.append(entry);
        }
        directory.force();
        inDirectory = known;
    }

    /**
     * The rows with keys in {@code [lo, hi]}: buckets found through the IB-tree and read by the I/O handler, plus
     * buckets still being written and rows still in the main buffer.
     */
    QueryResult query(final long lo, final long hi, final String[] names) throws IOException {
        final int[] wanted = new int[names.length];
        final List<Column> columns = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            wanted[i] = projection.columns().indexOf(names[i]);
            if (wanted[i] < 0) {
                throw new IllegalArgumentException("column " + names[i] + " is not in projection "
                        + projection.name() + " " + projection.columns());
            }
            columns.add(layout.get(wanted[i]));
        }
        final List<BucketLocation> toRead = new ArrayList<>();
        final List<StoredBucket> inMemory;
        final List<Object[]> bufferedRows = new ArrayList<>();
        final LongArrayList bufferedIds = new LongArrayList();
        final LongArrayList bufferedKeys = new LongArrayList();
        synchronized (this) {
            index.search(lo, hi, (low, high, bucket) -> toRead.add(locations.get((int) bucket)));
            inMemory = new ArrayList<>(unwritten);
            pending.forEachLong((id, values) -> {
                final long key = KeyCodec.encode(keyType, values[keyColumn]);
                if (key >= lo && key <= hi) {
                    bufferedIds.addLong(id);
                    bufferedKeys.addLong(key);
                    bufferedRows.add(values);
                }
            });
        }
        final ResultBuilder out = new ResultBuilder(columns, wanted);
        final Map<BucketLocation, ByteBuffer> read = io.read(data, toRead);
        for (BucketLocation loc : toRead) {
            final StoredBucket b;
            try {
                b = StoredBucket.decode(read.get(loc), layout, keyColumn);
            } catch (IllegalStateException e) {
                throw new CorruptFileException(data.path(), loc.offset(), e.getMessage());
            }
            out.addBucket(b, lo, hi);
        }
        for (StoredBucket b : inMemory) {
            if (b.high >= lo && b.low <= hi) {
                out.addBucket(b, lo, hi);
            }
        }
        if (!bufferedRows.isEmpty()) {
            out.addBucket(new StoredBucket(bufferedKeys.toLongArray(), bufferedIds.toLongArray(),
                    StoredBucket.columnsOf(layout, bufferedRows), lo, hi, false), lo, hi);
        }
        return out.build(toRead.size());
    }

    Projection projection() {
        return projection;
    }

    ColumnType keyType() {
        return keyType;
    }

    /** The largest row id stored on disk, -1 for none (row ids continue from it after reopening). */
    synchronized long maxRowId() {
        long max = -1;
        for (long[] r : ranges) {
            max = Math.max(max, r[3]);
        }
        return max;
    }

    synchronized int buckets() {
        return locations.size() + unwritten.size();
    }

    BucketizerStats ldiStats() {
        return bucketizer.stats();
    }

    @Override
    public void close() throws IOException {
        try {
            flush();
        } finally {
            writer.shutdownNow();
            data.close();
            directory.close();
        }
    }

    /** Collects where the matching rows are, then copies them column by column in key and row-id order. */
    private static final class ResultBuilder {
        private final List<Column> columns;
        private final int[] wanted;
        private final List<StoredBucket> sources = new ArrayList<>();
        private final IntArrayList sourceOf = new IntArrayList();
        private final IntArrayList rowOf = new IntArrayList();
        private final LongArrayList keys = new LongArrayList();
        private final LongArrayList ids = new LongArrayList();
        private long scanned;

        ResultBuilder(final List<Column> columns, final int[] wanted) {
            this.columns = columns;
            this.wanted = wanted;
        }

        void addBucket(final StoredBucket b, final long lo, final long hi) {
            scanned += b.count;
            final int source = sources.size();
            sources.add(b);
            for (int i = 0; i < b.count; i++) {
                if (b.keys[i] >= lo && b.keys[i] <= hi) {
                    sourceOf.addInt(source);
                    rowOf.addInt(i);
                    keys.addLong(b.keys[i]);
                    ids.addLong(b.rowIds[i]);
                }
            }
        }

        QueryResult build(final long bucketsRead) {
            final int n = keys.size();
            // Order by key, then row id: sort match positions by id, then stably by key.
            final long[] byId = ids.toLongArray();
            final long[] pos = new long[n];
            for (int i = 0; i < n; i++) {
                pos[i] = i;
            }
            StableMergeSort.sortStable(byId, pos, 0, n);
            final long[] sortKeys = new long[n];
            for (int i = 0; i < n; i++) {
                sortKeys[i] = keys.getLong((int) pos[i]);
            }
            StableMergeSort.sortStable(sortKeys, pos, 0, n);
            final long[] outIds = new long[n];
            final Object[] values = new Object[columns.size()];
            for (int c = 0; c < values.length; c++) {
                values[c] = StoredBucket.newColumn(columns.get(c).type(), n);
            }
            for (int i = 0; i < n; i++) {
                final int match = (int) pos[i];
                outIds[i] = ids.getLong(match);
                final StoredBucket source = sources.get(sourceOf.getInt(match));
                final int row = rowOf.getInt(match);
                for (int c = 0; c < values.length; c++) {
                    StoredBucket.copyValue(source.columns[wanted[c]], row, values[c], i);
                }
            }
            return new QueryResult(columns, outIds, values, bucketsRead, scanned);
        }
    }
}
