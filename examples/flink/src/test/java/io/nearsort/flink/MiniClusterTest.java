package io.nearsort.flink;

import io.nearsort.ldi.commit.CommitPoint;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sink in jobs on a Flink MiniCluster (started once for the class; slots above the jobs' parallelism of 2): a
 * replayable source of near-sorted events with a failure injected after checkpoints and a restart strategy, and a
 * bounded job; then every event in the subtasks' stores exactly once.
 */
class MiniClusterTest {
    private static final int PARALLELISM = 2;

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());

    /** Event {@code i} of the replayable source. */
    static final class Events implements GeneratorFunction<Long, Event> {
        private static final long serialVersionUID = 1L;

        @Override
        public Event map(final Long i) {
            return new Event(i);
        }
    }

    /**
     * Fails its subtask once (first attempt only) right after a checkpoint barrier passed, once two checkpoints
     * completed: the sink chained behind it has then committed that checkpoint in its store, but the checkpoint is
     * not complete (the slow branch has not acknowledged it), so the restore goes back to the one before and the
     * sink must roll its store back past a commit.
     */
    static final class FailAfterABarrier extends RichMapFunction<Event, Event>
            implements CheckpointedFunction, CheckpointListener {
        private static final long serialVersionUID = 1L;
        private transient boolean armed;
        private transient boolean failNext;

        @Override
        public Event map(final Event e) {
            if (failNext) {
                throw new IllegalStateException("injected failure after a checkpoint barrier, at event " + e.getId());
            }
            return e;
        }

        @Override
        public void notifyCheckpointComplete(final long checkpointId) {
            armed |= checkpointId >= 2 && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0;
        }

        @Override
        public void snapshotState(final FunctionSnapshotContext context) {
            failNext = armed;
        }

        @Override
        public void initializeState(final FunctionInitializationContext context) {
        }
    }

    /** Acknowledges checkpoints a second late in the first attempt, so they complete well after the sink commits. */
    static final class SlowSnapshot extends RichMapFunction<Long, Long> implements CheckpointedFunction {
        private static final long serialVersionUID = 1L;

        @Override
        public Long map(final Long v) {
            return v;
        }

        @Override
        public void snapshotState(final FunctionSnapshotContext context) throws InterruptedException {
            if (getRuntimeContext().getTaskInfo().getAttemptNumber() == 0) {
                Thread.sleep(1_000);
            }
        }

        @Override
        public void initializeState(final FunctionInitializationContext context) {
        }
    }

    @Test
    void aFailureAfterCheckpointsLeavesEveryEventInTheStoresExactlyOnce(@TempDir final Path dir) throws Exception {
        final long n = 12_000;
        final Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        conf.setString("jobmanager.execution.failover-strategy", "full");
        final StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(300);

        final NearsortSink<Event> sink = Event.sink(dir, 50);
        env.fromSource(new DataGeneratorSource<>(new Events(), n, RateLimiterStrategy.perSecond(3_000),
                        TypeInformation.of(Event.class)), WatermarkStrategy.noWatermarks(), "events")
                .map(new FailAfterABarrier()).name("fail once")
                .sinkTo(sink).name("nearsort");
        env.fromSource(new DataGeneratorSource<>(i -> i, 120, RateLimiterStrategy.perSecond(20), Types.LONG),
                        WatermarkStrategy.noWatermarks(), "slow branch")
                .map(new SlowSnapshot()).sinkTo(new DiscardingSink<>());
        env.execute("nearsort sink exactly once");

        // The restore rolled each store back past a commit of a checkpoint that never completed: the commit ids,
        // never reused, have a gap where that commit was.
        for (int s = 0; s < PARALLELISM; s++) {
            try (ColumnStore store = ColumnStore.open(sink.storeDirectory(s), ColumnStoreOptions.defaults()
                    .withCommitOnClose(false).withRetainedCommits(50))) {
                final List<CommitPoint> commits = store.commits();
                boolean gap = false;
                for (int i = 1; i < commits.size(); i++) {
                    gap |= commits.get(i).id() != commits.get(i - 1).id() + 1;
                }
                assertTrue(gap, "subtask " + s + " rolled back a commit: " + commits.stream()
                        .map(c -> c.id() + "=" + c.metadata().get(NearsortSinkWriter.CHECKPOINT)).toList());
            }
        }
        Event.assertExactlyOnce(Event.readStores(dir), n);
    }

    @Test
    void aBoundedJobsResultIsCompleteWhenExecuteReturns(@TempDir final Path dir) throws Exception {
        final long n = 20_000;
        final StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        env.fromSource(new DataGeneratorSource<>(new Events(), n, TypeInformation.of(Event.class)),
                        WatermarkStrategy.noWatermarks(), "events")
                .sinkTo(Event.sink(dir, 10));
        env.execute("nearsort sink, bounded");
        Event.assertExactlyOnce(Event.readStores(dir), n);
    }
}
