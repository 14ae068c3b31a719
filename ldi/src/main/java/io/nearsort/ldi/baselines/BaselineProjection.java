package io.nearsort.ldi.baselines;

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
import java.util.List;
import java.util.Map;

/**
 * One projection of a baseline store: the in-memory buffer of B rows (an LSM's level 0), its sort into a run file,
 * the sort-merge of runs, and range queries over runs and buffer. What differs between the LSM-like and Sorted_Col
 * stores is only when runs are merged.
 */
final class BaselineProjection {
    private final ProjectionLayout layout;
    private final Path dir;
    private final int bufferRows;
    private final int blockRows;
    private final IoHandler io;
    private final List<Object[]> buffer = new ArrayList<>();
    private final LongArrayList bufferKeys = new LongArrayList();
    private final LongArrayList bufferIds = new LongArrayList();
    private int nextRun;
    private long runsWritten;
    private long bytesWritten;
    private long tuplesWritten;
    private long tuplesRead;

    BaselineProjection(final Path dir, final ProjectionLayout layout, final int bufferRows, final int blockRows,
                       final IoHandler io) {
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
     * Writes one new run file holding the sort-merge of {@code files} (read back whole) and {@code memory} (a sorted
     * block not yet on disk, or null); the inputs are left for the caller to delete.
     */
    RunFile materialize(final List<RunFile> files, final StoredBucket memory) throws IOException {
        final List<BlockMerger.BlockSource> sources = new ArrayList<>();
        for (RunFile r : files) {
            sources.add(r.reader());
            tuplesRead += r.rows();
        }
        if (memory != null) {
            sources.add(BlockMerger.single(memory));
        }
        final RunFile run = new RunFile(dir.resolve(layout.name() + "-" + nextRun++ + ".run"), layout);
        try {
            BlockMerger.merge(layout.columns(), sources, blockRows, run::append);
        } catch (IOException | RuntimeException e) {
            run.delete();
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
