package io.nearsort.kafka.connect;

import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Connector;
import org.apache.kafka.connect.runtime.isolation.PluginDesc;
import org.apache.kafka.connect.runtime.isolation.Plugins;
import org.apache.kafka.connect.sink.SinkConnector;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packaged plugin directory (built in the package phase, so this runs under Failsafe in integration-test) is
 * what {@code plugin.path} accepts: Connect's plugin scanner finds the connector there and loads it, with the
 * nearsort jars, in the plugin's own isolated class loader.
 */
class ConnectPluginIT {
    @Test
    void thePluginDirectoryHoldsAConnectorConnectLoadsInIsolation() throws ReflectiveOperationException {
        final Path plugins = Path.of(System.getProperty("nearsort.connect.plugins"));
        assertTrue(Files.isDirectory(plugins.resolve("nearsort-kafka-connect")), plugins + " holds the plugin");
        final Plugins scanned = new Plugins(Map.of("plugin.path", plugins.toString(), "plugin.discovery",
                "service_load"));
        PluginDesc<SinkConnector> found = null;
        for (PluginDesc<SinkConnector> d : scanned.sinkConnectors()) {
            if (d.className().equals(NearsortSinkConnector.class.getName()) && d.location().contains(
                    plugins.toString())) {
                found = d;
            }
        }
        assertTrue(found != null, "the connector is found in " + plugins + ": " + scanned.sinkConnectors());
        final Connector connector = (Connector) found.loader().loadClass(found.className())
                .getConstructor().newInstance();
        assertNotSame(NearsortSinkConnector.class, connector.getClass(), "loaded from the plugin, not the class path");
        final Map<String, String> config = Map.of("connector.class", found.className(), "topics", "t",
                NearsortSinkConfig.STORE_DIR, "/tmp/unused", NearsortSinkConfig.COLUMNS, Events.COLUMNS);
        for (ConfigValue v : connector.validate(config).configValues()) {
            assertTrue(v.errorMessages().isEmpty(), v.name() + ": " + v.errorMessages());
        }
    }
}
