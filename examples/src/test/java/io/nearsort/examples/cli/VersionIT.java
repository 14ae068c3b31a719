package io.nearsort.examples.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23: the jar users run carries the project version in its manifest, and {@code nearsort --version} prints
 * it instead of "(development build)". Runs {@code java -jar nearsort.jar --version} in a child JVM (Failsafe,
 * after package; the jar and the expected version come from the examples POM).
 */
class VersionIT {

    @Test
    void theJarPrintsTheProjectVersion() throws IOException, InterruptedException {
        final String expected = System.getProperty("nearsort.expectedVersion");
        final Path jar = Path.of(System.getProperty("nearsort.jar"));
        assertTrue(expected != null && !expected.isBlank(), "nearsort.expectedVersion is not set");
        assertTrue(Files.isRegularFile(jar), jar + " is missing: run the package phase first");
        try (JarFile file = new JarFile(jar.toFile())) {
            assertEquals(expected, file.getManifest().getMainAttributes().getValue("Implementation-Version"));
            assertTrue(file.getEntry("META-INF/LICENSE") != null && file.getEntry("META-INF/NOTICE") != null,
                    "the jar bundles libraries: it carries LICENSE and NOTICE");
        }
        final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        final Process process = new ProcessBuilder(java.toString(), "-jar", jar.toString(), "--version")
                .redirectErrorStream(true).start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "nearsort --version did not finish");
        assertEquals(0, process.exitValue(), out);
        assertEquals("nearsort " + expected, out.lines().findFirst().orElse(""), out);
    }
}
