package io.nearsort.ldi.baselines;

import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.io.BucketLocation;
import io.nearsort.ldi.io.IoHandler;
import io.nearsort.ldi.projection.BlockMerger;
import io.nearsort.ldi.projection.ProjectionLayout;
import io.nearsort.ldi.projection.QueryResult;
import io.nearsort.ldi.projection.QueryResultBuilder;
import io.nearsort.ldi.projection.StoredBucket;
import org.agrona.collections.LongArrayList;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One projection of a baseline store: the in-memory buffer of B rows (an LSM's level 0), its sort into a run file,
 * the sort-merge of runs, and range queries over runs and buffer. What differs between the LSM-like and Sorted_Col
 * stores is only when runs are merged. It keeps every run file it created and has not deleted, whether or not a
 * level still refers to it (a merge that failed midway leaves some that none does), so that {@link #deleteAll}
 * releases them all.
 */
final class BaselineProjection {
    private final ProjectionLayout layout;
    private final Path dir;
    private final int bufferRows;
    private final int blockRows;
    private final IoHandler io;
    private final FileIo fileIo;
    /** Every run file created and not yet deleted, by path; null while its creation is under way or failed. */
    private final Map<Path, RunFile> files = new LinkedHashMap<>();
    private final List<Object[]> buffer = new ArrayList<>();
    private final LongArrayList bufferKeys = new LongArrayList();
    private final LongArrayList bufferIds = new LongArrayList();
    private int nextRun;
    private long runsWritten;
    private long bytesWritten;
    private long tuplesWritten;
    private long tuplesRead;

    BaselineProjection(final Path dir, final ProjectionLayout layout, final int bufferRows, final int blockRows,
                       final IoHandler io, final FileIo fileIo) {
        this.fileIo = fileIo;
        this.dir = dir;
        this.layout = layout;
        this.bufferRows = bufferRows;
        this.blockRows = blockRows;
        this.io = io;
    }

    /** Buffers a row; returns true when the buffer is full and must become a run. */
    boolean append(final long rowId, final Object[] row) {
        final Object[] values = layout.project(row);
        buffer.add(values);
        bufferKeys.addLong(layout.key(values));
        bufferIds.addLong(rowId);
        return buffer.size() == bufferRows;
    }

    boolean bufferEmpty() {
        return buffer.isEmpty();
    }

    /** The buffer's rows sorted (by key, then row id) into one in-memory block; empties the buffer. */
    StoredBucket takeSortedBuffer() {
        final StoredBucket sorted = StoredBucket.sorted(layout.columns(),
                StoredBucket.ofRows(layout.columns(), bufferKeys.toLongArray(), bufferIds.toLongArray(), buffer));
        buffer.clear();
        bufferKeys.clear();
        bufferIds.clear();
        return sorted;
    }

    /**
     * Writes one new run file holding the sort-merge of {@code inputs} (read back whole) and {@code memory} (a sorted
     * block not yet on disk, or null); the inputs are left for the caller to delete. A failure deletes the new file.
     */
    RunFile materialize(final List<RunFile> inputs, final StoredBucket memory) throws IOException {
        final List<BlockMerger.BlockSource> sources = new ArrayList<>();
        for (RunFile r : inputs) {
            sources.add(r.reader());
            tuplesRead += r.rows();
        }
        if (memory != null) {
            sources.add(BlockMerger.single(memory));
        }
        final Path path = dir.resolve(layout.name() + "-" + nextRun++ + ".run");
        files.put(path, null);
        final RunFile run;
        try {
            run = new RunFile(fileIo, path, layout);
            files.put(path, run);
            BlockMerger.merge(layout.columns(), sources, blockRows, run::append);
        } catch (IOException | RuntimeException e) {
            try {
                delete(path);
            } catch (IOException | RuntimeException again) {
                e.addSuppressed(again);
            }
            throw e;
        }
        runsWritten++;
        bytesWritten += run.bytes();
        tuplesWritten += run.rows();
        return run;
    }

    /** The rows with keys in {@code [lo, hi]} from {@code runs} and the buffer. */
    QueryResult query(final List<RunFile> runs, final long lo, final long hi, final String[] names)
            throws IOException {
        final QueryResultBuilder out = new QueryResultBuilder(layout, lo, hi, names);
        long blocks = 0;
        for (RunFile run : runs) {
            final List<BucketLocation> wanted = run.overlapping(lo, hi);
            final Map<BucketLocation, ByteBuffer> read = io.read(run.file(), wanted);
            for (BucketLocation at : wanted) {
                out.add(run.decode(at, read.get(at)));
            }
            blocks += wanted.size();
        }
        if (!buffer.isEmpty()) {
            out.add(StoredBucket.ofRows(layout.columns(), bufferKeys.toLongArray(), bufferIds.toLongArray(),
                    buffer));
        }
        return out.build(blocks);
    }

    /**
     * Closes and deletes a run file this projection created. When the deletion fails the file stays known, and
     * {@link #deleteAll} tries again.
     */
    void delete(final RunFile run) throws IOException {
        delete(run.path());
    }

    private void delete(final Path path) throws IOException {
        final RunFile run = files.get(path);
        try {
            if (run != null) {
                run.close();
            }
        } finally {
            fileIo.deleteIfExists(path);
            files.remove(path);
        }
    }

    /**
     * Closes and deletes every run file this projection created and has not deleted, trying each even when an
     * earlier one fails.
     *
     * @throws IOException the first failure, the others suppressed in it
     */
    void deleteAll() throws IOException {
        IOException first = null;
        for (Path path : List.copyOf(files.keySet())) {
            try {
                delete(path);
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    ProjectionLayout layout() {
        return layout;
    }

    /** Run files written. */
    long runsWritten() {
        return runsWritten;
    }

    /** Bytes written to run files. */
    long bytesWritten() {
        return bytesWritten;
    }

    /** Tuples written to run files. */
    long tuplesWritten() {
        return tuplesWritten;
    }

    /** Tuples read back by merges. */
    long tuplesRead() {
        return tuplesRead;
    }
}
