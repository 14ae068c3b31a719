package io.nearsort.kafka.connect;

import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.TableLayout;
import io.nearsort.ldi.projection.ProjectionLayout;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Records per second through the connector end to end — an in-process broker and one Connect worker, 4 partitions,
 * 2 tasks, schemaless JSON values, a store commit every second — against the same rows appended to the stores
 * directly (one thread, batches of 4,096, one store per partition). Not part of the default test run (the class name
 * is not a test's); it checks that every record arrived. Run:
 * {@code mvn -B -ntp -pl examples/kafka-connect -am test -Dtest=ConnectThroughputBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false -Dnearsort.sinkBenchRecords=400000}
 */
class ConnectThroughputBenchmark {
    private static final int PARTITIONS = 4;

    @Test
    void throughput(@TempDir final Path dir) throws Exception {
        final long n = Long.getLong("nearsort.sinkBenchRecords", 400_000);
        final Map<String, String> worker = new HashMap<>();
        worker.put("plugin.discovery", "service_load");
        worker.put("offset.flush.interval.ms", "1000");
        final EmbeddedConnectCluster connect = new EmbeddedConnectCluster.Builder().name("nearsort-bench")
                .numWorkers(1).workerProps(worker).build();
        connect.start();
        double connectRate;
        try (KafkaProducer<byte[], byte[]> producer = connect.kafka().createProducer(Map.of());
             Admin admin = connect.kafka().createAdminClient()) {
            Events.createTopic(connect.kafka(), admin, "bench", PARTITIONS);
            Events.produce(producer, "bench", PARTITIONS, 0, n, false);
            final Map<String, String> config = ConnectClusterTest.connectorConfig("bench", dir.resolve("connect"),
                    NearsortSinkConnector.class.getName(), 2, false);
            config.put(NearsortSinkConfig.BATCH_ROWS, "4096");
            config.put("consumer.override.max.poll.records", "4096");
            final long start = System.nanoTime();
            connect.configureConnector("bench-sink", config);
            Events.awaitCommitted(admin, "bench-sink", n, 600_000);
            connectRate = n / ((System.nanoTime() - start) / 1e9);
            connect.deleteConnector("bench-sink");
            connect.assertions().assertConnectorDoesNotExist("bench-sink", "deleted");
        } finally {
            connect.stop();
        }
        assertEquals(n, Events.readStores(dir.resolve("connect"), PARTITIONS).size());

        final double directRate = direct(dir.resolve("direct"), n);
        System.out.printf(Locale.ROOT, "%nKafka Connect sink, %,d records, %d partitions, 2 tasks: end to end %,.0f"
                + " records/s; appended directly %,.0f records/s (%.1fx)%n", n, PARTITIONS, connectRate,
                directRate, directRate / connectRate);
    }

    /** The same rows, batch-appended by one thread into a store per partition, committed once a partition is done. */
    private static double direct(final Path dir, final long n) throws Exception {
        final Map<String, String> props = ConnectClusterTest.connectorConfig("bench", dir, "x", 1, false);
        final NearsortSinkConfig config = new NearsortSinkConfig(props);
        final TableLayout layout = config.layout();
        final long start = System.nanoTime();
        for (int p = 0; p < PARTITIONS; p++) {
            try (ColumnStore store = ColumnStore.open(dir.resolve("bench-" + p), layout.schema(),
                    layout.projections().stream().map(ProjectionLayout::projection).toList(),
                    config.storeOptions())) {
                final ColumnBatch batch = ColumnBatch.allocate(layout.schema(), 4096);
                final long[] id = batch.longs("id");
                final long[] time = batch.longs("event_time");
                final String[] sensor = batch.strings("sensor");
                final double[] value = batch.doubles("value");
                int rows = 0;
                for (long i = p; i < n; i += PARTITIONS) {
                    id[rows] = i;
                    time[rows] = Events.eventTime(i);
                    sensor[rows] = Events.sensor(i);
                    value[rows] = Events.value(i);
                    if (++rows == 4096) {
                        store.append(batch.rows(rows));
                        rows = 0;
                    }
                }
                store.append(batch.rows(rows));
                store.flush(Map.of("kafka.offset", Long.toString(n)));
            }
        }
        return n / ((System.nanoTime() - start) / 1e9);
    }
}
