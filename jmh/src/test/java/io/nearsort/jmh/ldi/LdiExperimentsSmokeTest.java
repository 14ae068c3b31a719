package io.nearsort.jmh.ldi;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The experiment harness end to end on small tables: every mode runs, every store's query answers are
 * cross-checked by the harness itself (it throws on a wrong row count), and the tables are printed.
 */
class LdiExperimentsSmokeTest {

    private static String run(final String... args) throws Exception {
        final PrintStream saved = System.out;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            LdiExperiments.main(args);
        } finally {
            System.setOut(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void loadQueryAndThreadsRunOnSmallTables() throws Exception {
        final String load = run("load", "nyc:70000");
        assertTrue(load.contains("| Sorted_Col |") && load.contains("Write_MAX") && load.contains("ARB before"), load);
        final String query = run("query", "lineitem:0.012");
        assertTrue(query.contains("| Q10 | 15.0% |") && query.contains("LDI_Par"), query);
        final String threads = run("threads", "nyc:70000");
        assertTrue(threads.contains("| 8 |") && threads.contains("de-duplicated"), threads);
        final String append = run("append", "nyc:30000", "--rounds", "2");
        assertTrue(append.contains("| median |") && append.contains("batch API speedup over the row API"), append);
        final String stream = run("stream", "nyc:30000");
        assertTrue(stream.contains("| streamed (scan") && stream.contains("| materialised (query) |"), stream);
        final String reclaim = run("reclaim", "nyc:60000");
        assertTrue(reclaim.contains("two commits later") && reclaim.contains("buckets copied"), reclaim);
    }
}
