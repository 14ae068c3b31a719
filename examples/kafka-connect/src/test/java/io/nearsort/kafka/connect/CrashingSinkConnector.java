package io.nearsort.kafka.connect;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkConnector;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.apache.kafka.connect.sink.SinkTaskContext;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The nearsort connector with a task that, once armed, crashes in {@code put} after taking a given number of
 * records — between two periodic commits — as a task failing on its own would. The crash does not leave those rows
 * uncommitted: Connect still calls {@code preCommit} when it closes the failed task, and the nearsort task commits
 * every record it took, the failing {@code put}'s included (it threw after the delegate took them), with their
 * offsets. What the crash exercises is the failed task's close and the restarted task's reopen and rewind.
 */
public final class CrashingSinkConnector extends SinkConnector {
    /** Records the next task to take them takes before it throws; 0: disarmed. */
    static final AtomicInteger CRASH_AFTER = new AtomicInteger();

    private final NearsortSinkConnector delegate = new NearsortSinkConnector();

    @Override
    public void start(final Map<String, String> props) {
        delegate.start(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return CrashingTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(final int maxTasks) {
        return delegate.taskConfigs(maxTasks);
    }

    @Override
    public void stop() {
        delegate.stop();
    }

    @Override
    public ConfigDef config() {
        return delegate.config();
    }

    @Override
    public String version() {
        return delegate.version();
    }

    /** Delegates to {@link NearsortSinkTask}; throws from {@code put} once {@link #CRASH_AFTER} records passed. */
    public static final class CrashingTask extends SinkTask {
        private final NearsortSinkTask delegate = new NearsortSinkTask();
        private int taken;

        @Override
        public void initialize(final SinkTaskContext context) {
            super.initialize(context);
            delegate.initialize(context);
        }

        @Override
        public String version() {
            return delegate.version();
        }

        @Override
        public void start(final Map<String, String> props) {
            delegate.start(props);
        }

        @Override
        public void open(final Collection<TopicPartition> partitions) {
            delegate.open(partitions);
        }

        @Override
        public void put(final Collection<SinkRecord> records) {
            delegate.put(records);
            taken += records.size();
            final int after = CRASH_AFTER.get();
            if (after > 0 && taken >= after && CRASH_AFTER.compareAndSet(after, 0)) {
                throw new ConnectException("injected crash after " + taken + " records");
            }
        }

        @Override
        public Map<TopicPartition, OffsetAndMetadata> preCommit(final Map<TopicPartition, OffsetAndMetadata> o) {
            return delegate.preCommit(o);
        }

        @Override
        public void close(final Collection<TopicPartition> partitions) {
            delegate.close(partitions);
        }

        @Override
        public void stop() {
            delegate.stop();
        }
    }
}
