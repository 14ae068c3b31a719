package io.nearsort.examples.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoCommandTest {
    @TempDir
    Path dir;

    @Test
    void profilesBenchmarksAndCharts() throws IOException {
        final Path chart = dir.resolve("demo/demo.png");
        final Cli cli = Cli.run("demo", "-n", "20000", "--repeat", "1", "--warmup", "0", "--seed", "5",
                "--chart", chart.toString());
        assertEquals(0, cli.exitCode, cli.toString());
        final String text = cli.out;
        assertTrue(text.contains("four streams of 20,000 keys"), text);
        // The profile: sorted has K = 0, near-sorted K = L = 5%, scrambled almost 100%; classes and buffers.
        assertTrue(text.matches("(?s).*\\n  sorted\\s+0\\.00%\\s+0\\.00%\\s+0\\.00%\\s+1\\s+sorted\\s+4,096 entries.*"),
                text);
        assertTrue(text.matches("(?s).*\\n  near-sorted K=5% L=5%\\s+5\\.00%\\s+5\\.00%.*near-sorted .*"), text);
        assertTrue(text.matches("(?s).*\\n  scrambled\\s+(100\\.00|9\\d\\.\\d\\d)%.*scrambled .*"), text);
        assertTrue(text.matches("(?s).*\\n  late D=0\\.5%\\s+\\d+\\.\\d\\d%.*"), text);
        // Per record first, then putAll batches of 500, then the bulk load, each labelled.
        final int perRecord = text.indexOf("2. One put per record");
        final int batches = text.indexOf("3. putAll in batches of 500 records");
        final int bulk = text.indexOf("4. Bulk load: one putAll over the whole array");
        assertTrue(perRecord > 0 && batches > perRecord && bulk > batches, text);
        final List<String> rows = text.substring(perRecord, batches).lines()
                .filter(l -> l.matches("(sorted|near-sorted|late|scrambled).*x.*")).collect(Collectors.toList());
        assertEquals(4 * 5, rows.size(), text);
        // The batch and bulk sections run the three sorted or near-sorted streams, not the scrambled one.
        assertEquals(3 * 3, text.substring(batches, bulk).lines()
                .filter(l -> l.matches("(sorted|near-sorted|late).*x.*")).count(), text);
        assertEquals(3 * 3, text.substring(bulk).lines()
                .filter(l -> l.matches("(sorted|near-sorted|late).*x.*")).count(), text);
        assertEquals(0, text.substring(batches).lines().filter(l -> l.matches("scrambled.*x.*")).count(), text);
        final Pattern speedup = Pattern.compile("\\s(\\d+\\.\\d+)x");
        for (final String row : rows) {
            final Matcher m = speedup.matcher(row);
            assertTrue(m.find(), row);
            if (row.contains("(baseline)")) {
                assertEquals(1.0, Double.parseDouble(m.group(1)), 1e-9, row);
            }
        }
        final String sortedAppend = rows.stream().filter(r -> r.startsWith("sorted") && r.contains("tail+bulk"))
                .findFirst().orElseThrow();
        assertTrue(sortedAppend.contains("100.0%"), "sorted input is bulk-appended whole: " + sortedAppend);
        final String sortedSware = rows.stream().filter(r -> r.startsWith("sorted") && r.contains("SWARE"))
                .findFirst().orElseThrow();
        assertTrue(sortedSware.contains("100.0%"), "the SA B+-tree bulk-loads sorted input: " + sortedSware);
        assertTrue(text.contains("Median of 1 timed run(s) after a warm-up run;"), text);
        assertTrue(text.contains("Chart of the per-record ingestion speedups written to " + chart), text);
        BenchCommandTest.assertPng(chart);
    }

    @Test
    void topLevelUsageAndErrors() {
        Cli cli = Cli.run();
        assertEquals(2, cli.exitCode);
        assertTrue(cli.err.contains("a command is required") && cli.err.contains("Usage: nearsort"), cli.err);
        cli = Cli.run("--help");
        assertEquals(0, cli.exitCode);
        for (final String command : new String[] {"profile", "generate", "bench", "demo"}) {
            assertTrue(cli.out.contains("  " + command + " "), cli.out);
            final Cli help = Cli.run(command, "--help");
            assertEquals(0, help.exitCode, help.toString());
            assertTrue(help.out.contains("Usage: nearsort " + command) && help.out.contains("Examples:"), help.out);
            assertEquals("", help.err, "no formatting warnings");
        }
        cli = Cli.run("frobnicate");
        assertEquals(2, cli.exitCode);
        assertTrue(cli.err.startsWith("nearsort: Unmatched argument at index 0: 'frobnicate'"), cli.err);
        cli = Cli.run("demo", "-n", "5");
        assertEquals(2, cli.exitCode);
        assertEquals("nearsort demo: -n must be in [1,000, 2,147,483,639] (got: 5) (see 'nearsort demo --help')\n",
                cli.err);
        cli = Cli.run("demo", "--warmup", "-2");
        assertEquals(2, cli.exitCode);
        assertEquals("nearsort demo: --warmup must be 0 or a number of seconds in [0.001, 3600] (got: -2.0) (see "
                + "'nearsort demo --help')\n", cli.err);
        cli = Cli.run("--version");
        assertEquals(0, cli.exitCode);
        assertTrue(cli.out.startsWith("nearsort "), cli.out);
        assertTrue(cli.out.contains("Off-heap memory: " + io.nearsort.core.memory.HugePages.status()), cli.out);
    }
}
