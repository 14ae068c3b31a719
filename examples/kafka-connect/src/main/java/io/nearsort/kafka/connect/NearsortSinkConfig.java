package io.nearsort.kafka.connect;

import io.nearsort.ldi.projection.Column;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import io.nearsort.ldi.projection.ColumnType;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.Schema;
import io.nearsort.ldi.projection.TableLayout;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The connector's configuration: where the stores live, their columns and projections, how a record's value is read
 * and how the stores are tuned. Every key is documented in {@link #CONFIG_DEF} (Connect shows it through the REST
 * API's config validation); {@link #layout()} checks the keys against each other and names the key at fault.
 */
public final class NearsortSinkConfig extends AbstractConfig {
    public static final String STORE_DIR = "store.dir";
    public static final String COLUMNS = "columns";
    public static final String TIME_COLUMN = "time.column";
    public static final String TIME_SOURCE = "time.source";
    public static final String TIME_PROJECTION = "time.projection";
    public static final String PROJECTIONS = "projections";
    public static final String VALUE_FORMAT = "value.format";
    public static final String MEMORY_BUDGET = "store.memory.budget.bytes";
    public static final String RETAINED_COMMITS = "store.retained.commits";
    public static final String LOCK_TIMEOUT = "store.lock.timeout.ms";
    public static final String BATCH_ROWS = "batch.rows";

    /** Where the time column's value comes from. */
    public enum TimeSource { FIELD, RECORD_TIMESTAMP }

    /** How a record's value is read: a {@code Struct} with a schema, a schemaless map, or a JSON object text. */
    public enum ValueFormat { STRUCT, MAP, JSON }

    /** The accepted column type spellings (as {@code nearsort ingest --schema} spells them, dates aside). */
    static final String TYPES = "long, double, string, string(N)";

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(STORE_DIR, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                    Importance.HIGH, "Directory holding the column stores: one per topic partition, in"
                            + " <store.dir>/<topic>-<partition>, opened by the task the partition is assigned to."
                            + " Every worker that may run a task must see the same directory (a local disk for"
                            + " one worker, a shared file system otherwise).")
            .define(COLUMNS, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                    Importance.HIGH, "The store's columns, name:type,... with types " + TYPES + ". Each column"
                            + " is read from the value's field of the same name, except the time column when "
                            + TIME_SOURCE + "=record_timestamp.")
            .define(TIME_COLUMN, Type.STRING, "event_time", new ConfigDef.NonEmptyString(), Importance.HIGH,
                    "The long column holding each record's event time; the time projection is keyed on it.")
            .define(TIME_SOURCE, Type.STRING, "field", ConfigDef.CaseInsensitiveValidString.in("field",
                    "record_timestamp"), Importance.HIGH, "field: the time column is read from the value's field"
                    + " of its name (a long, or a Connect Timestamp as epoch milliseconds); record_timestamp: it is"
                    + " the Kafka record's timestamp.")
            .define(TIME_PROJECTION, Type.STRING, "by_time", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                    "Name of the projection keyed on the time column; it holds every column that no projection"
                            + " of " + PROJECTIONS + " holds.")
            .define(PROJECTIONS, Type.STRING, "", Importance.MEDIUM, "Further projections,"
                    + " NAME=KEY,COLUMN,...;NAME=KEY,... (the key first: a long or double column). A column belongs"
                    + " to one projection.")
            .define(VALUE_FORMAT, Type.STRING, "struct", ConfigDef.CaseInsensitiveValidString.in("struct", "map",
                    "json"), Importance.HIGH, "struct: values are Connect Structs with a schema (e.g. the"
                    + " JsonConverter with schemas, Avro); map: schemaless maps (the JsonConverter with"
                    + " schemas.enable=false); json: strings holding a JSON object (the StringConverter).")
            .define(MEMORY_BUDGET, Type.LONG, 64L << 20, ConfigDef.Range.between(1L << 20, 1L << 40),
                    Importance.MEDIUM, "Heap bytes each partition's store may hold for rows not yet written.")
            .define(RETAINED_COMMITS, Type.INT, 2, ConfigDef.Range.between(1, 10_000), Importance.LOW,
                    "Commit points each store retains (nearsort query can read any of them).")
            .define(LOCK_TIMEOUT, Type.LONG, 60_000L, ConfigDef.Range.between(0L, 3_600_000L), Importance.LOW,
                    "How long a task waits for a partition's store to be released by its previous owner (a task"
                            + " still closing after a rebalance) before it fails.")
            .define(BATCH_ROWS, Type.INT, 4096, ConfigDef.Range.between(1, 1 << 20), Importance.LOW,
                    "Rows a partition gathers column-wise before appending them to its store in one batch.");

    /** A configuration error of one key, which {@link NearsortSinkConnector#validate} attaches to that key. */
    static final class InvalidKey extends ConfigException {
        private static final long serialVersionUID = 1L;
        private final String key;

        InvalidKey(final String key, final Object value, final String message) {
            super(key, value, message);
            this.key = key;
        }

        String key() {
            return key;
        }
    }

    public NearsortSinkConfig(final Map<String, String> props) {
        super(CONFIG_DEF, props);
    }

    public Path storeDir() {
        return Path.of(getString(STORE_DIR));
    }

    public TimeSource timeSource() {
        return TimeSource.valueOf(getString(TIME_SOURCE).toUpperCase(Locale.ROOT));
    }

    public ValueFormat valueFormat() {
        return ValueFormat.valueOf(getString(VALUE_FORMAT).toUpperCase(Locale.ROOT));
    }

    public String timeColumn() {
        return getString(TIME_COLUMN).strip();
    }

    public int batchRows() {
        return getInt(BATCH_ROWS);
    }

    public long lockTimeoutMillis() {
        return getLong(LOCK_TIMEOUT);
    }

    /** The options every partition's store is opened with: no commit on close, so only {@code preCommit} commits. */
    public ColumnStoreOptions storeOptions() {
        return ColumnStoreOptions.builder().commitOnClose(false).memoryBudget(getLong(MEMORY_BUDGET))
                .retainedCommits(getInt(RETAINED_COMMITS)).build();
    }

    /**
     * The stores' schema and projections: the time projection keyed on the time column with every column no other
     * projection holds, then the configured ones.
     *
     * @throws ConfigException naming the key whose value is wrong
     */
    public TableLayout layout() {
        final Schema schema = parseColumns(getString(COLUMNS));
        final String time = timeColumn();
        try {
            if (schema.column(time).type() != ColumnType.LONG) {
                throw new InvalidKey(TIME_COLUMN, time, "the time column must be a long column of " + COLUMNS
                        + " (it is " + schema.column(time).type() + ")");
            }
        } catch (IllegalArgumentException e) {
            throw new InvalidKey(TIME_COLUMN, time, "not a column of " + COLUMNS + ": " + e.getMessage());
        }
        final List<Projection> others = parseProjections(getString(PROJECTIONS));
        final Set<String> taken = new LinkedHashSet<>();
        for (Projection p : others) {
            taken.addAll(p.columns());
        }
        if (taken.contains(time)) {
            throw new InvalidKey(PROJECTIONS, getString(PROJECTIONS), "the time column " + time
                    + " belongs to the time projection " + getString(TIME_PROJECTION) + "; no other projection"
                    + " may hold it");
        }
        final List<String> timeColumns = new ArrayList<>();
        timeColumns.add(time);
        for (Column c : schema.columns()) {
            if (!c.name().equals(time) && !taken.contains(c.name())) {
                timeColumns.add(c.name());
            }
        }
        final List<Projection> all = new ArrayList<>();
        try {
            all.add(new Projection(getString(TIME_PROJECTION).strip(), time, timeColumns));
        } catch (IllegalArgumentException e) {
            throw new InvalidKey(TIME_PROJECTION, getString(TIME_PROJECTION), e.getMessage());
        }
        all.addAll(others);
        try {
            return new TableLayout(schema, all);
        } catch (IllegalArgumentException e) {
            throw new InvalidKey(PROJECTIONS, getString(PROJECTIONS), e.getMessage());
        }
    }

    /** Parses {@code name:type,...}; throws naming {@value #COLUMNS} and the column at fault. */
    static Schema parseColumns(final String spec) {
        final List<Column> columns = new ArrayList<>();
        for (String part : spec.split(",", -1)) {
            final int colon = part.indexOf(':');
            if (colon < 0) {
                throw new InvalidKey(COLUMNS, spec, "column '" + part.strip() + "' has no type: write"
                        + " name:type (types: " + TYPES + ")");
            }
            final String name = part.substring(0, colon).strip();
            final String type = part.substring(colon + 1).strip().toLowerCase(Locale.ROOT);
            try {
                columns.add(switch (type) {
                    case "long" -> Column.longColumn(name);
                    case "double" -> Column.doubleColumn(name);
                    case "string" -> Column.varString(name);
                    default -> {
                        if (type.startsWith("string(") && type.endsWith(")")) {
                            yield Column.fixedString(name, parseWidth(spec, name, type));
                        }
                        throw new InvalidKey(COLUMNS, spec, "column " + name + ": unknown type '" + type
                                + "' (types: " + TYPES + ")");
                    }
                });
            } catch (IllegalArgumentException e) {
                throw new InvalidKey(COLUMNS, spec, e.getMessage());
            }
        }
        try {
            return Schema.of(columns);
        } catch (IllegalArgumentException e) {
            throw new InvalidKey(COLUMNS, spec, e.getMessage());
        }
    }

    private static int parseWidth(final String spec, final String name, final String type) {
        try {
            return Integer.parseInt(type.substring(7, type.length() - 1).strip());
        } catch (NumberFormatException e) {
            throw new InvalidKey(COLUMNS, spec, "column " + name + ": N of string(N) must be a number of bytes"
                    + " in [1, 65535] (got: '" + type + "')");
        }
    }

    /** Parses {@code NAME=KEY,COLUMN,...;...}; throws naming {@value #PROJECTIONS}. */
    static List<Projection> parseProjections(final String spec) {
        final List<Projection> projections = new ArrayList<>();
        if (spec == null || spec.isBlank()) {
            return projections;
        }
        for (String untrimmed : spec.split(";", -1)) {
            final String part = untrimmed.strip();
            final int eq = part.indexOf('=');
            if (eq < 1 || part.substring(eq + 1).isBlank()) {
                throw new InvalidKey(PROJECTIONS, spec, "'" + part + "' is not NAME=KEY,COLUMN,..."
                        + " (the key column first)");
            }
            final List<String> columns = new ArrayList<>();
            for (String c : part.substring(eq + 1).split(",", -1)) {
                columns.add(c.strip());
            }
            try {
                projections.add(new Projection(part.substring(0, eq).strip(), columns.get(0), columns));
            } catch (IllegalArgumentException e) {
                throw new InvalidKey(PROJECTIONS, spec, e.getMessage());
            }
        }
        return projections;
    }
}
