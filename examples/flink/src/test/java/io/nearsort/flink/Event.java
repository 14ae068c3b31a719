package io.nearsort.flink;

import io.nearsort.ldi.projection.Column;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.RowCursor;
import io.nearsort.ldi.projection.Schema;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The test stream's element: event {@code id} with a near-sorted event time (every 37th 20 s late, 2,000 positions
 * behind), a sensor and a value, all derived from the id so that stores can be checked row by row.
 */
public final class Event implements Serializable {
    private static final long serialVersionUID = 1L;
    static final long T0 = 1_700_000_000_000L;
    static final Schema SCHEMA = Schema.of(Column.longColumn("time"), Column.longColumn("id"),
            Column.fixedString("sensor", 8), Column.doubleColumn("value"));

    private final long id;

    public Event(final long id) {
        this.id = id;
    }

    public long getId() {
        return id;
    }

    public long getTime() {
        return T0 + id * 10 - (id % 37 == 0 ? 20_000 : 0);
    }

    public String getSensor() {
        return "s" + (id % 7);
    }

    public double getValue() {
        return id * 0.5;
    }

    /** A sink of events into {@code dir}: by_time (time, id) and by_value (value, sensor). */
    static NearsortSink<Event> sink(final Path dir, final int retainedCommits) {
        return NearsortSink.<Event>builder().directory(dir).schema(SCHEMA)
                .projection(Projection.of("by_time", "time", "time", "id"))
                .projection(Projection.of("by_value", "value", "value", "sensor"))
                .rowMapper(RowMappers.pojo(Event.class)).retainedCommits(retainedCommits).batchRows(64).build();
    }

    /** How often each id occurs in the stores under {@code dir}; every row is checked against its event. */
    static Map<Long, Integer> readStores(final Path dir) throws IOException, InterruptedException {
        final Map<Long, Integer> counts = new HashMap<>();
        final List<Path> stores = new ArrayList<>();
        try (var s = Files.list(dir)) {
            s.filter(Files::isDirectory).sorted().forEach(stores::add);
        }
        for (Path store : stores) {
            try (ColumnStore c = openWhenReleased(store)) {
                final Map<Long, Long> idOfRow = new HashMap<>();
                try (RowCursor r = c.scan("by_time", Long.MIN_VALUE, Long.MAX_VALUE, "time", "id")) {
                    while (r.next()) {
                        final Event e = new Event(r.getLong(1));
                        assertEquals(e.getTime(), r.getLong(0), "time of " + e.getId());
                        idOfRow.put(r.rowId(), e.getId());
                        counts.merge(e.getId(), 1, Integer::sum);
                    }
                }
                try (RowCursor r = c.scan("by_value", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, "value",
                        "sensor")) {
                    while (r.next()) {
                        final Event e = new Event(idOfRow.get(r.rowId()));
                        assertEquals(e.getValue(), r.getDouble(0), "value of " + e.getId());
                        assertEquals(e.getSensor(), r.getString(1), "sensor of " + e.getId());
                    }
                }
            }
        }
        return counts;
    }

    private static ColumnStore openWhenReleased(final Path dir) throws IOException {
        return ColumnStore.openWhenReleased(60_000, () -> ColumnStore.open(dir, ColumnStoreOptions.builder()
                .commitOnClose(false).retainedCommits(10_000).build()));
    }

    /** Asserts that ids {@code [0, n)} each occur once and no other does. */
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
