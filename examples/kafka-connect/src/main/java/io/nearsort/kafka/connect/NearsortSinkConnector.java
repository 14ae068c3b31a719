package io.nearsort.kafka.connect;

import io.nearsort.kafka.connect.NearsortSinkConfig.InvalidKey;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Kafka Connect sink connector writing records into nearsort column stores (LDI projections), one store per topic
 * partition, exactly once ({@link NearsortSinkTask}). Configuration: {@link NearsortSinkConfig#CONFIG_DEF}.
 *
 * <p>The worker's JVM needs {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} (set it in
 * {@code KAFKA_OPTS}); without it the connector and its tasks fail at start naming the flag.
 */
public final class NearsortSinkConnector extends SinkConnector {
    /** The connector's version: the jar's Implementation-Version (the Maven project's), "unknown" off a jar. */
    static final String VERSION = versionOf(NearsortSinkConnector.class);

    private Map<String, String> props;

    private static String versionOf(final Class<?> c) {
        final String v = c.getPackage() == null ? null : c.getPackage().getImplementationVersion();
        return v != null ? v : "unknown";
    }

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void start(final Map<String, String> props) {
        NearsortSinkTask.requireAgronaFlag("connector");
        new NearsortSinkConfig(props).layout();
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return NearsortSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(final int maxTasks) {
        final List<Map<String, String>> configs = new ArrayList<>();
        for (int i = 0; i < maxTasks; i++) {
            configs.add(props);
        }
        return configs;
    }

    @Override
    public void stop() {
        // Nothing to release: the tasks own the stores.
    }

    @Override
    public ConfigDef config() {
        return NearsortSinkConfig.CONFIG_DEF;
    }

    /** Each key's own checks, then the keys against each other: an error is attached to the key at fault. */
    @Override
    public Config validate(final Map<String, String> connectorConfigs) {
        final Config config = super.validate(connectorConfigs);
        for (ConfigValue v : config.configValues()) {
            if (!v.errorMessages().isEmpty()) {
                return config;
            }
        }
        try {
            new NearsortSinkConfig(connectorConfigs).layout();
        } catch (InvalidKey e) {
            for (ConfigValue v : config.configValues()) {
                if (v.name().equals(e.key())) {
                    v.addErrorMessage(e.getMessage());
                }
            }
        }
        return config;
    }
}
