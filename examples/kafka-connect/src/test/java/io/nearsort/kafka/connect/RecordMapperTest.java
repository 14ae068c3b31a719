package io.nearsort.kafka.connect;

import io.nearsort.kafka.connect.NearsortSinkConfig.TimeSource;
import io.nearsort.kafka.connect.NearsortSinkConfig.ValueFormat;
import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.Schema;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Records of each value format fill a row; a bad value names its field and leaves the row uncounted. */
class RecordMapperTest {
    private static final Schema SCHEMA = NearsortSinkConfig.parseColumns(Events.COLUMNS);

    private static SinkRecord record(final Object value, final Long timestamp) {
        return new SinkRecord("t", 0, null, null, null, value, 7, timestamp, TimestampType.CREATE_TIME);
    }

    private static void assertRow(final ColumnBatch b, final int row, final long id, final long time,
                                  final String sensor, final double value) {
        assertEquals(id, b.longs("id")[row]);
        assertEquals(time, b.longs("event_time")[row]);
        assertEquals(sensor, b.strings("sensor")[row]);
        assertEquals(value, b.doubles("value")[row]);
    }

    @Test
    void structsMapsAndJsonTextFillTheSameRow() {
        final org.apache.kafka.connect.data.Schema schema = SchemaBuilder.struct()
                .field("id", org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
                .field("event_time", Timestamp.SCHEMA)
                .field("sensor", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
                .field("value", org.apache.kafka.connect.data.Schema.FLOAT32_SCHEMA)
                .field("extra", org.apache.kafka.connect.data.Schema.STRING_SCHEMA).build();
        final Struct struct = new Struct(schema).put("id", 3).put("event_time", new Date(1_000L))
                .put("sensor", "s3").put("value", 1.5f).put("extra", "ignored");
        final ColumnBatch b = ColumnBatch.allocate(SCHEMA, 4);
        new RecordMapper(SCHEMA, "event_time", TimeSource.FIELD, ValueFormat.STRUCT).map(record(struct, null), b, 0);
        assertRow(b, 0, 3, 1_000, "s3", 1.5);
        new RecordMapper(SCHEMA, "event_time", TimeSource.FIELD, ValueFormat.MAP).map(record(Map.of("id", 4L,
                "event_time", 2_000L, "sensor", "s4", "value", 2), null), b, 1);
        assertRow(b, 1, 4, 2_000, "s4", 2.0);
        new RecordMapper(SCHEMA, "event_time", TimeSource.FIELD, ValueFormat.JSON).map(record(Events.plainJson(5),
                null), b, 2);
        assertRow(b, 2, 5, Events.eventTime(5), Events.sensor(5), Events.value(5));
        new RecordMapper(SCHEMA, "event_time", TimeSource.RECORD_TIMESTAMP, ValueFormat.MAP).map(record(Map.of(
                "id", 6L, "sensor", "s6", "value", 0.25), 9_999L), b, 3);
        assertRow(b, 3, 6, 9_999, "s6", 0.25);
    }

    @Test
    void jsonNumbersAreExactAndStringsStayStrings() {
        final Schema schema = NearsortSinkConfig.parseColumns("id:long,event_time:long,day:string,value:double");
        final ColumnBatch b = ColumnBatch.allocate(schema, 2);
        final RecordMapper json = new RecordMapper(schema, "event_time", TimeSource.FIELD, ValueFormat.JSON);
        json.map(record("{\"id\": 9007199254740993, \"event_time\": 2.0, \"day\": \"2024-01-31\","
                + " \"value\": 0.1}", null), b, 0);
        assertEquals(9_007_199_254_740_993L, b.longs("id")[0], "a long beyond 2^53 exactly");
        assertEquals(2L, b.longs("event_time")[0], "2.0 is a long");
        assertEquals("2024-01-31", b.strings("day")[0], "a date-looking string stays a string");
        assertEquals(0.1, b.doubles("value")[0], 0.0, "the double nearest 0.1, not a float's");
        json.map(record("{\"id\": 2, \"event_time\": 3, \"day\": \"12:30:00\", \"value\": 1e-7}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8), null), b, 1);
        assertEquals("12:30:00", b.strings("day")[1]);
        assertEquals(1e-7, b.doubles("value")[1], 0.0);
        assertMessage(json, "{\"id\": 3.5, \"event_time\": 2, \"day\": \"d\", \"value\": 1}",
                "field 'id' (3.5) is not a long integer", ColumnBatch.allocate(schema, 1));
        assertMessage(json, "{\"id\": 1, \"event_time\": 2, \"day\": true, \"value\": 1}",
                "field 'day' is a Boolean", ColumnBatch.allocate(schema, 1));
        assertMessage(json, "{\"id\": 1", "the value is not JSON", ColumnBatch.allocate(schema, 1));
        assertMessage(json, "{\"id\": 1} {}", "the value is not JSON", ColumnBatch.allocate(schema, 1));
    }

    @Test
    void aBadValueNamesItsFieldAndWritesNothing() {
        // Row 0 holds a good row; each failed map must leave all of it as it was.
        final ColumnBatch b = ColumnBatch.allocate(SCHEMA, 1);
        final RecordMapper map = new RecordMapper(SCHEMA, "event_time", TimeSource.FIELD, ValueFormat.MAP);
        map.map(record(Map.of("id", 99L, "event_time", 98L, "sensor", "good", "value", 9.5), null), b, 0);
        final Map<String, Object> good = Map.of("id", 1L, "event_time", 2L, "sensor", "s", "value", 1.0);
        assertMessage(map, Map.of("id", 1L, "event_time", 2L, "value", 1.0), "field 'sensor' is missing or null", b);
        assertMessage(map, Map.of("id", 1L, "event_time", "2", "sensor", "s", "value", 1.0),
                "field 'event_time' is a String (2), not a value for a LONG column", b);
        assertMessage(map, Map.of("id", 1L, "event_time", 2L, "sensor", "123456789", "value", 1.0),
                "field 'sensor': column sensor holds at most 8 UTF-8 bytes (got 9)", b);
        assertMessage(map, Map.of("id", 1L, "event_time", 2L, "sensor", "s\0", "value", 1.0),
                "field 'sensor': column sensor does not accept NUL characters", b);
        assertMessage(map, Map.of("id", 1L, "event_time", 2L, "sensor", "s", "value", Double.NaN),
                "field 'value' (NaN): column value does not accept NaN", b);
        assertMessage(map, "text", "value.format=map needs a Map value (got: String)", b);
        assertMessage(new RecordMapper(SCHEMA, "event_time", TimeSource.FIELD, ValueFormat.JSON), "[1,2]",
                "not a JSON object", b);
        assertMessage(new RecordMapper(SCHEMA, "event_time", TimeSource.RECORD_TIMESTAMP, ValueFormat.MAP), good,
                "no timestamp for column event_time", b);
        assertMessage(map, null, "tombstone", b);
    }

    private static List<Object> row0(final ColumnBatch b) {
        final List<Object> row = new ArrayList<>();
        for (int c = 0; c < b.schema().size(); c++) {
            row.add(java.lang.reflect.Array.get(b.column(c), 0));
        }
        return row;
    }

    /** Mapping {@code value} into row 0 of {@code b} fails with {@code expected} and leaves the row as it was. */
    private static void assertMessage(final RecordMapper mapper, final Object value, final String expected,
                                      final ColumnBatch b) {
        final List<Object> before = row0(b);
        final String message = assertThrows(DataException.class, () -> mapper.map(record(value, null), b, 0))
                .getMessage();
        assertTrue(message.contains(expected), message);
        assertEquals(before, row0(b), "nothing written");
    }
}
