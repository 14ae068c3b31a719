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

import java.util.Date;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
    void aBadValueNamesItsFieldAndWritesNothing() {
        final ColumnBatch b = ColumnBatch.allocate(SCHEMA, 1);
        final RecordMapper map = new RecordMapper(SCHEMA, "event_time", TimeSource.FIELD, ValueFormat.MAP);
        final Map<String, Object> good = Map.of("id", 1L, "event_time", 2L, "sensor", "s", "value", 1.0);
        assertMessage(map, Map.of("id", 1L, "event_time", 2L, "value", 1.0), "field 'sensor' is missing or null");
        assertMessage(map, Map.of("id", 1L, "event_time", "2", "sensor", "s", "value", 1.0),
                "field 'event_time' is a String (2), not a value for a LONG column");
        assertMessage(map, Map.of("id", 1L, "event_time", 2L, "sensor", "123456789", "value", 1.0),
                "field 'sensor' has 9 UTF-8 bytes; its column is string(8)");
        assertMessage(map, Map.of("id", 1L, "event_time", 2L, "sensor", "s", "value", Double.NaN),
                "field 'value' is NaN");
        assertMessage(map, "text", "value.format=map needs a Map value (got: String)");
        assertMessage(new RecordMapper(SCHEMA, "event_time", TimeSource.FIELD, ValueFormat.JSON), "[1,2]",
                "not a JSON object");
        assertMessage(new RecordMapper(SCHEMA, "event_time", TimeSource.RECORD_TIMESTAMP, ValueFormat.MAP), good,
                "no timestamp for column event_time");
        assertMessage(map, null, "tombstone");
        assertArrayEquals(new long[] {0}, b.longs("id"), "nothing written by the failed maps");
    }

    private static void assertMessage(final RecordMapper mapper, final Object value, final String expected) {
        final ColumnBatch b = ColumnBatch.allocate(SCHEMA, 1);
        final String message = assertThrows(DataException.class, () -> mapper.map(record(value, null), b, 0))
                .getMessage();
        assertTrue(message.contains(expected), message);
        assertEquals(0, b.longs("id")[0], "nothing written");
    }
}
