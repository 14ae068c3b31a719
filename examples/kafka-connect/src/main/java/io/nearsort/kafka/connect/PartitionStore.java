package io.nearsort.kafka.connect;

import io.nearsort.ldi.commit.CommitPoint;
import io.nearsort.ldi.io.StoreLock.StoreLockedException;
import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import io.nearsort.ldi.projection.TableLayout;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The column store of one topic partition, owned by the task the partition is assigned to, and the partition's
 * position in it. Each commit ({@link #commit}) records, atomically with the rows, the offset of the next record to
 * read; rows appended after the last commit are not durable and are discarded when the store is reopened, so after
 * a crash the partition resumes at the committed offset and every record is stored exactly once.
 *
 * <p>A failed append ({@link ColumnStore#append(ColumnBatch)} appends a batch in chunks, so a failure can leave its
 * first rows appended) makes the store unusable: it refuses every further record and commit, so that the partly
 * appended batch is never committed (nor appended again and committed twice). The task must then close it; reopened,
 * it is at its last commit and the partition is rewound to that commit's offset.
 *
 * <p>Not thread-safe: the task's thread uses it.
 */
final class PartitionStore implements AutoCloseable {
    /** Commit metadata keys. */
    static final String TOPIC = "kafka.topic";
    static final String PARTITION = "kafka.partition";
    static final String NEXT_OFFSET = "kafka.offset";

    private final TopicPartition partition;
    private final ColumnStore store;
    private final ColumnBatch batch;
    private final RecordMapper mapper;
    /** The offset after the last record taken (stored or reported as bad); -1 before the first. */
    private long nextOffset;
    /** The offset recorded by the last commit; -1 if the store has none. */
    private long committedOffset;
    /** Why an append failed; then the store's uncommitted rows are unknown and it never commits again. */
    private RuntimeException failed;

    private PartitionStore(final TopicPartition partition, final ColumnStore store, final ColumnBatch batch,
                           final RecordMapper mapper, final long committedOffset) {
        this.partition = partition;
        this.store = store;
        this.batch = batch;
        this.mapper = mapper;
        this.committedOffset = committedOffset;
        this.nextOffset = committedOffset;
    }

    /** The directory of {@code partition}'s store under {@code base}. */
    static Path directory(final Path base, final TopicPartition partition) {
        return base.resolve(partition.topic() + "-" + partition.partition());
    }

    /**
     * Opens (or creates) the partition's store at its last commit, waiting up to {@code lockTimeoutMillis} for a
     * previous owner to release it.
     */
    static PartitionStore open(final TopicPartition partition, final Path base, final TableLayout layout,
                               final ColumnStoreOptions options, final RecordMapper mapper, final int batchRows,
                               final long lockTimeoutMillis) {
        final Path dir = directory(base, partition);
        final ColumnStore store;
        try {
            store = ColumnStore.openWhenReleased(lockTimeoutMillis, () -> ColumnStore.open(dir, layout.schema(),
                    layout.projections().stream().map(p -> p.projection()).toList(), options));
        } catch (StoreLockedException locked) {
            throw new ConnectException("the store of " + partition + " is still open elsewhere after "
                    + lockTimeoutMillis + " ms (" + NearsortSinkConfig.LOCK_TIMEOUT + "): " + locked.getMessage(),
                    locked);
        } catch (InterruptedIOException e) {
            throw new ConnectException("interrupted while waiting for the store of " + partition, e);
        } catch (IOException | RuntimeException e) {
            throw new ConnectException("opening the store of " + partition + " in " + dir + " failed: "
                    + e.getMessage(), e);
        }
        try {
            final long committed = committedOffset(partition, dir, store.lastCommit());
            return new PartitionStore(partition, store, ColumnBatch.allocate(layout.schema(), batchRows), mapper,
                    committed);
        } catch (RuntimeException e) {
            try {
                store.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** The next offset the last commit recorded, -1 without one; refuses a store written for another partition. */
    private static long committedOffset(final TopicPartition partition, final Path dir,
                                        final Optional<CommitPoint> last) {
        if (last.isEmpty() || !last.get().metadata().containsKey(NEXT_OFFSET)) {
            return -1;
        }
        final Map<String, String> m = last.get().metadata();
        if (!partition.topic().equals(m.get(TOPIC))
                || !Integer.toString(partition.partition()).equals(m.get(PARTITION))) {
            throw new ConnectException("the store in " + dir + " was written for partition " + m.get(PARTITION)
                    + " of topic " + m.get(TOPIC) + ", not for " + partition);
        }
        try {
            return Long.parseLong(m.get(NEXT_OFFSET));
        } catch (NumberFormatException e) {
            throw new ConnectException("the store in " + dir + " records offset '" + m.get(NEXT_OFFSET)
                    + "', not a number", e);
        }
    }

    TopicPartition partition() {
        return partition;
    }

    /** The offset the last commit recorded (the next record to read), -1 if the store has no commit. */
    long committedOffset() {
        return committedOffset;
    }

    /** Whether {@code record} was taken already (a redelivery from before the committed or current position). */
    boolean seen(final SinkRecord record) {
        return record.originalKafkaOffset() < nextOffset;
    }

    /**
     * Adds the record's row; appends the batch to the store when it is full.
     *
     * @throws org.apache.kafka.connect.errors.DataException naming the field when the record does not fit the
     *                                                       columns; nothing of it was added
     */
    void add(final SinkRecord record) {
        requireNotFailed();
        mapper.map(record, batch, batch.rows());
        batch.rows(batch.rows() + 1);
        nextOffset = record.originalKafkaOffset() + 1;
        if (batch.rows() == batch.capacity()) {
            appendBatch();
        }
    }

    /** Takes a bad record without a row: its offset is passed, so it is not read again after the next commit. */
    void skip(final SinkRecord record) {
        nextOffset = record.originalKafkaOffset() + 1;
    }

    private void appendBatch() {
        if (batch.rows() > 0) {
            try {
                store.append(batch);
            } catch (RuntimeException e) {
                failed = e;
                throw new ConnectException("appending " + batch.rows() + " rows to the store of " + partition
                        + " failed (" + e.getMessage() + "); the store is not committed again: it reopens at its"
                        + " last commit (offset " + committedOffset + ")", e);
            }
            batch.clear();
        }
    }

    private void requireNotFailed() {
        if (failed != null) {
            throw new ConnectException("an append to the store of " + partition + " failed (" + failed.getMessage()
                    + "), so its uncommitted rows are unknown: it must be reopened at its last commit (offset "
                    + committedOffset + ")", failed);
        }
    }

    /**
     * Makes every row taken so far durable together with the next offset; returns that offset, or -1 if nothing
     * was ever committed. Does nothing if no record was taken since the last commit.
     *
     * @throws ConnectException if an append failed earlier: the store must be reopened at its last commit
     */
    long commit() throws IOException {
        requireNotFailed();
        appendBatch();
        if (nextOffset > committedOffset) {
            store.flush(Map.of(TOPIC, partition.topic(), PARTITION, Integer.toString(partition.partition()),
                    NEXT_OFFSET, Long.toString(nextOffset)));
            committedOffset = nextOffset;
        }
        return committedOffset;
    }

    /** Closes the store without committing: what was taken since the last commit is discarded. */
    @Override
    public void close() throws IOException {
        store.close();
    }
}
