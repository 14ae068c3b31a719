package io.nearsort.kafka.connect;

import io.nearsort.core.memory.UnsafeAccess;
import io.nearsort.ldi.projection.TableLayout;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Writes the records of its assigned partitions into one column store per partition ({@link PartitionStore}),
 * exactly once.
 *
 * <p>How: the store is the source of truth for each partition's position. {@link #preCommit} appends what is
 * buffered and commits every store with its partition's next offset as commit metadata, and returns those offsets
 * (Connect then also commits them to the consumer group, which is informational). {@link #open} opens each newly
 * assigned partition's store at its last commit — discarding rows appended after it — and rewinds the consumer to
 * the offset that commit recorded ({@code SinkTaskContext.offset}). A worker killed at any moment therefore resumes
 * every partition exactly where its durable rows end. Records Connect redelivers from before that position are
 * dropped. A store belongs to a partition, not to a task, so a partition that moves between tasks (a rebalance, a
 * changed {@code tasks.max}) carries its position with it. A store whose append failed (a batch may then be partly
 * appended) refuses to commit — also in the {@code preCommit} Connect calls when it closes a failed task — so that it
 * reopens at its last commit instead of committing part of a batch and then the whole batch again.
 *
 * <p>Bad records (a missing field, a wrong type) go to the errant record reporter (the dead letter queue) when
 * {@code errors.tolerance=all}, and {@code preCommit} waits for them to be written before it commits past them;
 * otherwise the task fails naming the record's topic, partition and offset. Either way nothing committed is lost.
 */
public final class NearsortSinkTask extends SinkTask {
    private static final Logger LOG = LoggerFactory.getLogger(NearsortSinkTask.class);

    private final Map<TopicPartition, PartitionStore> stores = new HashMap<>();
    private final List<Future<Void>> reported = new ArrayList<>();
    private NearsortSinkConfig config;
    private TableLayout layout;
    private RecordMapper mapper;
    private boolean tolerateAll;
    private ErrantRecordReporter reporter;
    private RuntimeException failure;

    @Override
    public String version() {
        return NearsortSinkConnector.VERSION;
    }

    @Override
    public void start(final Map<String, String> props) {
        requireAgronaFlag("task");
        config = new NearsortSinkConfig(props);
        layout = config.layout();
        mapper = new RecordMapper(layout.schema(), config.timeColumn(), config.timeSource(), config.valueFormat());
        tolerateAll = "all".equalsIgnoreCase(props.getOrDefault("errors.tolerance", "none").strip());
        reporter = tolerateAll ? context.errantRecordReporter() : null;
    }

    /** Fails with the flag's name if Agrona's off-heap access (used by the stores' LDI training) is unavailable. */
    static void requireAgronaFlag(final String what) {
        try {
            UnsafeAccess.requireAvailable();
        } catch (IllegalStateException e) {
            throw new ConnectException("the nearsort sink " + what + " cannot start: " + e.getMessage()
                    + "; for a Connect worker set KAFKA_OPTS=\"" + UnsafeAccess.REQUIRED_FLAG + "\"", e);
        }
    }

    @Override
    public void open(final Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            final PartitionStore previous = stores.remove(tp);
            if (previous != null) { // reopened: start again from what is durable
                closeQuietly(previous);
            }
            final PartitionStore store = PartitionStore.open(tp, config.storeDir(), layout, config.storeOptions(),
                    mapper, config.batchRows(), config.lockTimeoutMillis());
            stores.put(tp, store);
            if (store.committedOffset() >= 0) {
                context.offset(tp, store.committedOffset());
            }
            LOG.info("{}: store {} opened at offset {}", tp, PartitionStore.directory(config.storeDir(), tp),
                    store.committedOffset() >= 0 ? store.committedOffset() : "(none committed: the consumer's)");
        }
    }

    @Override
    public void put(final Collection<SinkRecord> records) {
        if (failure != null) {
            throw new ConnectException("an earlier commit failed; the task must be restarted", failure);
        }
        for (SinkRecord r : records) {
            final TopicPartition tp = new TopicPartition(r.originalTopic(), r.originalKafkaPartition());
            final PartitionStore store = stores.get(tp);
            if (store == null) {
                throw new ConnectException("a record of " + tp + " arrived, but the partition is not open");
            }
            if (store.seen(r)) {
                continue;
            }
            try {
                store.add(r);
            } catch (DataException bad) {
                badRecord(store, r, bad);
            }
        }
    }

    private void badRecord(final PartitionStore store, final SinkRecord r, final DataException bad) {
        final String where = "topic " + r.originalTopic() + " partition " + r.originalKafkaPartition() + " offset "
                + r.originalKafkaOffset();
        if (!tolerateAll) {
            throw new ConnectException("bad record at " + where + ": " + bad.getMessage() + " (with"
                    + " errors.tolerance=all such records go to the dead letter queue topic,"
                    + " errors.deadletterqueue.topic.name)", bad);
        }
        if (reporter != null) {
            reported.add(reporter.report(r, new DataException("bad record at " + where + ": " + bad.getMessage(),
                    bad)));
        } else {
            LOG.warn("skipping bad record at {} (errors.tolerance=all, no errant record reporter): {}", where,
                    bad.getMessage());
        }
        store.skip(r);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(
            final Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        if (failure != null) {
            throw failure;
        }
        try {
            // A record reported to the dead letter queue must be there before a commit moves past its offset.
            for (Future<Void> f : reported) {
                f.get();
            }
            reported.clear();
            final Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
            for (PartitionStore s : stores.values()) {
                final long offset = s.commit();
                if (offset >= 0) {
                    committed.put(s.partition(), new OffsetAndMetadata(offset));
                }
            }
            return committed;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw fail(new ConnectException("interrupted while waiting for the dead letter queue", e));
        } catch (ExecutionException e) {
            throw fail(new ConnectException("writing a bad record to the dead letter queue failed", e.getCause()));
        } catch (IOException | RuntimeException e) {
            throw fail(new ConnectException("committing the stores failed: " + e.getMessage(), e));
        }
    }

    /** After a failed commit the stores must be reopened at their last commits: refuse every further put. */
    private RuntimeException fail(final RuntimeException e) {
        failure = e;
        return e;
    }

    @Override
    public void close(final Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            final PartitionStore s = stores.remove(tp);
            if (s != null) {
                closeQuietly(s);
            }
        }
    }

    @Override
    public void stop() {
        for (PartitionStore s : stores.values()) {
            closeQuietly(s);
        }
        stores.clear();
    }

    private static void closeQuietly(final PartitionStore s) {
        try {
            s.close();
        } catch (IOException | RuntimeException e) {
            LOG.warn("closing the store of {} failed (it reopens at its last commit): {}", s.partition(),
                    e.getMessage(), e);
        }
    }
}
