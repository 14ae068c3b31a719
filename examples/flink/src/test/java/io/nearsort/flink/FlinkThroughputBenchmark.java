package io.nearsort.flink;

import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ProjectionLayout;
import io.nearsort.ldi.projection.TableLayout;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Events per second through the sink in a job on a MiniCluster — a generator source, parallelism 2, POJO row mapper,
 * a checkpoint (store commit) every second — against the same rows appended to a store directly (one thread,
 * batches of 4,096). Not part of the default test run (the class name is not a test's); it checks that every event
 * arrived. Run: {@code mvn -B -ntp -pl examples/flink -am test -Dtest=FlinkThroughputBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false -Dnearsort.sinkBenchRecords=2000000}
 */
class FlinkThroughputBenchmark {
    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @Test
    void throughput(@TempDir final Path dir) throws Exception {
        final long n = Long.getLong("nearsort.sinkBenchRecords", 2_000_000);
        final StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(1_000);
        final NearsortSink<Event> sink = NearsortSink.<Event>builder().directory(dir.resolve("flink"))
                .schema(Event.SCHEMA)
                .projection(io.nearsort.ldi.projection.Projection.of("by_time", "time", "time", "id"))
                .projection(io.nearsort.ldi.projection.Projection.of("by_value", "value", "value", "sensor"))
                .rowMapper(RowMappers.pojo(Event.class)).build();
        env.fromSource(new DataGeneratorSource<>(new MiniClusterTest.Events(), n, TypeInformation.of(Event.class)),
                WatermarkStrategy.noWatermarks(), "events").sinkTo(sink);
        final long start = System.nanoTime();
        env.execute("nearsort sink throughput");
        final double flinkRate = n / ((System.nanoTime() - start) / 1e9);
        assertEquals(n, Event.readStores(dir.resolve("flink")).size());

        final TableLayout layout = sink.layout();
        final long t0 = System.nanoTime();
        try (ColumnStore store = ColumnStore.open(dir.resolve("direct"), layout.schema(), layout.projections()
                .stream().map(ProjectionLayout::projection).toList(), sink.options())) {
            final ColumnBatch batch = ColumnBatch.allocate(layout.schema(), 4096);
            final long[] time = batch.longs("time");
            final long[] id = batch.longs("id");
            final String[] sensor = batch.strings("sensor");
            final double[] value = batch.doubles("value");
            int rows = 0;
            for (long i = 0; i < n; i++) {
                final Event e = new Event(i);
                time[rows] = e.getTime();
                id[rows] = i;
                sensor[rows] = e.getSensor();
                value[rows] = e.getValue();
                if (++rows == 4096) {
                    store.append(batch.rows(rows));
                    rows = 0;
                }
            }
            store.append(batch.rows(rows));
            store.flush(Map.of("checkpointId", "end"));
        }
        final double directRate = n / ((System.nanoTime() - t0) / 1e9);
        System.out.printf(Locale.ROOT, "%nFlink sink, %,d events, parallelism 2: job %,.0f events/s (MiniCluster"
                + " start excluded); appended directly %,.0f events/s (%.1fx)%n", n, flinkRate, directRate,
                directRate / flinkRate);
    }
}
