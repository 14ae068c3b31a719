package io.nearsort.kafka.connect;

import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import io.nearsort.ldi.projection.RowCursor;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The test stream: event {@code i} has a near-sorted event time (every 37th event 20 s late, i.e. 2,000 positions
 * behind), a sensor and a value, all derived from {@code i}, so that a store can be checked row by row against what
 * was produced.
 */
final class Events {
    static final String COLUMNS = "id:long,event_time:long,sensor:string(8),value:double";
    /** The projection besides by_time (which gets event_time and id). */
    static final String PROJECTIONS = "by_value=value,sensor";
    static final long T0 = 1_700_000_000_000L;

    private Events() {
    }

    static long eventTime(final long i) {
        return T0 + i * 10 - (i % 37 == 0 ? 20_000 : 0);
    }

    static String sensor(final long i) {
        return "s" + (i % 7);
    }

    static double value(final long i) {
        return i * 0.5;
    }

    /** Event {@code i} as the JsonConverter's schema-and-payload envelope (a Struct in the sink). */
    static String structJson(final long i) {
        return "{\"schema\":{\"type\":\"struct\",\"optional\":false,\"fields\":["
                + "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
                + "{\"field\":\"event_time\",\"type\":\"int64\",\"optional\":false},"
                + "{\"field\":\"sensor\",\"type\":\"string\",\"optional\":false},"
                + "{\"field\":\"value\",\"type\":\"double\",\"optional\":false}]},"
                + "\"payload\":" + plainJson(i) + "}";
    }

    /** Event {@code i} as a plain JSON object (a schemaless map, or a JSON string, in the sink). */
    static String plainJson(final long i) {
        return String.format(Locale.ROOT, "{\"id\":%d,\"event_time\":%d,\"sensor\":\"%s\",\"value\":%s}", i,
                eventTime(i), sensor(i), Double.toString(value(i)));
    }

    /** Sends events {@code [from, to)} to {@code partitions} partitions round robin, keyed by id; waits for acks. */
    static void produce(final KafkaProducer<byte[], byte[]> producer, final String topic, final int partitions,
                        final long from, final long to, final boolean struct) {
        final List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
        for (long i = from; i < to; i++) {
            final String json = struct ? structJson(i) : plainJson(i);
            sent.add(producer.send(new ProducerRecord<>(topic, (int) (i % partitions),
                    Long.toString(i).getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8))));
        }
        producer.flush();
        try {
            for (java.util.concurrent.Future<?> f : sent) {
                f.get();
            }
        } catch (InterruptedException | ExecutionException e) {
            throw new AssertionError("producing failed", e);
        }
    }

    /**
     * Creates {@code topic} and waits until the broker leads every partition (answers a list-offsets request), so
     * that the first sends do not meet a leader still being elected: an idempotent producer's retries there can
     * end in OUT_OF_ORDER_SEQUENCE_NUMBER loops.
     */
    static void createTopic(final org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster kafka,
                            final Admin admin, final String topic, final int partitions) throws InterruptedException {
        kafka.createTopic(topic, partitions);
        final Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(topic, p), org.apache.kafka.clients.admin.OffsetSpec.latest());
        }
        final long deadline = System.currentTimeMillis() + 30_000;
        while (true) {
            try {
                admin.listOffsets(request).all().get();
                return;
            } catch (ExecutionException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw new AssertionError("topic " + topic + " has no leaders after 30 s", e);
                }
                Thread.sleep(100);
            }
        }
    }

    /** The sink's committed offsets of its consumer group {@code connect-<connector>}, summed over partitions. */
    static long committed(final Admin admin, final String connector) {
        try {
            final Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets("connect-"
                    + connector).partitionsToOffsetAndMetadata().get();
            return offsets.values().stream().filter(o -> o != null).mapToLong(OffsetAndMetadata::offset).sum();
        } catch (InterruptedException | ExecutionException e) {
            return -1;
        }
    }

    /** Waits until the sink's committed offsets add up to {@code expected}. */
    static void awaitCommitted(final Admin admin, final String connector, final long expected,
                               final long timeoutMillis) throws InterruptedException {
        final long deadline = System.currentTimeMillis() + timeoutMillis;
        long seen = -1;
        while (System.currentTimeMillis() < deadline) {
            seen = committed(admin, connector);
            if (seen == expected) {
                return;
            }
            Thread.sleep(200);
        }
        fail("connector " + connector + " committed offsets adding up to " + seen + ", not " + expected
                + " within " + timeoutMillis + " ms");
    }

    /**
     * Reads every partition store under {@code base} (waiting for its owner to release it) and returns how often
     * each event id occurs; checks each row against the event it claims to be and that every store's rows are
     * those of its partition.
     */
    static Map<Long, Integer> readStores(final Path base, final int partitions) throws IOException,
            InterruptedException {
        final Map<Long, Integer> counts = new HashMap<>();
        final List<Path> dirs;
        try (Stream<Path> s = Files.list(base)) {
            dirs = s.filter(Files::isDirectory).sorted().toList();
        }
        for (Path dir : dirs) {
            final int partition = Integer.parseInt(dir.getFileName().toString()
                    .substring(dir.getFileName().toString().lastIndexOf('-') + 1));
            try (ColumnStore store = openWhenReleased(dir)) {
                final Map<Long, Long> idOfRow = new HashMap<>();
                try (RowCursor c = store.scan("by_time", Long.MIN_VALUE, Long.MAX_VALUE, "event_time", "id")) {
                    long previous = Long.MIN_VALUE;
                    while (c.next()) {
                        final long id = c.getLong(1);
                        assertTrue(c.getLong(0) >= previous, "rows in event-time order");
                        previous = c.getLong(0);
                        assertEquals(eventTime(id), c.getLong(0), "event_time of " + id);
                        assertEquals(id % partitions, partition, "event " + id + " in the store of partition "
                                + partition);
                        idOfRow.put(c.rowId(), id);
                        counts.merge(id, 1, Integer::sum);
                    }
                }
                long rows = 0;
                try (RowCursor c = store.scan("by_value", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                        "value", "sensor")) {
                    while (c.next()) {
                        final Long id = idOfRow.get(c.rowId());
                        assertTrue(id != null, "row " + c.rowId() + " of by_value is a row of by_time");
                        assertEquals(value(id), c.getDouble(0), "value of " + id);
                        assertEquals(sensor(id), c.getString(1), "sensor of " + id);
                        rows++;
                    }
                }
                assertEquals(idOfRow.size(), rows, "both projections hold the same rows in " + dir);
            }
        }
        return counts;
    }

    private static ColumnStore openWhenReleased(final Path dir) throws IOException {
        return ColumnStore.openWhenReleased(60_000, () -> ColumnStore.open(dir, ColumnStoreOptions.builder()
                .commitOnClose(false).retainedCommits(10_000).build()));
    }

    /** Asserts that ids {@code [0, n)} each occur exactly once and nothing else does. */
    static void assertExactlyOnce(final Map<Long, Integer> counts, final long n) {
        final List<Long> missing = new ArrayList<>();
        final List<Long> duplicated = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            final int c = counts.getOrDefault(i, 0);
            if (c == 0) {
                missing.add(i);
            } else if (c > 1) {
                duplicated.add(i);
            }
        }
        assertTrue(missing.isEmpty() && duplicated.isEmpty(), missing.size() + " events missing (first: "
                + missing.stream().limit(10).toList() + "), " + duplicated.size() + " duplicated (first: "
                + duplicated.stream().limit(10).toList() + ")");
        assertEquals(n, counts.size(), "no other ids");
    }
}
