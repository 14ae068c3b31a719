package io.nearsort.kafka.connect;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.runtime.rest.errors.ConnectRestException;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The connector on an in-process broker and Connect cluster of two workers (started once for the class): records
 * with near-sorted event times and late ones, a task crashing between commits and restarted, a worker leaving and
 * joining mid-stream, the consumer group's offsets reset behind the stores; then every store checked against what
 * was produced, row by row: no loss, no duplicate. Bad records reach the dead letter queue topic, or fail the task
 * naming their offset.
 */
class ConnectClusterTest {
    private static final int PARTITIONS = 4;

    private static EmbeddedConnectCluster connect;
    private static KafkaProducer<byte[], byte[]> producer;
    private static Admin admin;

    @BeforeAll
    static void startCluster() {
        final Map<String, String> worker = new HashMap<>();
        worker.put("plugin.discovery", "service_load");
        worker.put("offset.flush.interval.ms", "500"); // preCommit, i.e. a store commit, every half second
        worker.put("consumer.max.poll.records", "250");
        // reassign what a leaving worker ran after 2 s, not the default 5 minutes
        worker.put("scheduled.rebalance.max.delay.ms", "2000");
        connect = new EmbeddedConnectCluster.Builder().name("nearsort-connect").numWorkers(2).workerProps(worker)
                .build();
        connect.start();
        producer = connect.kafka().createProducer(Map.of());
        admin = connect.kafka().createAdminClient();
    }

    @AfterAll
    static void stopCluster() {
        if (producer != null) {
            producer.close();
        }
        if (admin != null) {
            admin.close();
        }
        if (connect != null) {
            connect.stop();
        }
    }

    static Map<String, String> connectorConfig(final String topic, final Path dir, final String connectorClass,
                                               final int tasks, final boolean struct) {
        final Map<String, String> c = new HashMap<>();
        c.put("connector.class", connectorClass);
        c.put("tasks.max", Integer.toString(tasks));
        c.put("topics", topic);
        c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        c.put("value.converter.schemas.enable", Boolean.toString(struct));
        c.put(NearsortSinkConfig.STORE_DIR, dir.toString());
        c.put(NearsortSinkConfig.COLUMNS, Events.COLUMNS);
        c.put(NearsortSinkConfig.PROJECTIONS, Events.PROJECTIONS);
        c.put(NearsortSinkConfig.VALUE_FORMAT, struct ? "struct" : "map");
        c.put(NearsortSinkConfig.BATCH_ROWS, "128");
        // Half the default memory budget per store (the default buffers need about 5 MiB of it); the sink has no keys
        // for bucket size or training prefix, so the stores keep the defaults.
        c.put(NearsortSinkConfig.MEMORY_BUDGET, Long.toString(32L << 20));
        return c;
    }

    @Test
    void everyRecordIsStoredExactlyOnceThroughCrashesRestartsAndRewinds(@TempDir final Path dir) throws Exception {
        final String name = "events-sink";
        final String topic = "events";
        Events.createTopic(connect.kafka(), admin, topic, PARTITIONS);
        Events.produce(producer, topic, PARTITIONS, 0, 6_000, true);

        // A task crashes in put after 2,500 records (Connect's close still commits what it took); it is restarted.
        CrashingSinkConnector.CRASH_AFTER.set(2_500);
        untilAccepted(() -> connect.configureConnector(name,
                connectorConfig(topic, dir, CrashingSinkConnector.class.getName(), 2, true)));
        final int failed = awaitFailedTask(name);
        assertEquals(0, CrashingSinkConnector.CRASH_AFTER.get(), "the crash was injected");
        untilAccepted(() -> connect.restartTask(name, failed));
        Events.awaitCommitted(admin, name, 6_000, 60_000);

        // A worker leaves mid-stream (its tasks move to the other) and a new one joins.
        Events.produce(producer, topic, PARTITIONS, 6_000, 12_000, true);
        connect.removeWorker();
        connect.addWorker();
        Events.produce(producer, topic, PARTITIONS, 12_000, 15_000, true);
        Events.awaitCommitted(admin, name, 15_000, 90_000);
        connect.assertions().assertExactlyNumWorkersAreUp(2, "the new worker is up");

        // The consumer group's offsets are reset to the beginning, behind the stores (as a crash between a store
        // commit and the group's offset commit would leave them, only further): the tasks rewind to the stores'.
        // The calls go through the REST API of whichever worker, which forwards them to the group's leader; after
        // the membership changes above, a worker may still forward to the leader that left until its rebalance
        // completes, so each call is retried until a worker accepts it (all three are idempotent).
        untilAccepted(() -> connect.stopConnector(name));
        connect.assertions().assertConnectorIsStopped(name, "connector stopped");
        untilAccepted(() -> connect.resetConnectorOffsets(name));
        untilAccepted(() -> connect.resumeConnector(name));
        Events.produce(producer, topic, PARTITIONS, 15_000, 16_000, true);
        Events.awaitCommitted(admin, name, 16_000, 90_000);

        untilAccepted(() -> connect.deleteConnector(name));
        connect.assertions().assertConnectorDoesNotExist(name, "connector deleted");
        Events.assertExactlyOnce(Events.readStores(dir, PARTITIONS), 16_000);
    }

    /**
     * Runs a REST call until the cluster accepts it: a 409 (a rebalance in progress), a 500 from forwarding to a
     * leader that is gone, or a 500 the worker itself calls safe to retry (an offset reset refused while the stopped
     * connector's tasks are still shutting down) is retried for up to a minute; any other refusal fails at once.
     */
    private static void untilAccepted(final Runnable call) throws InterruptedException {
        final long deadline = System.currentTimeMillis() + 60_000;
        while (true) {
            try {
                call.run();
                return;
            } catch (ConnectRestException refused) {
                final boolean retry = refused.statusCode() == 409
                        || (refused.statusCode() == 500 && (refused.getMessage().contains("forward")
                                || refused.getMessage().contains("can be safely retried")));
                if (!retry || System.currentTimeMillis() > deadline) {
                    throw refused;
                }
            }
            Thread.sleep(250);
        }
    }

    private static int awaitFailedTask(final String name) throws InterruptedException {
        final long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                final ConnectorStateInfo info = connect.connectorStatus(name);
                for (ConnectorStateInfo.TaskState t : info.tasks()) {
                    if ("FAILED".equals(t.state())) {
                        assertTrue(t.trace().contains("injected crash"), t.trace());
                        return t.id();
                    }
                }
            } catch (RuntimeException notYet) {
                // the connector is still being created
            }
            Thread.sleep(100);
        }
        return fail("no task of " + name + " failed");
    }

    @Test
    void badRecordsGoToTheDeadLetterQueueAndTheRestIsStored(@TempDir final Path dir) throws Exception {
        final String name = "dlq-sink";
        final String topic = "mixed";
        final String dlq = "mixed-dlq";
        Events.createTopic(connect.kafka(), admin, topic, 1);
        final Set<String> bad = new HashSet<>();
        for (long i = 0; i < 1_000; i++) {
            String json = Events.plainJson(i);
            if (i % 97 == 5) {
                json = json.replace("\"sensor\"", "\"sensr\""); // a missing field
                bad.add(Long.toString(i));
            } else if (i % 89 == 7) {
                json = json.replace("\"value\":", "\"value\":\"x\",\"other\":"); // a string for a double
                bad.add(Long.toString(i));
            } else if (i % 83 == 11) {
                json = json.replace("\"s" + (i % 7) + "\"", "\"" + "s".repeat(9) + "\""); // too long for string(8)
                bad.add(Long.toString(i));
            }
            producer.send(new ProducerRecord<>(topic, 0, Long.toString(i).getBytes(StandardCharsets.UTF_8),
                    json.getBytes(StandardCharsets.UTF_8)));
        }
        producer.flush();
        final Map<String, String> config = connectorConfig(topic, dir, NearsortSinkConnector.class.getName(), 1,
                false);
        config.put("errors.tolerance", "all");
        config.put("errors.deadletterqueue.topic.name", dlq);
        config.put("errors.deadletterqueue.topic.replication.factor", "1");
        config.put("errors.deadletterqueue.context.headers.enable", "true");
        untilAccepted(() -> connect.configureConnector(name, config));
        Events.awaitCommitted(admin, name, 1_000, 60_000);
        final ConsumerRecords<byte[], byte[]> dead = connect.kafka().consume(bad.size(), 30_000, dlq);
        final Set<String> deadKeys = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : dead) {
            deadKeys.add(new String(r.key(), StandardCharsets.UTF_8));
            assertTrue(r.headers().lastHeader("__connect.errors.exception.message") != null, "error header");
        }
        assertEquals(bad, deadKeys, "exactly the bad records reach the dead letter queue");
        untilAccepted(() -> connect.deleteConnector(name));
        connect.assertions().assertConnectorDoesNotExist(name, "connector deleted");
        final Map<Long, Integer> counts = Events.readStores(dir, 1);
        for (long i = 0; i < 1_000; i++) {
            assertEquals(bad.contains(Long.toString(i)) ? 0 : 1, counts.getOrDefault(i, 0), "event " + i);
        }
    }

    @Test
    void withoutToleranceABadRecordFailsTheTaskNamingItsOffsetAndKeepsWhatWasCommitted(@TempDir final Path dir)
            throws Exception {
        final String name = "strict-sink";
        final String topic = "strict";
        Events.createTopic(connect.kafka(), admin, topic, 1);
        Events.produce(producer, topic, 1, 0, 600, false);
        untilAccepted(() -> connect.configureConnector(name,
                connectorConfig(topic, dir, NearsortSinkConnector.class.getName(), 1, false)));
        Events.awaitCommitted(admin, name, 600, 60_000);
        producer.send(new ProducerRecord<>(topic, 0, "600".getBytes(StandardCharsets.UTF_8),
                "{\"id\":600,\"event_time\":\"late\",\"sensor\":\"s1\",\"value\":1.0}".getBytes(
                        StandardCharsets.UTF_8)));
        Events.produce(producer, topic, 1, 601, 700, false);
        connect.assertions().assertConnectorIsRunningAndTasksHaveFailed(name, 1, "the task failed");
        final String trace = connect.connectorStatus(name).tasks().get(0).trace();
        assertTrue(trace.contains("topic strict partition 0 offset 600") && trace.contains("event_time"), trace);
        untilAccepted(() -> connect.deleteConnector(name));
        connect.assertions().assertConnectorDoesNotExist(name, "connector deleted");
        Events.assertExactlyOnce(Events.readStores(dir, 1), 600);
    }
}
