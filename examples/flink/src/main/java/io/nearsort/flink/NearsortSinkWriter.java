package io.nearsort.flink;

import io.nearsort.core.memory.UnsafeAccess;
import io.nearsort.ldi.commit.CommitPoint;
import io.nearsort.ldi.io.StoreLock.StoreLockedException;
import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import io.nearsort.ldi.projection.ProjectionLayout;
import io.nearsort.ldi.projection.TableLayout;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A subtask's writer: appends rows column-wise to the subtask's store, commits it at every checkpoint with the
 * checkpoint id as commit metadata and snapshots that id as its state.
 *
 * <p>Exactly once, with checkpointing and a replayable source: the store's rows at a commit are exactly the elements
 * before that checkpoint's barrier. A restore from checkpoint c reopens the store at c's commit
 * ({@link ColumnStoreOptions.Builder#atCommit}), discarding the rows and the commits made after it (of
 * checkpoints that never completed), and the source replays from c. A start without state — a new job, or this
 * job restarted before any of its checkpoints completed — rolls the store back to the commit this job made when it first opened it (the start
 * marker), so a replay from the beginning is not stored twice; a new job appends to what earlier jobs stored. The
 * rollback target must still be retained ({@link NearsortSink.Builder#retainedCommits}). The end of a bounded input
 * ({@link #flush flush(true)}) commits too.
 *
 * <p>One store per subtask, so the sink cannot be rescaled: every commit records the parallelism
 * ({@link #PARALLELISM}), and a writer refuses to open when the commit it must restore or roll back to — its
 * checkpoint's, or this job's start — was made with another parallelism, or when it is given another subtask's or
 * several subtasks' state. A new job (nothing of it in the store) may run with any parallelism: it appends to what
 * earlier jobs committed.
 *
 * <p>After a failover Flink may open the new attempt's writer before the previous attempt's has closed the store (in
 * the same task manager); the writer then waits for the store's lock ({@link NearsortSink.Builder#lockTimeout}).
 *
 * <p>Runs on the task's thread only (Flink calls a writer from one thread).
 */
final class NearsortSinkWriter<T> implements StatefulSinkWriter<T, NearsortWriterState> {
    private static final Logger LOG = LoggerFactory.getLogger(NearsortSinkWriter.class);

    /** Commit metadata keys. */
    static final String JOB = "flink.job";
    static final String SUBTASK = "flink.subtask";
    static final String CHECKPOINT = "flink.checkpoint";
    /** The parallelism the commit was made with (absent in the commits of earlier versions, which are not checked). */
    static final String PARALLELISM = "flink.parallelism";
    /** {@link #CHECKPOINT} of the commit a job makes when it first opens the store. */
    static final String START = "start";
    /** {@link #CHECKPOINT} of the commit at the end of a bounded input. */
    static final String END_OF_INPUT = "end-of-input";

    private final ColumnStore store;
    private final ColumnBatch batch;
    private final RowWriter row;
    private final RowMapper<T> mapper;
    private final int subtask;
    private final int parallelism;
    private final String jobId;

    private NearsortSinkWriter(final ColumnStore store, final TableLayout layout, final RowMapper<T> mapper,
                               final int batchRows, final int subtask, final int parallelism, final String jobId) {
        this.store = store;
        this.batch = ColumnBatch.allocate(layout.schema(), batchRows);
        this.row = new RowWriter(layout.schema());
        this.mapper = mapper;
        this.subtask = subtask;
        this.parallelism = parallelism;
        this.jobId = jobId;
    }

    /** Opens the subtask's store at the state's checkpoint (or at this job's start) and returns its writer. */
    static <T> NearsortSinkWriter<T> open(final NearsortSink<T> sink, final WriterInitContext context,
                                          final Collection<NearsortWriterState> states) throws IOException {
        if (!UnsafeAccess.isAvailable()) {
            try {
                UnsafeAccess.requireAvailable();
            } catch (IllegalStateException e) {
                throw new IllegalStateException("the nearsort sink writer cannot open: " + e.getMessage() + "; for"
                        + " Flink set env.java.opts.all: \"" + UnsafeAccess.REQUIRED_FLAG + "\"", e);
            }
        }
        final int subtask = context.getTaskInfo().getIndexOfThisSubtask();
        final int parallelism = context.getTaskInfo().getNumberOfParallelSubtasks();
        final String job = context.getJobInfo().getJobId().toHexString();
        final Path dir = sink.storeDirectory(subtask);
        if (states.size() > 1 || states.size() == 1 && states.iterator().next().subtask() != subtask) {
            throw new IllegalStateException("subtask " + subtask + " of the nearsort sink was restored with the"
                    + " writer state of subtasks " + states.stream().map(NearsortWriterState::subtask).toList()
                    + ": each subtask owns one store, so the sink cannot be rescaled; restore with the parallelism"
                    + " the checkpoint was taken with");
        }
        final TableLayout layout = sink.layout();
        final List<io.nearsort.ldi.projection.Projection> projections = layout.projections().stream()
                .map(ProjectionLayout::projection).toList();
        ColumnStore store;
        try {
            store = ColumnStore.openWhenReleased(sink.lockTimeoutMillis(), () -> ColumnStore.open(dir,
                    layout.schema(), projections, sink.options()));
        } catch (StoreLockedException locked) {
            throw new IOException("subtask " + subtask + " of the nearsort sink: its store is still open elsewhere"
                    + " after " + sink.lockTimeoutMillis() + " ms (lockTimeout): " + locked.getMessage(), locked);
        }
        try {
            final Optional<CommitPoint> target;
            if (states.isEmpty()) {
                target = store.commits().stream().filter(c -> job.equals(c.metadata().get(JOB))).findFirst();
                if (target.isPresent() && !START.equals(target.get().metadata().get(CHECKPOINT))) {
                    throw new IllegalStateException("store " + dir + " no longer retains the commit job " + job
                            + " made when it started, which a restart without a completed checkpoint must roll"
                            + " back to (retained: " + describe(store.commits()) + "); raise retainedCommits (now "
                            + sink.retainedCommits() + ")");
                }
            } else {
                final NearsortWriterState state = states.iterator().next();
                final String checkpoint = Long.toString(state.checkpointId());
                target = store.commits().stream().filter(c -> state.jobId().equals(c.metadata().get(JOB))
                        && checkpoint.equals(c.metadata().get(CHECKPOINT))).findFirst();
                if (target.isEmpty()) {
                    throw new IllegalStateException("store " + dir + " retains no commit of checkpoint "
                            + state.checkpointId() + " of job " + state.jobId() + " to restore (retained: "
                            + describe(store.commits()) + "); raise retainedCommits (now "
                            + sink.retainedCommits() + ") above the checkpoints that may follow a completed one");
                }
            }
            final String recorded = target.map(c -> c.metadata().get(PARALLELISM)).orElse(null);
            if (recorded != null && !recorded.equals(Integer.toString(parallelism))) {
                throw new IllegalStateException("subtask " + subtask + " of the nearsort sink runs with parallelism "
                        + parallelism + ", but the commit of store " + dir + " it must " + (states.isEmpty()
                        ? "roll back to (job " + job + "'s start)" : "restore (checkpoint "
                        + states.iterator().next().checkpointId() + ")") + " was made with parallelism " + recorded
                        + ": each subtask owns one store, so the sink cannot be rescaled; run with parallelism "
                        + recorded);
            }
            if (target.isPresent() && target.get().id() != store.lastCommit().orElseThrow().id()) {
                final long discarded = store.rows() - target.get().rows();
                store.close();
                store = null;
                store = ColumnStore.open(dir, layout.schema(), projections,
                        sink.options().toBuilder().atCommit(target.get().id()).build());
                LOG.info("subtask {}: store {} rolled back to commit {} ({}), discarding {} rows of later commits",
                        subtask, dir, target.get().id(), target.get().metadata(), discarded);
            }
            final NearsortSinkWriter<T> writer = new NearsortSinkWriter<>(store, layout, sink.mapper(),
                    sink.batchRows(), subtask, parallelism, job);
            if (target.isEmpty()) {
                writer.commit(START);
            }
            return writer;
        } catch (IOException | RuntimeException e) {
            if (store != null) {
                try {
                    store.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private static String describe(final List<CommitPoint> commits) {
        return commits.stream().map(c -> c.id() + " " + c.metadata()).toList().toString();
    }

    @Override
    public void write(final T element, final Context context) throws IOException {
        row.begin(batch, batch.rows());
        mapper.map(element, row);
        row.finish();
        batch.rows(batch.rows() + 1);
        if (batch.rows() == batch.capacity()) {
            appendBatch();
        }
    }

    private void appendBatch() {
        if (batch.rows() > 0) {
            store.append(batch);
            batch.clear();
        }
    }

    /** At the end of a bounded input, commits what was written; before a checkpoint, nothing ({@link #snapshotState}). */
    @Override
    public void flush(final boolean endOfInput) throws IOException {
        if (endOfInput) {
            commit(END_OF_INPUT);
        }
    }

    @Override
    public List<NearsortWriterState> snapshotState(final long checkpointId) throws IOException {
        commit(Long.toString(checkpointId));
        return List.of(new NearsortWriterState(subtask, jobId, checkpointId));
    }

    private void commit(final String checkpoint) throws IOException {
        appendBatch();
        store.flush(Map.of(JOB, jobId, SUBTASK, Integer.toString(subtask), PARALLELISM,
                Integer.toString(parallelism), CHECKPOINT, checkpoint));
    }

    /** Closes the store without committing: rows after the last checkpoint are discarded. */
    @Override
    public void close() throws IOException {
        store.close();
    }
}
