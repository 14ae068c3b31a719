package io.nearsort.examples;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NearsortMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args) {
        return NearsortMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void demoPrintsSortednessAndAnIngestTableWithConsistentNumbers() {
        assertEquals(0, run("demo", "-n", "20000", "--repeat", "1", "--seed", "5"));
        final String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("20,000 keys per stream"), text);
        final List<String> rows = Arrays.stream(text.split("\n")).filter(l -> l.contains("B+-tree") || l.contains(
                "TreeMap")).filter(l -> l.contains("x ")).collect(Collectors.toList());
        assertEquals(12, rows.size(), text);
        final Pattern speedup = Pattern.compile("\\s(\\d+\\.\\d+)x\\s");
        for (final String row : rows) {
            final Matcher m = speedup.matcher(row);
            assertTrue(m.find(), row);
            if (row.contains("(baseline)")) {
                assertEquals(1.0, Double.parseDouble(m.group(1)), 1e-9, row);
            }
        }
        // The sorted stream is bulk-appended entirely by the sortedness-exploiting tree.
        final String sortedAppend = rows.stream().filter(r -> r.startsWith("  sorted") && r.contains("tail+bulk"))
                .findFirst().orElseThrow();
        assertTrue(sortedAppend.contains("100.0%"), sortedAppend);
        final String sortedSware = rows.stream().filter(r -> r.startsWith("  sorted") && r.contains("SWARE"))
                .findFirst().orElseThrow();
        assertTrue(sortedSware.contains("100.0%"), "the SA B+-tree bulk-loads sorted input: " + sortedSware);
        // The sortedness table: sorted has K = 0, scrambled nearly 100%.
        assertTrue(text.matches("(?s).*\\n  sorted\\s+0\\.00%\\s+0\\.00%.*"), text);
        assertTrue(text.matches("(?s).*\\n  near-sorted K=5% L=5%\\s+[45]\\.\\d\\d%\\s+5\\.00%.*"), text);
    }

    @Test
    void badArgumentsExitWithTwoAndAOneLineError() {
        assertEquals(2, run("demo", "-n", "many"));
        assertEquals("nearsort demo: -n expects an integer (got: 'many')\n", err.toString(StandardCharsets.UTF_8));
        err.reset();
        assertEquals(2, run("demo", "-n", "5"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("-n must be in [1000, 100000000] (got: 5)"));
        err.reset();
        assertEquals(2, run("demo", "--frobnicate"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown option '--frobnicate'"));
        err.reset();
        assertEquals(2, run("bench"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown command 'bench'"));
        assertEquals(2, run());
    }

    @Test
    void helpExitsWithZero() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("Usage: nearsort <command>"));
        out.reset();
        assertEquals(0, run("demo", "--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("Usage: nearsort demo"));
    }
}
