package io.nearsort.flink;

import io.nearsort.core.memory.UnsafeAccess;
import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A writer opened in a JVM without Agrona's export flag fails when it opens, naming the flag. */
class MissingAgronaFlagTest {

    /** Opens a writer in this (flagless) JVM; exit 3 if it failed naming the flag. */
    public static final class Probe {
        public static void main(final String[] args) throws Exception {
            try {
                Event.sink(Path.of(args[0]), 10).createWriter(new TestInitContext(new JobID(), 0, 0)).close();
                System.out.println("writer opened");
                System.exit(1);
            } catch (IllegalStateException e) {
                System.out.println(e.getMessage());
                System.exit(e.getMessage().contains(UnsafeAccess.REQUIRED_FLAG) ? 3 : 1);
            }
        }
    }

    @Test
    void theWriterFailsWhenItOpensNamingTheFlagAndFlinksOption(@TempDir final Path dir) throws IOException,
            InterruptedException {
        final Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), Probe.class.getName(), dir.toString()))
                .redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM finished");
        assertEquals(3, p.exitValue(), out);
        assertTrue(out.contains("env.java.opts.all"), out);
        assertFalse(Files.exists(dir.resolve("subtask-0")), "no store was created");
    }

    @Test
    void thisJvmHasTheFlag() {
        assertTrue(UnsafeAccess.isAvailable());
    }
}
