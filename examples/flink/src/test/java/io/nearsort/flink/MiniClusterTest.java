package io.nearsort.flink;

import io.nearsort.ldi.commit.CommitPoint;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
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
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sink in jobs on a Flink MiniCluster (started once for the class; slots above the jobs' parallelism of 2): a
 * replayable source of near-sorted events with a failure injected after checkpoints (after the sink committed a
 * checkpoint that then fails) and a restart strategy, and a bounded job; then every event in the subtasks' stores
 * exactly once.
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

    /** Completed when the failure is injected; the first attempt's source holds its second half back until then. */
    private static volatile CompletableFuture<Void> injected = new CompletableFuture<>();

    /**
     * Fails its subtask's checkpoint once (first attempt only), in its own snapshot, at the first checkpoint after
     * checkpoint 2 completed. The sink chained behind it has then already committed that checkpoint in its store
     * (Flink snapshots a chain's operators from its tail to its head), but the checkpoint never completes: the job
     * fails (no failed checkpoint is tolerated), the restore goes back to the last completed one and the sink must
     * roll its store back past a commit. Driven by checkpoints, not by events, so it happens whatever the load.
     */
    static final class FailAfterABarrier extends RichMapFunction<Event, Event>
            implements CheckpointedFunction, CheckpointListener {
        private static final long serialVersionUID = 1L;
        private transient boolean armed;

        @Override
        public Event map(final Event e) {
            return e;
        }

        @Override
        public void notifyCheckpointComplete(final long checkpointId) {
            armed |= checkpointId >= 2 && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0;
        }

        @Override
        public void snapshotState(final FunctionSnapshotContext context) {
            if (armed) {
                injected.complete(null);
                throw new IllegalStateException("injected failure in the snapshot of checkpoint "
                        + context.getCheckpointId() + ", after the sink committed it");
            }
        }

        @Override
        public void initializeState(final FunctionInitializationContext context) {
        }
    }

    /**
     * A rate of {@code perSecond} events over all readers; until the failure is injected, each reader also holds
     * back every event after its first {@code hold}, so that the first attempt cannot end (and stop taking
     * checkpoints) before the failure. Waiting readers still take checkpoints: the wait is a future, not a block.
     */
    static final class HoldUntilTheFailure implements RateLimiterStrategy<NumberSequenceSource.NumberSequenceSplit> {
        private static final long serialVersionUID = 1L;
        private final double perSecond;
        private final long hold;

        HoldUntilTheFailure(final double perSecond, final long hold) {
            this.perSecond = perSecond;
            this.hold = hold;
        }

        @Override
        public RateLimiter<NumberSequenceSource.NumberSequenceSplit> createRateLimiter(final int parallelism) {
            final RateLimiter<?> rate = RateLimiterStrategy.perSecond(perSecond).createRateLimiter(parallelism);
            final CompletableFuture<Void> failure = injected;
            return new RateLimiter<>() {
                private long acquired;

                @Override
                public CompletionStage<Void> acquire(final int events) {
                    acquired += events;
                    return acquired > hold && !failure.isDone() ? failure.thenCompose(v -> rate.acquire(events))
                            : rate.acquire(events);
                }
            };
        }
    }

    @Test
    void aFailureAfterCheckpointsLeavesEveryEventInTheStoresExactlyOnce(@TempDir final Path dir) throws Exception {
        final long n = 12_000;
        injected = new CompletableFuture<>();
        final Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        conf.setString("jobmanager.execution.failover-strategy", "full");
        final StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(300);

        final NearsortSink<Event> sink = Event.sink(dir, 50);
        env.fromSource(new DataGeneratorSource<>(new Events(), n, new HoldUntilTheFailure(3_000, n / PARALLELISM / 2),
                        TypeInformation.of(Event.class)), WatermarkStrategy.noWatermarks(), "events")
                .map(new FailAfterABarrier()).name("fail once")
                .sinkTo(sink).name("nearsort");
        env.execute("nearsort sink exactly once");
        assertTrue(injected.isDone(), "the failure was injected");

        // The restore rolled each store back past a commit of a checkpoint that never completed: the commit ids,
        // never reused, have a gap where that commit was.
        for (int s = 0; s < PARALLELISM; s++) {
            try (ColumnStore store = ColumnStore.open(sink.storeDirectory(s), ColumnStoreOptions.builder()
                    .commitOnClose(false).retainedCommits(50).build())) {
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
