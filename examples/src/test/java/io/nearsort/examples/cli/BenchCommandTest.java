package io.nearsort.examples.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchCommandTest {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    @TempDir
    Path dir;

    /** Asserts a valid PNG of a plausible size and returns it decoded. */
    static BufferedImage assertPng(final Path png) throws IOException {
        final byte[] bytes = Files.readAllBytes(png);
        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(bytes, PNG_SIGNATURE.length));
        final BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, "decodes as an image");
        assertTrue(image.getWidth() >= 400 && image.getHeight() >= 300, image.getWidth() + "x" + image.getHeight());
        return image;
    }

    @Test
    void everyPhaseEveryStructureVerifiedWithCsv() throws IOException {
        final Path csv = dir.resolve("out/bench.csv");
        final Cli cli = Cli.run("bench", "-n", "20k", "-K", "5", "-L", "5", "--repeat", "2", "--warmup", "0.05",
                "-s", "bplus,bplus-tail-bulk,sa-bplus,treemap,skiplist", "--lookups", "5k", "--mix", "50:50", "--scans",
                "500", "--scan-length", "50", "--verify", "--buffer", "200", "--csv", csv.toString());
        assertEquals(0, cli.exitCode, cli.toString());
        assertTrue(cli.out.contains("measured K = 5.00%, L = 5.00%"), cli.out);
        assertTrue(cli.out.contains("median of 2 timed run(s) after 0.05 s of warm-up runs per structure"), cli.out);
        final List<String> rows = cli.out.lines().filter(l -> l.startsWith("K=5% L=5%")).collect(Collectors.toList());
        assertEquals(5, rows.size(), cli.out);
        for (final String row : rows) {
            // ingest, lookup, mix and scan columns, each with a speedup; the baseline's are exactly 1.00x.
            assertEquals(4, row.split("x(\\s|$)").length - 1 + (row.endsWith("x") ? 1 : 0), row);
            if (row.contains("(baseline)")) {
                assertEquals(4, row.split(" 1\\.00x").length - 1, row);
            }
        }
        final String appended = rows.stream().filter(r -> r.contains("tail+bulk")).findFirst().orElseThrow();
        assertTrue(appended.matches(".*\\s9\\d\\.\\d%\\s.*"), "bulk-appended share above 90%: " + appended);
        // Reads checked per timed run: 5,000 lookups + 4,000 mix reads (as many as the last 20% of the writes at
        // 50:50) + 500 scans; 2 timed runs of 5 structures.
        assertTrue(cli.out.contains("verify: " + String.format(java.util.Locale.ROOT, "%,d", 5 * 2 * 9_500)
                + " reads and scans matched"), cli.out);
        final List<String> lines = Files.readAllLines(csv);
        assertTrue(lines.get(0).startsWith("workload,k_percent,l_percent,scrambled,n,batch,structure,phase"),
                lines.get(0));
        assertTrue(cli.out.contains("ingest: put per record (--batch 1)"), "per record is the default: " + cli.out);
        assertEquals(1 + 5 * 4, lines.size());
        for (final String line : lines.subList(1, lines.size())) {
            final String[] cells = line.split(",", -1);
            assertEquals(22, cells.length, line);
            assertEquals("1", cells[21], "one getOrDefault per key by default: " + line);
            assertEquals("20000", cells[4]);
            assertEquals("1", cells[5]);
            assertTrue(Long.parseLong(cells[10]) > 0, line);
            if (cells[6].equals("bplus")) {
                assertEquals(1.0, Double.parseDouble(cells[12]), 1e-9, line);
            }
            assertEquals(cells[6].equals("treemap") || cells[6].equals("skiplist"), cells[13].isEmpty(), line);
            assertEquals(cells[6].equals("treemap") || cells[6].equals("skiplist") ? "" : "4096", cells[18], line);
            assertTrue(Integer.parseInt(cells[19]) >= 1, "at least one warm-up run: " + line);
            assertTrue(Double.parseDouble(cells[20]) >= 50 || cells[19].equals("200"), "0.05 s of warm-up: " + line);
        }
        assertEquals(5, lines.stream().filter(l -> l.contains(",mix,8000,2,")).count(), "50:50 over the last 20%: "
                + "4k writes + 4k reads " + lines);
    }

    /** {@code --page-size} sizes the trees' nodes, says so in the header, and the content still verifies. */
    @Test
    void pageSizeIsPrintedAndVerified() {
        final Cli cli = Cli.run("bench", "-n", "20k", "-K", "5", "-L", "5", "--repeat", "1", "--warmup", "0", "-s",
                "bplus,betree,sa-betree-st,sbtree", "--lookups", "2k", "--mix", "50:50", "--verify", "--page-size",
                "8192");
        assertEquals(0, cli.exitCode, cli.toString());
        assertTrue(cli.out.contains("tree nodes: 8,192 bytes (--page-size; the papers use 4,096)"), cli.out);
        final Cli byDefault = Cli.run("bench", "-n", "2k", "--repeat", "1", "--warmup", "0", "-s", "bplus");
        assertEquals(0, byDefault.exitCode, byDefault.toString());
        assertTrue(!byDefault.out.contains("tree nodes:"), byDefault.out);
    }

    @Test
    void everyIngestModeAndConcurrencyHoldsTheSameVerifiedContent() throws IOException {
        for (final String batch : new String[] {"1", "500", "7", "all"}) {
            final Path csv = dir.resolve("batch-" + batch + ".csv");
            final Cli cli = Cli.run("bench", "-n", "20k", "--late", "0.5", "--repeat", "1", "--warmup", "0", "-s",
                    "bplus,bplus-tail-bulk,sa-bplus,sa-bplus-sw,sa-bplus-pin,sa-bplus-st,sbtree,betree,sa-betree,sa-betree-sw,"
                    + "sa-betree-st,treemap,skiplist",
                    "--lookups", "5k", "--scans", "200", "--mix", "50:50", "--verify", "--buffer", "300", "--batch", batch,
                    "--csv", csv.toString());
            assertEquals(0, cli.exitCode, cli.toString());
            final String mode = batch.equals("1") ? "put per record" : batch.equals("all")
                    ? "bulk load (one putAll over the whole array)" : "putAll batches of " + batch;
            assertTrue(cli.out.contains("ingest: " + mode + " (--batch " + batch + ")"), cli.out);
            assertEquals(13, cli.out.lines().filter(l -> l.startsWith("late D=0.5% ")).count(), cli.out);
            assertTrue(cli.out.contains("verify: " + String.format(java.util.Locale.ROOT, "%,d", 13 * (5_000 + 200
                    + 4_000)) + " reads and scans matched"), cli.out);
            final List<String> rows = Files.readAllLines(csv);
            assertEquals(1 + 13 * 4, rows.size(), rows.toString());
            for (final String row : rows.subList(1, rows.size())) {
                final String[] cells = row.split(",", -1);
                // The late-event workload has a name of its own and no K or L.
                assertEquals(List.of("late D=0.5%", "", "", "false", "20000", batch),
                        Arrays.asList(cells).subList(0, 6), row);
            }
        }
    }

    /**
     * {@code --lookup-batch} looks the keys up with {@code getAll} (every structure: the nearsort indexes' own, the
     * JDK maps' key by key), says so in the header and the CSV, and every result still verifies; batches that do
     * not divide the lookups leave a shorter last one.
     */
    @Test
    void lookupBatchesArePrintedAndVerified() throws IOException {
        final Path csv = dir.resolve("lookup-batch.csv");
        final Cli cli = Cli.run("bench", "-n", "20k", "--late", "0.5", "--repeat", "1", "--warmup", "0", "-s",
                "bplus,sa-bplus,sa-bplus-sw,sa-bplus-pin,sa-bplus-st,sbtree,betree,sa-betree-sw,treemap,skiplist",
                "--lookups", "5k", "--lookup-batch", "300", "--verify", "--buffer", "300", "--csv", csv.toString());
        assertEquals(0, cli.exitCode, cli.toString());
        assertTrue(cli.out.contains("lookups: getAll batches of 300 keys (--lookup-batch 300)"), cli.out);
        assertTrue(cli.out.contains("verify: " + String.format(java.util.Locale.ROOT, "%,d", 10 * 5_000)
                + " reads and scans matched"), cli.out);
        final List<String> rows = Files.readAllLines(csv);
        assertEquals(1 + 10 * 2, rows.size(), rows.toString());
        assertTrue(rows.get(0).endsWith(",lookup_batch"), rows.get(0));
        for (final String row : rows.subList(1, rows.size())) {
            assertTrue(row.endsWith(",300"), row);
        }
        final Cli perKey = Cli.run("bench", "-n", "2k", "--repeat", "1", "--warmup", "0", "-s", "bplus", "--lookups",
                "1k");
        assertEquals(0, perKey.exitCode, perKey.toString());
        assertTrue(!perKey.out.contains("lookups: getAll"), perKey.out);
    }

    @Test
    void helpNamesTheIngestModesAndEveryStructure() {
        final Cli cli = Cli.run("bench", "--help");
        assertEquals(0, cli.exitCode, cli.toString());
        final String help = cli.out.replaceAll("\\s+", " ");
        assertTrue(help.contains("--batch=1|N|all") && help.contains("1 = one put per record")
                && help.contains("all = one putAll over the whole workload (a bulk load"), help);
        for (final String name : io.nearsort.examples.cli.bench.BenchStructure.names().split(", ")) {
            assertTrue(help.contains(name), name + " in " + help);
        }
        assertTrue(help.contains("--late=D"), help);
    }

    @Test
    void lateEventsMatchTheLibrarysGenerator() {
        final Cli cli = Cli.run("generate", "-n", "5000", "--late", "1", "--seed", "9");
        assertEquals(0, cli.exitCode, cli.toString());
        final StringBuilder expected = new StringBuilder();
        for (final long key : io.nearsort.core.sortedness.KLGenerator.workload(5000).lateEvents(1).seed(9)
                .generate()) {
            expected.append(key).append('\n');
        }
        assertEquals(expected.toString(), cli.out);
        final Cli profiled = Cli.runWithInput(cli.outBytes, "profile", "-");
        assertEquals(0, profiled.exitCode, profiled.toString());
        assertTrue(profiled.count("L") < 50, "L below D = 50: " + profiled.out);
    }

    @Test
    void suppliedInputIsBenchmarkedAsIs() throws IOException {
        final Path keys = dir.resolve("keys.txt");
        Files.writeString(keys, "5\n3\n9\n3\n" + Long.MIN_VALUE + "\n" + Long.MAX_VALUE + "\n");
        final Cli cli = Cli.run("bench", "--input", keys.toString(), "--repeat", "1", "--warmup", "0", "--lookups",
                "100", "--scans", "10", "--scan-length", "3", "--mix", "90:10", "--verify");
        assertEquals(0, cli.exitCode, cli.toString());
        assertTrue(cli.out.contains("1 workload(s) of 6 keys"), cli.out);
        assertEquals(3, cli.out.lines().filter(l -> l.startsWith("keys.txt ")).count(), cli.out);
    }

    @Test
    void gridRendersAHeatMapAndALineChart() throws IOException {
        final Path heat = dir.resolve("charts/grid.png");
        Cli cli = Cli.run("bench", "--grid", "-n", "5000", "--repeat", "1", "--warmup", "0", "-s", "bplus,sa-bplus",
                "--grid-k", "0,5", "--grid-l", "1,10", "--chart", heat.toString(), "--buffer", "0.5%");
        assertEquals(0, cli.exitCode, cli.toString());
        // sorted once, K=5 at two L values, scrambled.
        assertTrue(cli.out.contains("4 workload(s) of 5,000 keys"), cli.out);
        for (final String name : new String[] {"sorted", "K=5% L=1%", "K=5% L=10%", "scrambled"}) {
            assertEquals(2, cli.out.lines().filter(l -> l.startsWith(name + " ")).count(), name + "\n" + cli.out);
        }
        assertTrue(cli.out.contains("Chart written to " + heat), cli.out);
        assertPng(heat);
        final Path line = dir.resolve("line.png");
        cli = Cli.run("bench", "--grid", "-n", "2000", "--repeat", "1", "--warmup", "0", "-s",
                "bplus,bplus-tail-bulk", "--grid-k", "0,10", "--grid-l", "5", "--chart", line.toString(),
                "--chart-type", "line");
        assertEquals(0, cli.exitCode, cli.toString());
        assertPng(line);
    }

    @Test
    void singleWorkloadBarChart() throws IOException {
        final Path bar = dir.resolve("bar.png");
        final Cli cli = Cli.run("bench", "-n", "3000", "--scrambled", "--repeat", "1", "--warmup", "0", "--chart",
                bar.toString());
        assertEquals(0, cli.exitCode, cli.toString());
        assertPng(bar);
    }

    @Test
    void badArgumentsExitWithTwoAndOneLine() throws IOException {
        assertBad("--structures: unknown structure 'btree' (expected one of: bplus, bplus-tail-bulk, sa-bplus, "
                + "sa-bplus-sw, sa-bplus-pin, sa-bplus-st, sbtree, betree, sa-betree, sa-betree-sw, sa-betree-st, treemap, skiplist)",
                "bench", "-s",
                "bplus,btree");
        for (final String batch : new String[] {"0", "-3", "some", "1.5", "3000000000"}) {
            assertBad("--batch expects 1 (put per record), a positive batch size N, or all (got: '" + batch + "')",
                    "bench", "--batch", batch);
        }
        assertBad("--late and -K are exclusive: late events are a workload of their own, not a (K,L) or scrambled one",
                "bench", "--late", "0.5", "-K", "5");
        assertBad("--late and -K are exclusive", "bench", "-K", "0", "--late", "0.5"); // given, even as 0
        assertBad("--late and -L are exclusive", "bench", "--late", "0.5", "-L", "2");
        assertBad("--late and --scrambled are exclusive", "bench", "--late", "0.5", "--scrambled");
        assertBad("--late generates one workload; it takes no --grid", "bench", "--late", "0.5", "--grid");
        assertBad("--late generates one workload; it takes no --input", "bench", "--late", "0.5", "--input", "x.txt");
        assertBad("Invalid value for option '--late': 'soon' is not a double", "bench", "--late", "soon");
        assertBad("--late must be a percentage in [0, 100] (got: 120.0)", "bench", "--late", "120");
        assertBad("--mix expects R:W with integers in [0, 1000], not both 0, e.g. 50:50 (got: '50')", "bench", "--mix",
                "50");
        assertBad("--mix expects R:W", "bench", "--mix", "0:0");
        assertBad("--chart-type heatmap charts the grid; add --grid or use --chart-type bar", "bench", "--chart-type",
                "heatmap");
        assertBad("--chart-type bar charts single workloads", "bench", "--grid", "--chart-type", "bar");
        assertBad("--chart-type must be heatmap, line or bar (got: 'pie')", "bench", "--chart-type", "pie");
        assertBad("--chart-structure treemap is not among --structures", "bench", "--grid", "-s", "bplus,sa-bplus",
                "--chart-structure", "treemap");
        assertBad("--buffer P% needs a percentage in (0, 100] (got: '0%')", "bench", "--buffer", "0%");
        assertBad("--flush-fraction must be in (0, 1] (got: 0.0)", "bench", "--flush-fraction", "0");
        assertBad("--flush-fraction must be in (0, 1] (got: 1.5)", "bench", "--flush-fraction", "1.5");
        assertBad("--flush-fraction must be in (0, 1] (got: NaN)", "bench", "--flush-fraction", "NaN");
        assertBad("--page-size must be a power of two from 512 to 1048576 (got: 3000)", "bench", "--page-size",
                "3000");
        assertBad("--page-size must be a power of two from 512 to 1048576 (got: 256)", "bench", "--page-size", "256");
        assertBad("--page-size must be a power of two from 512 to 1048576 (got: 2097152)", "bench", "--page-size",
                "2097152");
        assertBad("--repeat must be in [1, 1,000] (got: 0)", "bench", "--repeat", "0");
        assertBad("--lookup-batch must be in [1, 2,147,483,639] (got: 0)", "bench", "--lookups", "1k",
                "--lookup-batch", "0");
        assertBad("--lookup-batch sizes the lookups' calls; there are no --lookups", "bench", "--lookup-batch", "500");
        for (final String[] bad : new String[][] {{"-1", "-1.0"}, {"NaN", "NaN"}, {"1e400", "Infinity"},
            {"3601", "3601.0"}, {"0.0004", "4.0E-4"}}) {
            assertBad("--warmup must be 0 or a number of seconds in [0.001, 3600] (got: " + bad[1] + ")", "bench",
                    "--warmup", bad[0]);
        }
        assertBad("Invalid value for option '--warmup': 'long' is not a double", "bench", "--warmup", "long");
        assertBad("--binary and --int32 describe --input; there is no --input", "bench", "--binary");
        assertBad("--grid generates its workloads; it takes no --input", "bench", "--grid", "--input", "x.txt");
        assertBad("-n must be in [1, 2,147,483,639] (got: 0)", "bench", "-n", "0");
        assertBad("--grid-k must be a percentage in [0, 100] (got: 150.0)", "bench", "--grid", "--grid-k", "150");
        final Path empty = dir.resolve("empty.txt");
        Files.writeString(empty, "");
        assertBad("--input " + empty + " holds no keys", "bench", "--input", empty.toString());
        final Path bad = dir.resolve("bad.txt");
        Files.writeString(bad, "1\nfoo\n");
        assertBad(bad + ":2: expected one integer", "bench", "--input", bad.toString());
    }

    private static void assertBad(final String message, final String... args) {
        final Cli cli = Cli.run(args);
        assertEquals(2, cli.exitCode, cli.toString());
        assertTrue(cli.err.startsWith("nearsort bench: ") && cli.err.contains(message), cli.err);
        assertEquals(1, cli.err.lines().count(), cli.err);
    }
}
