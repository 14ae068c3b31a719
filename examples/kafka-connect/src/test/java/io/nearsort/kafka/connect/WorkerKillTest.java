package io.nearsort.kafka.connect;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Connect worker in a child JVM (ConnectStandalone, the connector on its class path) killed with
 * {@code destroyForcibly()} while records keep arriving, and restarted; in the end every record is in the stores
 * exactly once. Each worker is first let run until it commits past what the previous one committed (so each kill
 * follows progress), then killed at a random moment within the next 1.5 s — during puts, store commits or offset
 * commits; never during its own start, which this test does not cover. The broker runs in this JVM, started once for
 * the class.
 *
 * <p>The long run: {@code mvn -pl examples/kafka-connect -am test -Dtest=WorkerKillTest
 * -Dnearsort.excludedGroups=none -Dgroups=slow -Dsurefire.failIfNoSpecifiedTests=false} (25 kills).
 */
class WorkerKillTest {
    private static final int PARTITIONS = 4;
    private static EmbeddedKafkaCluster kafka;
    private static KafkaProducer<byte[], byte[]> producer;
    private static Admin admin;

    @BeforeAll
    static void startBroker() {
        kafka = new EmbeddedKafkaCluster(1, new java.util.Properties());
        kafka.start();
        producer = kafka.createProducer(Map.of());
        admin = kafka.createAdminClient();
    }

    @AfterAll
    static void stopBroker() {
        if (producer != null) {
            producer.close();
        }
        if (admin != null) {
            admin.close();
        }
        if (kafka != null) {
            kafka.stop();
        }
    }

    @Test
    void aWorkerKilledThreeTimesMidStreamLeavesEveryRecordOnce(@TempDir final Path dir) throws Exception {
        run(dir, "killed3", 3, 11);
    }

    @Test
    @Tag("slow")
    void aWorkerKilledTwentyFiveTimesMidStreamLeavesEveryRecordOnce(@TempDir final Path dir) throws Exception {
        run(dir, "killed25", 25, 12);
    }

    private static void run(final Path dir, final String topic, final int kills, final long seed) throws Exception {
        Events.createTopic(kafka, admin, topic, PARTITIONS);
        final String connector = topic + "-sink";
        final Path stores = Files.createDirectories(dir.resolve("stores"));
        final Path worker = write(dir.resolve("worker.properties"), Map.of(
                "bootstrap.servers", kafka.bootstrapServers(),
                "key.converter", "org.apache.kafka.connect.storage.StringConverter",
                "value.converter", "org.apache.kafka.connect.json.JsonConverter",
                "offset.storage.file.filename", dir.resolve("offsets").toString(),
                "plugin.discovery", "service_load",
                "listeners", "http://127.0.0.1:0",
                "offset.flush.interval.ms", "300",
                "consumer.max.poll.records", "200",
                // a static member: a restarted worker takes its place at once instead of waiting for the killed
                // one's session to expire
                "consumer.group.instance.id", connector + "-worker"));
        final Map<String, String> c = ConnectClusterTest.connectorConfig(topic, stores,
                NearsortSinkConnector.class.getName(), 1, true);
        c.put("name", connector);
        final Path connectorFile = write(dir.resolve("connector.properties"), c);

        final AtomicLong produced = new AtomicLong();
        final AtomicBoolean producing = new AtomicBoolean(true);
        final Thread source = new Thread(() -> {
            while (producing.get()) {
                final long from = produced.get();
                Events.produce(producer, topic, PARTITIONS, from, from + 300, true);
                produced.set(from + 300);
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "producer");
        source.start();
        final Random random = new Random(seed);
        try {
            long seen = 0;
            for (int k = 0; k < kills; k++) {
                final Process p = startWorker(dir, worker, connectorFile, k);
                try {
                    // Let the worker get going (its first commit past what was seen), then kill it anywhere.
                    final long deadline = System.currentTimeMillis() + 90_000;
                    while (Events.committed(admin, connector) <= seen && System.currentTimeMillis() < deadline) {
                        Thread.sleep(50);
                    }
                    Thread.sleep(random.nextInt(1_500));
                } finally {
                    p.destroyForcibly();
                    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "killed worker " + k + " exited");
                }
                final long now = Events.committed(admin, connector);
                assertTrue(now > seen, "worker " + k + " committed something (see " + dir + "/worker-" + k
                        + ".log)");
                seen = now;
            }
        } finally {
            producing.set(false);
            source.join();
        }
        final Process last = startWorker(dir, worker, connectorFile, kills);
        try {
            Events.awaitCommitted(admin, connector, produced.get(), 120_000);
        } finally {
            last.destroyForcibly();
            last.waitFor(30, TimeUnit.SECONDS);
        }
        Events.assertExactlyOnce(Events.readStores(stores, PARTITIONS), produced.get());
    }

    private static Process startWorker(final Path dir, final Path worker, final Path connector, final int n)
            throws IOException {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx512m",
                "-cp", System.getProperty("java.class.path"), "org.apache.kafka.connect.cli.ConnectStandalone",
                worker.toString(), connector.toString()));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("worker-" + n + ".log").toFile()).start();
    }

    private static Path write(final Path file, final Map<String, String> props) throws IOException {
        final StringBuilder s = new StringBuilder();
        props.forEach((k, v) -> s.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
        return Files.writeString(file, s);
    }
}
