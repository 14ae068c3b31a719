package io.nearsort.kafka.connect;

import io.nearsort.core.memory.UnsafeAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A connector or task started in a JVM without Agrona's export flag fails at start, naming the flag. */
class MissingAgronaFlagTest {

    /** Starts the connector, then a task, in this (flagless) JVM; exit 3 if both failed naming the flag. */
    public static final class Probe {
        public static void main(final String[] args) {
            final Map<String, String> props = Map.of(NearsortSinkConfig.STORE_DIR, args[0],
                    NearsortSinkConfig.COLUMNS, Events.COLUMNS, "name", "probe");
            int named = 0;
            try {
                new NearsortSinkConnector().start(props);
                System.out.println("connector started");
            } catch (RuntimeException e) {
                System.out.println("connector: " + e.getMessage());
                named += e.getMessage().contains(UnsafeAccess.REQUIRED_FLAG) ? 1 : 0;
            }
            try {
                new NearsortSinkTask().start(props);
                System.out.println("task started");
            } catch (RuntimeException e) {
                System.out.println("task: " + e.getMessage());
                named += e.getMessage().contains(UnsafeAccess.REQUIRED_FLAG) ? 1 : 0;
            }
            System.exit(named == 2 ? 3 : 1);
        }
    }

    @Test
    void theConnectorAndTaskFailAtStartNamingTheFlagAndKafkaOpts(@TempDir final Path dir) throws IOException,
            InterruptedException {
        final Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), Probe.class.getName(), dir.toString()))
                .redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM finished");
        assertEquals(3, p.exitValue(), out);
        assertTrue(out.contains("KAFKA_OPTS"), out);
    }

    @Test
    void thisJvmHasTheFlag() {
        assertTrue(UnsafeAccess.isAvailable());
        new NearsortSinkConnector().start(Map.of(NearsortSinkConfig.STORE_DIR, "unused",
                NearsortSinkConfig.COLUMNS, Events.COLUMNS));
    }
}
