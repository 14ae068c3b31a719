package io.nearsort.kafka.connect;

import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** validate() attaches each error to the key at fault and says what was expected. */
class NearsortSinkConfigTest {
    private static Map<String, String> valid() {
        final Map<String, String> c = new HashMap<>();
        c.put("connector.class", NearsortSinkConnector.class.getName());
        c.put("topics", "events");
        c.put(NearsortSinkConfig.STORE_DIR, "/tmp/stores");
        c.put(NearsortSinkConfig.COLUMNS, Events.COLUMNS);
        c.put(NearsortSinkConfig.PROJECTIONS, Events.PROJECTIONS);
        return c;
    }

    /** The error messages validate() gives each key that has any. */
    private static Map<String, List<String>> errors(final Map<String, String> props) {
        final Config config = new NearsortSinkConnector().validate(props);
        final Map<String, List<String>> errors = new HashMap<>();
        for (ConfigValue v : config.configValues()) {
            if (!v.errorMessages().isEmpty()) {
                errors.put(v.name(), v.errorMessages());
            }
        }
        return errors;
    }

    private static void assertError(final String key, final String value, final String expected) {
        final Map<String, String> props = valid();
        if (value == null) {
            props.remove(key);
        } else {
            props.put(key, value);
        }
        final Map<String, List<String>> errors = errors(props);
        assertEquals(List.of(key), List.copyOf(errors.keySet()), "errors on exactly " + key + ": " + errors);
        assertTrue(errors.get(key).get(0).contains(expected), errors.get(key).toString());
    }

    @Test
    void aValidConfigurationHasNoErrorsAndItsLayout() {
        assertEquals(Map.of(), errors(valid()));
        final NearsortSinkConfig c = new NearsortSinkConfig(valid());
        assertEquals(NearsortSinkConfig.parseColumns(Events.COLUMNS).columns(), c.layout().schema().columns());
        assertEquals(List.of("by_time", "by_value"), c.layout().projections().stream().map(p -> p.name()).toList());
        assertEquals(List.of("event_time", "id"), c.layout().projection("by_time").projection().columns());
        assertEquals(List.of("value", "sensor"), c.layout().projection("by_value").projection().columns());
    }

    @Test
    void eachBadValueIsNamedByItsKey() {
        assertError(NearsortSinkConfig.STORE_DIR, null, "Missing required configuration");
        assertError(NearsortSinkConfig.COLUMNS, "id:long,x", "column 'x' has no type");
        assertError(NearsortSinkConfig.COLUMNS, "id:long,event_time:long,v:decimal", "unknown type 'decimal'");
        assertError(NearsortSinkConfig.COLUMNS, "id:long,event_time:long,s:string(x)", "N of string(N)");
        assertError(NearsortSinkConfig.TIME_COLUMN, "ts", "not a column of columns");
        assertError(NearsortSinkConfig.TIME_COLUMN, "sensor", "must be a long column");
        assertError(NearsortSinkConfig.PROJECTIONS, "by_s=sensor", "key column");
        assertError(NearsortSinkConfig.PROJECTIONS, " by_v= ", "'by_v=' is not NAME=KEY,COLUMN,...");
        assertError(NearsortSinkConfig.PROJECTIONS, "by_v=value; =sensor", "'=sensor' is not NAME=KEY,COLUMN,...");
        assertError(NearsortSinkConfig.PROJECTIONS, "by_v=value;by_w=value", "more than one projection");
        assertError(NearsortSinkConfig.PROJECTIONS, "by_t=event_time", "belongs to the time projection");
        assertError(NearsortSinkConfig.VALUE_FORMAT, "avro", "String must be one of");
        assertError(NearsortSinkConfig.TIME_SOURCE, "now", "String must be one of");
        assertError(NearsortSinkConfig.MEMORY_BUDGET, "1000", "Value must be at least 1048576");
        assertError(NearsortSinkConfig.RETAINED_COMMITS, "0", "Value must be at least 1");
    }
}
