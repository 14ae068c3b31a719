package io.nearsort.core.memory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A JVM started without {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} fails at first use. */
class MissingAgronaFlagTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"bplus", "sbtree", "betree", "sa-betree"})
    void firstUseWithoutTheFlagFailsNamingIt(final String index) throws IOException, InterruptedException {
        final Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        final Process process = new ProcessBuilder(List.of(java.toString(), "-cp",
                System.getProperty("java.class.path"), MissingFlagProbe.class.getName(), index))
                .redirectErrorStream(true)
                .start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child JVM finished");
        assertEquals(3, process.exitValue(), output);
        assertTrue(output.contains("--add-exports java.base/jdk.internal.misc=ALL-UNNAMED"), output);
    }

    @Test
    void thisJvmHasTheFlag() {
        assertTrue(UnsafeAccess.isAvailable());
        UnsafeAccess.requireAvailable();
    }
}
