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

    /**
     * Issue 23: with Agrona on the module path the flag must export to {@code org.agrona}; the message says so,
     * and that flag is enough.
     */
    @Test
    void onTheModulePathTheMessageNamesOrgAgrona() throws IOException, InterruptedException {
        final String[] classPath = System.getProperty("java.class.path").split(java.io.File.pathSeparator);
        final String agrona = java.util.Arrays.stream(classPath).filter(e -> e.contains("agrona-"))
                .reduce((a, b) -> a + " and " + b).orElseThrow();
        final String rest = String.join(java.io.File.pathSeparator, java.util.Arrays.stream(classPath)
                .filter(e -> !e.equals(agrona)).toArray(String[]::new));
        final Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        for (final String flag : List.of("", UnsafeAccess.REQUIRED_FLAG, UnsafeAccess.MODULE_PATH_FLAG)) {
            final List<String> command = new java.util.ArrayList<>(List.of(java.toString(), "--module-path", agrona,
                    "--add-modules", "org.agrona"));
            command.addAll(flag.isEmpty() ? List.of() : List.of(flag.split(" ")));
            command.addAll(List.of("-cp", rest, MissingFlagProbe.class.getName(), "bplus"));
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child JVM finished");
            if (flag.equals(UnsafeAccess.MODULE_PATH_FLAG)) {
                assertEquals(0, process.exitValue(), output);
            } else {
                assertEquals(3, process.exitValue(), "with '" + flag + "': " + output);
                assertTrue(output.contains(UnsafeAccess.MODULE_PATH_FLAG), output);
            }
        }
    }

    @Test
    void thisJvmHasTheFlag() {
        assertTrue(UnsafeAccess.isAvailable());
        UnsafeAccess.requireAvailable();
    }
}
