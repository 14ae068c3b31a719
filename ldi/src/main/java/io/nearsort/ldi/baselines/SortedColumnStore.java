package io.nearsort.ldi.baselines;

import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.Schema;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Sorted_Col baseline of §5: projections fully sorted on their key. Loading writes each full buffer of B rows
 * as a sorted run; {@link #flush()} is the clustering step at the end of a bulk load: the buffer and every run are
 * sort-merged (k-way, one pass) into a single sorted run per projection. A later load and flush merges again, which
 * is why incremental loading costs Sorted_Col more each time (§5.1).
 */
public final class SortedColumnStore extends BaselineStore {
    private final Map<BaselineProjection, List<RunFile>> runs = new HashMap<>();

    /**
     * Creates an empty store in {@code directory}: every projection starts with an empty buffer and no run. Its run
     * files are reached through {@link FileIo#standard()}.
     *
     * @param directory   where the run files go; created when absent, and must be empty
     * @param schema      the table's columns
     * @param projections the projections, which partition the schema's columns
     * @param bufferRows  rows sorted in memory before a run is written
     * @param blockRows   rows per block of a run file (the unit a query reads)
     * @throws IOException when the directory cannot be created or listed
     */
    public SortedColumnStore(final Path directory, final Schema schema, final List<Projection> projections,
                             final int bufferRows, final int blockRows) throws IOException {
        this(directory, schema, projections, bufferRows, blockRows, FileIo.standard());
    }

    /**
     * Creates an empty store in {@code directory}: every projection starts with an empty buffer and no run. Its run
     * files are reached through {@code fileIo}.
     *
     * @param directory   where the run files go; created when absent, and must be empty
     * @param schema      the table's columns
     * @param projections the projections, which partition the schema's columns
     * @param bufferRows  rows sorted in memory before a run is written
     * @param blockRows   rows per block of a run file (the unit a query reads)
     * @param fileIo      how every run file is opened and deleted ({@link FileIo#standard()}, or a
     *                    {@link io.nearsort.core.io.FaultInjectingFileIo} in tests of I/O faults, issue 22)
     * @throws IOException when the directory cannot be created or listed
     * @throws NullPointerException when {@code fileIo} is null
     */
    public SortedColumnStore(final Path directory, final Schema schema, final List<Projection> projections,
                             final int bufferRows, final int blockRows, final FileIo fileIo) throws IOException {
        super(directory, schema, projections, bufferRows, blockRows, fileIo);
        for (Projection p : projections) {
            runs.put(projection(p.name()), new ArrayList<>());
        }
    }

    @Override
    protected void bufferFull(final BaselineProjection p) throws IOException {
        runs.get(p).add(p.materialize(List.of(), p.takeSortedBuffer()));
    }

    /** Clusters the projection: everything becomes one sorted run, forced to disk. */
    @Override
    protected void flush(final BaselineProjection p) throws IOException {
        final List<RunFile> mine = runs.get(p);
        if (mine.size() > 1 || !p.bufferEmpty()) {
            final RunFile merged = p.materialize(mine, p.bufferEmpty() ? null : p.takeSortedBuffer());
            for (RunFile r : mine) {
                p.delete(r);
            }
            mine.clear();
            mine.add(merged);
        }
        for (RunFile r : mine) {
            r.force();
        }
    }

    @Override
    protected List<RunFile> runs(final BaselineProjection p) {
        return List.copyOf(runs.get(p));
    }
}
