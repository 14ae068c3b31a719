package io.nearsort.kafka.connect;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.nearsort.kafka.connect.NearsortSinkConfig.TimeSource;
import io.nearsort.kafka.connect.NearsortSinkConfig.ValueFormat;
import io.nearsort.ldi.projection.Column;
import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.Schema;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * Reads a record's value into one row of a {@link ColumnBatch}: each column from the value's field of the same name
 * (a {@code Struct} field, a map entry, or a member of a JSON object), the time column from the record's timestamp
 * if so configured. A value that cannot fill its column (missing field, null, wrong type, NaN, a string too long for
 * its {@code string(N)} column) throws a {@link DataException} naming the field, before the row counts: the batch
 * then holds only whole rows. The column's own checks ({@link Column#checkDouble}, {@link Column#checkString}) decide
 * what a column takes, so the mapper rejects exactly what the store would.
 *
 * <p>JSON text is parsed by Jackson with fractional numbers as {@link BigDecimal}s, so a double column gets the
 * double nearest the JSON number (0.1 stays 0.1) and a long column takes {@code 3.0} but not {@code 3.5}; strings
 * stay strings.
 */
final class RecordMapper {
    /** The JSON parser, created on first use (only value.format=json needs Jackson); thread-safe, shared. */
    private static final class Json {
        static final ObjectMapper MAPPER = JsonMapper.builder()
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    }

    private final Column[] columns;
    private final boolean[] fromTimestamp;
    private final ValueFormat format;
    /** One row's converted values (scratch, reused: a mapper serves one task thread). */
    private final long[] longs;
    private final double[] doubles;
    private final String[] strings;

    RecordMapper(final Schema schema, final String timeColumn, final TimeSource timeSource, final ValueFormat format) {
        final List<Column> list = schema.columns();
        this.columns = list.toArray(Column[]::new);
        this.fromTimestamp = new boolean[columns.length];
        for (int c = 0; c < columns.length; c++) {
            fromTimestamp[c] = timeSource == TimeSource.RECORD_TIMESTAMP && columns[c].name().equals(timeColumn);
        }
        this.format = format;
        this.longs = new long[columns.length];
        this.doubles = new double[columns.length];
        this.strings = new String[columns.length];
    }

    /** Writes {@code record} into row {@code row} of {@code batch} (which has this mapper's schema). */
    void map(final SinkRecord record, final ColumnBatch batch, final int row) {
        final Object value = record.value();
        if (value == null) {
            throw new DataException("the record has no value (a tombstone)");
        }
        final Fields fields = fields(value);
        // Every value is converted before any is stored, so that a bad record leaves no half-written row behind
        // that a later caller could mistake for data (the batch's row count only moves after map returns).
        for (int c = 0; c < columns.length; c++) {
            final Column column = columns[c];
            if (fromTimestamp[c]) {
                if (record.timestamp() == null) {
                    throw new DataException("the record has no timestamp for column " + column.name());
                }
                longs[c] = record.timestamp();
                continue;
            }
            final Object v = fields.get(column.name());
            if (v == null) {
                throw new DataException("field '" + column.name() + "' is missing or null");
            }
            switch (column.type()) {
                case LONG -> longs[c] = toLong(column, v);
                case DOUBLE -> doubles[c] = toDouble(column, v);
                case FIXED_STRING, VAR_STRING -> strings[c] = toString(column, v);
                default -> throw new AssertionError(column.type());
            }
        }
        for (int c = 0; c < columns.length; c++) {
            switch (columns[c].type()) {
                case LONG -> ((long[]) batch.column(c))[row] = longs[c];
                case DOUBLE -> ((double[]) batch.column(c))[row] = doubles[c];
                default -> ((String[]) batch.column(c))[row] = strings[c];
            }
        }
    }

    /** A record value's named fields. */
    private interface Fields {
        Object get(String name);
    }

    private Fields fields(final Object value) {
        switch (format) {
            case STRUCT -> {
                if (!(value instanceof Struct struct)) {
                    throw new DataException("value.format=struct needs a Struct value (got: " + type(value) + ")");
                }
                return name -> {
                    final Field f = struct.schema().field(name);
                    return f == null ? null : struct.get(f);
                };
            }
            case MAP -> {
                if (!(value instanceof Map<?, ?> map)) {
                    throw new DataException("value.format=map needs a Map value (got: " + type(value) + ")");
                }
                return map::get;
            }
            case JSON -> {
                final JsonNode parsed;
                try {
                    if (value instanceof byte[] b) {
                        parsed = Json.MAPPER.readTree(b);
                    } else if (value instanceof String s) {
                        parsed = Json.MAPPER.readTree(s);
                    } else {
                        throw new DataException("value.format=json needs a String (or bytes) holding a JSON object"
                                + " (got: " + type(value) + ")");
                    }
                } catch (IOException e) { // Jackson's parse errors (JacksonException) are IOExceptions
                    throw new DataException("the value is not JSON: " + (e instanceof JacksonException j
                            ? j.getOriginalMessage() : e.getMessage()), e);
                }
                if (parsed == null || !parsed.isObject()) {
                    throw new DataException("the value is not a JSON object (got: "
                            + abbreviate(String.valueOf(parsed)) + ")");
                }
                return name -> json(parsed.get(name));
            }
            default -> throw new AssertionError(format);
        }
    }

    /** A JSON member as the Java value the column conversions take: a number, a string, or the node itself. */
    private static Object json(final JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isNumber()) {
            return node.numberValue();
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        return node.isBoolean() ? (Object) node.booleanValue() : node;
    }

    private static long toLong(final Column column, final Object v) {
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Date d) { // Connect's Timestamp (and Date) logical types
            return d.getTime();
        }
        try {
            if (v instanceof BigInteger b) {
                return b.longValueExact();
            }
            if (v instanceof BigDecimal b) {
                return b.longValueExact();
            }
        } catch (ArithmeticException e) {
            throw new DataException("field '" + column.name() + "' (" + v + ") is not a long integer");
        }
        throw wrongType(column, v);
    }

    private static double toDouble(final Column column, final Object v) {
        if (!(v instanceof Number n)) {
            throw wrongType(column, v);
        }
        final double d = n.doubleValue();
        try {
            column.checkDouble(d);
        } catch (IllegalArgumentException e) {
            throw new DataException("field '" + column.name() + "' (" + v + "): " + e.getMessage(), e);
        }
        return d;
    }

    private static String toString(final Column column, final Object v) {
        if (!(v instanceof String s)) {
            throw wrongType(column, v);
        }
        try {
            column.checkString(s);
        } catch (IllegalArgumentException e) {
            throw new DataException("field '" + column.name() + "': " + e.getMessage(), e);
        }
        return s;
    }

    private static DataException wrongType(final Column column, final Object v) {
        return new DataException("field '" + column.name() + "' is a " + type(v) + " (" + abbreviate(v.toString())
                + "), not a value for a " + column.type() + " column");
    }

    private static String type(final Object v) {
        return v.getClass().getSimpleName();
    }

    private static String abbreviate(final String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
