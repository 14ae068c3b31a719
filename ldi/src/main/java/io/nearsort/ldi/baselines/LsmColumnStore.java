package io.nearsort.ldi.baselines;

import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.Schema;
import io.nearsort.ldi.projection.StoredBucket;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Col_LSM-like baseline of §5: every projection is an LSM tree of sorted run files. A buffer of B rows is
 * sorted into a run at level 1 when full, and runs are sort-merged down the levels by the {@link MergePolicy}
 * (leveled or tiered, size ratio T) — the same {@link LsmLevels} whose counts reproduce Table 1 and Eqs. 1–2 and
 * 10–13. A query reads the overlapping blocks of every run plus the buffer. {@link #flush()} forces the run files;
 * the partial buffer stays in memory, as in {@link LsmRuns}.
 */
public final class LsmColumnStore extends BaselineStore {
    private final Map<BaselineProjection, LsmLevels<PendingRun>> levels = new HashMap<>();

    /**
     * A run as the levels see it: either a run file at rest on a level, or a merge not yet performed — of run
     * files and possibly the sorted buffer — that is written once, where it comes to rest. So every tuple is
     * written and read exactly as {@link LsmLevels} counts it.
     */
    private record PendingRun(List<RunFile> files, StoredBucket memory, long rows) {
        boolean atRest() {
            return files.size() == 1 && memory == null;
        }
    }

    /**
     * Creates an empty store in {@code directory}, with one LSM tree per projection, its run files reached through
     * {@link FileIo#standard()}.
     *
     * @param directory   where the run files go; created when absent, and must be empty
     * @param schema      the table's columns
     * @param projections the projections, which partition the schema's columns; one LSM tree each
     * @param policy      how runs are merged down the levels: leveled or tiered
     * @param bufferRows  B
     * @param ratio       T
     * @param blockRows   rows per block of a run file (the unit a query reads)
     * @throws IOException when the directory cannot be created or listed
     */
    public LsmColumnStore(final Path directory, final Schema schema, final List<Projection> projections,
                          final MergePolicy policy, final int bufferRows, final int ratio, final int blockRows)
            throws IOException {
        this(directory, schema, projections, policy, bufferRows, ratio, blockRows, FileIo.standard());
    }

    /**
     * Creates an empty store in {@code directory}, with one LSM tree per projection, its run files reached through
     * {@code fileIo}.
     *
     * @param directory   where the run files go; created when absent, and must be empty
     * @param schema      the table's columns
     * @param projections the projections, which partition the schema's columns; one LSM tree each
     * @param policy      how runs are merged down the levels: leveled or tiered
     * @param bufferRows  B
     * @param ratio       T
     * @param blockRows   rows per block of a run file (the unit a query reads)
     * @param fileIo      how every run file is opened and deleted ({@link FileIo#standard()}, or a
     *                    {@link io.nearsort.core.io.FaultInjectingFileIo} in tests of I/O faults, issue 22)
     * @throws IOException when the directory cannot be created or listed
     * @throws NullPointerException when {@code fileIo} is null
     */
    public LsmColumnStore(final Path directory, final Schema schema, final List<Projection> projections,
                          final MergePolicy policy, final int bufferRows, final int ratio, final int blockRows,
                          final FileIo fileIo) throws IOException {
        super(directory, schema, projections, bufferRows, blockRows, fileIo);
        for (Projection projection : projections) {
            final BaselineProjection p = projection(projection.name());
            levels.put(p, new LsmLevels<>(policy, bufferRows, ratio, new LsmLevels.Runs<>() {
                @Override
                public long size(final PendingRun run) {
                    return run.rows();
                }

                @Override
                public PendingRun merge(final List<PendingRun> oldestFirst) {
                    final List<RunFile> files = new ArrayList<>();
                    StoredBucket memory = null;
                    long rows = 0;
                    for (PendingRun r : oldestFirst) {
                        files.addAll(r.files());
                        memory = r.memory() != null ? r.memory() : memory;
                        rows += r.rows();
                    }
                    return new PendingRun(files, memory, rows);
                }

                @Override
                public void discard(final PendingRun run) {
                    // Its files are read when the merge that consumed it is written (place), then deleted.
                }

                @Override
                public PendingRun place(final PendingRun run) throws IOException {
                    if (run.atRest()) {
                        return run;
                    }
                    final RunFile written = p.materialize(run.files(), run.memory());
                    for (RunFile f : run.files()) {
                        p.delete(f);
                    }
                    return new PendingRun(List.of(written), null, written.rows());
                }
            }));
        }
    }

    @Override
    protected void bufferFull(final BaselineProjection p) throws IOException {
        final StoredBucket sorted = p.takeSortedBuffer();
        levels.get(p).arrive(new PendingRun(List.of(), sorted, sorted.count()));
    }

    @Override
    protected void flush(final BaselineProjection p) throws IOException {
        for (RunFile run : runs(p)) {
            run.force();
        }
    }

    @Override
    protected List<RunFile> runs(final BaselineProjection p) {
        final List<RunFile> files = new ArrayList<>();
        for (PendingRun r : levels.get(p).allRuns()) {
            files.addAll(r.files());
        }
        return files;
    }

    /**
     * The merge counters of {@code projection}'s levels, in tuples (as {@link LsmRuns} counts them).
     *
     * @param projection the projection's name
     * @return its counters summed over every level reached
     * @throws IllegalArgumentException when no projection has that name
     */
    public LevelCounters levelCounters(final String projection) {
        return levels.get(projection(projection)).total();
    }

    /**
     * Levels {@code projection} has reached.
     *
     * @param projection the projection's name
     * @return the number of disk levels that have received data, 0 before the first full buffer
     * @throws IllegalArgumentException when no projection has that name
     */
    public int levels(final String projection) {
        return levels.get(projection(projection)).levels();
    }
}
