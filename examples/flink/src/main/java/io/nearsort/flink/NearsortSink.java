package io.nearsort.flink;

import io.nearsort.ldi.projection.ColumnStoreOptions;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.Schema;
import io.nearsort.ldi.projection.TableLayout;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * A Flink sink (Sink V2) writing each subtask's elements into a nearsort column store of its own,
 * {@code <directory>/subtask-<index>}, exactly once with checkpointing ({@link NearsortSinkWriter}).
 *
 * <pre>{@code
 * stream.sinkTo(NearsortSink.<Event>builder()
 *         .directory("/data/events")
 *         .schema(Schema.of(Column.longColumn("time"), Column.longColumn("id"), Column.doubleColumn("value")))
 *         .projection(Projection.of("by_time", "time", "time", "id", "value"))
 *         .rowMapper(RowMappers.pojo(Event.class))
 *         .build());
 * }</pre>
 *
 * <p>The task managers' JVMs need {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}
 * ({@code env.java.opts.all}); without it the writer fails when it opens, naming the flag.
 *
 * @param <T> the stream's element type
 */
public final class NearsortSink<T> implements Sink<T>, SupportsWriterState<T, NearsortWriterState> {
    private static final long serialVersionUID = 1L;

    private final String directory;
    private final byte[] layout;
    private final RowMapper<T> mapper;
    private final long memoryBudget;
    private final int retainedCommits;
    private final int batchRows;
    private final long lockTimeoutMillis;

    private NearsortSink(final Builder<T> b) {
        this.directory = b.directory;
        this.layout = b.layout.encode();
        this.mapper = b.mapper;
        this.memoryBudget = b.memoryBudget;
        this.retainedCommits = b.retainedCommits;
        this.batchRows = b.batchRows;
        this.lockTimeoutMillis = b.lockTimeoutMillis;
    }

    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    @Override
    public StatefulSinkWriter<T, NearsortWriterState> createWriter(final WriterInitContext context)
            throws IOException {
        return NearsortSinkWriter.open(this, context, List.of());
    }

    @Override
    public StatefulSinkWriter<T, NearsortWriterState> restoreWriter(final WriterInitContext context,
                                                                    final Collection<NearsortWriterState> states)
            throws IOException {
        return NearsortSinkWriter.open(this, context, states);
    }

    @Override
    public SimpleVersionedSerializer<NearsortWriterState> getWriterStateSerializer() {
        return new NearsortWriterState.Serializer();
    }

    /** The directory of subtask {@code index}'s store. */
    public Path storeDirectory(final int index) {
        return Path.of(directory).resolve("subtask-" + index);
    }

    TableLayout layout() {
        return TableLayout.decode(layout);
    }

    RowMapper<T> mapper() {
        return mapper;
    }

    int batchRows() {
        return batchRows;
    }

    int retainedCommits() {
        return retainedCommits;
    }

    long lockTimeoutMillis() {
        return lockTimeoutMillis;
    }

    /** The stores' options: no commit on close, so that only checkpoints (and the end of input) commit. */
    ColumnStoreOptions options() {
        return ColumnStoreOptions.builder().commitOnClose(false).memoryBudget(memoryBudget)
                .retainedCommits(retainedCommits).build();
    }

    /** Builds a {@link NearsortSink}; every value is checked, and {@link #build} names what is missing. */
    public static final class Builder<T> {
        private String directory;
        private Schema schema;
        private final List<Projection> projections = new ArrayList<>();
        private TableLayout layout;
        private RowMapper<T> mapper;
        private long memoryBudget = 64L << 20;
        private int retainedCommits = 10;
        private int batchRows = 4096;
        private long lockTimeoutMillis = 60_000;

        private Builder() {
        }

        /** The directory holding one store per subtask ({@code subtask-<index>}). */
        public Builder<T> directory(final String dir) {
            Objects.requireNonNull(dir, "directory");
            if (dir.isBlank()) {
                throw new IllegalArgumentException("directory must not be blank");
            }
            this.directory = dir;
            return this;
        }

        public Builder<T> directory(final Path dir) {
            return directory(Objects.requireNonNull(dir, "directory").toString());
        }

        /** The stores' columns. */
        public Builder<T> schema(final Schema s) {
            this.schema = Objects.requireNonNull(s, "schema");
            return this;
        }

        /** Adds a projection (the first is typically keyed on event time); projections partition the columns. */
        public Builder<T> projection(final Projection p) {
            projections.add(Objects.requireNonNull(p, "projection"));
            return this;
        }

        /** How an element becomes a row; see {@link RowMappers}. */
        public Builder<T> rowMapper(final RowMapper<T> m) {
            this.mapper = Objects.requireNonNull(m, "rowMapper");
            return this;
        }

        /** Heap bytes each subtask's store may hold for rows not yet written (default 64 MiB). */
        public Builder<T> memoryBudget(final long bytes) {
            if (bytes < 1 << 20) {
                throw new IllegalArgumentException("memoryBudget must be at least 1 MiB (got: " + bytes + ")");
            }
            this.memoryBudget = bytes;
            return this;
        }

        /**
         * Commit points each store retains (default 10): a restore can roll the store back to any of them, so this
         * must exceed the checkpoints that may be taken after the last completed one (concurrent, declined or
         * aborted checkpoints, and the end of input).
         */
        public Builder<T> retainedCommits(final int n) {
            if (n < 2 || n > 10_000) {
                throw new IllegalArgumentException("retainedCommits must be in [2, 10000] (got: " + n + ")");
            }
            this.retainedCommits = n;
            return this;
        }

        /** Rows a writer gathers column-wise before appending them to its store (default 4096). */
        public Builder<T> batchRows(final int rows) {
            if (rows < 1 || rows > 1 << 20) {
                throw new IllegalArgumentException("batchRows must be in [1, 1048576] (got: " + rows + ")");
            }
            this.batchRows = rows;
            return this;
        }

        /**
         * How long a writer waits for its store to be released by the previous attempt's writer (after a failover
         * Flink may start the new attempt before the old one has closed, in the same task manager) before it fails;
         * default 60 s.
         */
        public Builder<T> lockTimeout(final Duration timeout) {
            Objects.requireNonNull(timeout, "lockTimeout");
            if (timeout.isNegative() || timeout.toMillis() > 3_600_000L) {
                throw new IllegalArgumentException("lockTimeout must be in [0, 1 h] (got: " + timeout + ")");
            }
            this.lockTimeoutMillis = timeout.toMillis();
            return this;
        }

        public NearsortSink<T> build() {
            if (directory == null) {
                throw new IllegalStateException("directory is not set");
            }
            if (schema == null) {
                throw new IllegalStateException("schema is not set");
            }
            if (projections.isEmpty()) {
                throw new IllegalStateException("no projection is set (at least one, e.g. keyed on event time)");
            }
            if (mapper == null) {
                throw new IllegalStateException("rowMapper is not set");
            }
            this.layout = new TableLayout(schema, projections);
            return new NearsortSink<>(this);
        }
    }
}
