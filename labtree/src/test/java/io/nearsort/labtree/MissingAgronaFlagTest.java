package io.nearsort.labtree;

import io.nearsort.core.memory.UnsafeAccess;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22's known defect: in a JVM without {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} a
 * LAB-tree array worked until {@code close()}, which threw a raw {@link IllegalAccessError} while freeing its page
 * buffers and left the file open. Now opening fails, naming the flag, before the file is created.
 */
class MissingAgronaFlagTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lab", "daf"})
    void openWithoutTheFlagFailsNamingItAndCreatesNoFile(final String structure)
            throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), MissingFlagProbe.class.getName(),
                structure, dir.resolve("probe." + structure).toString()))
                .redirectErrorStream(true)
                .start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child JVM finished");
        assertEquals(3, process.exitValue(), output);
        assertTrue(output.contains(UnsafeAccess.REQUIRED_FLAG), output);
    }
}
