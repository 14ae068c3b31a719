package io.nearsort.examples.cli;

import io.nearsort.examples.cli.ingest.Lineitem;
import io.nearsort.ldi.projection.Column;
import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code nearsort ingest} and {@code nearsort query} in process: outputs against brute force, exit codes, errors. */
class IngestQueryCommandTest {
    private static final double SF = 0.002;

    @TempDir
    Path dir;

    /** Every generated lineitem row's (shipdate, row id, shipmode, tax). */
    private record Item(long shipDate, long rowId, String mode, double tax, double price, long orderKey) {
    }

    private static List<Item> lineitem() throws IOException {
        final List<Item> items = new ArrayList<>();
        try (Lineitem source = new Lineitem(SF)) {
            final ColumnBatch b = ColumnBatch.allocate(Lineitem.TABLE.schema(), 1000);
            while (source.fill(b)) {
                for (int i = 0; i < b.rows(); i++) {
                    items.add(new Item(((long[]) b.column(10))[i], items.size(), ((String[]) b.column(14))[i],
                            ((double[]) b.column(7))[i], ((double[]) b.column(5))[i], ((long[]) b.column(0))[i]));
                }
            }
        }
        return items;
    }

    @Test
    void tpchIngestThenQueriesMatchBruteForce() throws IOException {
        final Path store = dir.resolve("lineitem");
        final Cli ingest = Cli.run("ingest", "--tpch", "lineitem:" + SF, "--dir", store.toString());
        assertEquals(0, ingest.exitCode, ingest.toString());
        final List<Item> items = lineitem();
        assertTrue(ingest.out.contains(String.format(java.util.Locale.ROOT, "%,d rows in", items.size()))
                && ingest.out.contains("commit 1") && ingest.out.contains("Write_MAX")
                && ingest.out.contains("by_shipdate") && ingest.out.contains("ARB"), ingest.toString());

        final Cli list = Cli.run("query", "--dir", store.toString(), "--list-projections");
        assertEquals(0, list.exitCode, list.toString());
        final String[] lines = list.out.strip().split("\n");
        assertEquals(3, lines.length, list.out);
        assertTrue(lines[0].startsWith("by_order\t") && lines[1].startsWith("by_shipdate\t")
                && lines[2].startsWith("by_price\t"), list.out);

        // A week of ship dates, as CSV with row ids: exactly the generated rows, in key then row order.
        final long lo = LocalDate.parse("1995-03-01").toEpochDay();
        final long hi = LocalDate.parse("1995-03-07").toEpochDay();
        final Cli week = Cli.run("query", "--dir", store.toString(), "--projection", "by_shipdate", "--range",
                "1995-03-01", "1995-03-07", "--columns", "l_shipdate,l_shipmode", "--csv", "--row-ids");
        assertEquals(0, week.exitCode, week.toString());
        final List<String> expected = new ArrayList<>();
        expected.add("row_id,l_shipdate,l_shipmode");
        items.stream().filter(i -> i.shipDate() >= lo && i.shipDate() <= hi)
                .sorted(Comparator.comparingLong(Item::shipDate).thenComparingLong(Item::rowId))
                .forEach(i -> expected.add(i.rowId() + "," + i.shipDate() + "," + i.mode()));
        assertTrue(expected.size() > 10);
        assertEquals(expected, List.of(week.out.strip().split("\n")));
        assertTrue(week.err.contains((expected.size() - 1) + " rows"), week.err);

        final Cli limited = Cli.run("query", "--dir", store.toString(), "--projection", "by_shipdate", "--range",
                Long.toString(lo), Long.toString(hi), "--columns", "l_shipdate,l_shipmode", "--limit", "5");
        assertEquals(6, limited.out.strip().split("\n").length, limited.toString());

        // Aggregates on the double key.
        final Cli sum = Cli.run("query", "--dir", store.toString(), "--projection", "by_price", "--range", "1000",
                "20000", "--agg", "sum", "--columns", "l_tax");
        assertEquals(0, sum.exitCode, sum.toString());
        double tax = 0;
        long n = 0;
        for (Item i : items) {
            if (i.price() >= 1000 && i.price() <= 20000) {
                tax += i.tax();
                n++;
            }
        }
        final String[] f = sum.out.strip().split("\t");
        assertEquals("sum(l_tax)", f[0]);
        assertEquals(tax, Double.parseDouble(f[1]), 1e-6);
        assertEquals("(" + n + " rows)", f[2]);
        final Cli count = Cli.run("query", "--dir", store.toString(), "--projection", "by_order", "--range", "min",
                "max", "--agg", "count");
        assertEquals("count\t" + items.size(), count.out.strip());
        final Cli max = Cli.run("query", "--dir", store.toString(), "--projection", "by_order", "--range", "min",
                "max", "--agg", "max", "--columns", "l_orderkey");
        assertEquals("max(l_orderkey)\t" + items.stream().mapToLong(Item::orderKey).max().orElseThrow() + "\t("
                + items.size() + " rows)", max.out.strip());
    }

    @Test
    void csvIngestTypedByAHeaderOrASchemaWithMalformedLinesRejectedOrRefused() throws IOException {
        final Path store = dir.resolve("t");
        final Path a = dir.resolve("a.csv");
        Files.writeString(a, "id:long,v:double,day:date,note:string\n"
                + "1,2.5,2024-01-02,\"hello, world\"\n"
                + "2,-3.5,2024-01-03,plain\n"
                + "\n"
                + "3,x,2024-01-04,bad number\n"
                + "4,1e3,2024-13-01,bad date\n"
                + "5,7,2024-01-05,\"quote \"\"q\"\"\"\n"
                + "6,8,2024-01-06\n", StandardCharsets.UTF_8);
        final Cli refused = Cli.run("ingest", a.toString(), "--projection", "by_id=id,note", "--projection",
                "by_v=v,day", "--dir", store.toString());
        assertEquals(2, refused.exitCode, refused.toString());
        assertTrue(refused.err.contains("a.csv:5: column v: 'x' is not a number") && refused.err.contains("nothing"
                + " was committed"), refused.err);
        final Path rejects = dir.resolve("rejects.tsv");
        final Cli ok = Cli.run("ingest", a.toString(), "--projection", "by_id=id,note", "--projection", "by_v=v,day",
                "--dir", store.toString(), "--rejects", rejects.toString());
        assertEquals(0, ok.exitCode, ok.toString());
        assertTrue(ok.out.contains("3 rows in") && ok.out.contains("3 rejected"), ok.out);
        final List<String> rejected = Files.readAllLines(rejects);
        assertEquals(3, rejected.size(), rejected.toString());
        assertTrue(rejected.get(0).startsWith(a + ":5\tcolumn v") && rejected.get(1).startsWith(a + ":6\tcolumn day")
                && rejected.get(2).startsWith(a + ":8\texpected 4 fields, found 3"), rejected.toString());

        final Path b = dir.resolve("b.tsv");
        Files.writeString(b, "id\tv\tday\tnote\n7\t0.5\t2024-02-01\ttab separated\n", StandardCharsets.UTF_8);
        final Cli schema = Cli.run("ingest", "--schema", "id:long,v:double,day:date,note:string", "--skip-header",
                b.toString(), "--projection", "by_id=id,note", "--projection", "by_v=v,day", "--dir",
                store.toString());
        assertEquals(0, schema.exitCode, schema.toString());
        assertTrue(schema.out.contains("commit 2: the store holds 4 rows"), schema.out);

        final Cli rows = Cli.run("query", "--dir", store.toString(), "--projection", "by_id", "--range", "min",
                "max", "--csv");
        assertEquals("id,note\n1,\"hello, world\"\n2,plain\n5,\"quote \"\"q\"\"\"\n7,tab separated\n", rows.out);
        final Cli byV = Cli.run("query", "--dir", store.toString(), "--projection", "by_v", "--range", "-10", "1");
        assertEquals("v\tday\n-3.5\t" + LocalDate.parse("2024-01-03").toEpochDay() + "\n0.5\t"
                + LocalDate.parse("2024-02-01").toEpochDay() + "\n", byV.out);
    }

    @Test
    void badArgumentsAndUnusableStoresExitWithTwoAndOneLine() throws IOException {
        final Path store = dir.resolve("s");
        final Path csv = dir.resolve("c.csv");
        Files.writeString(csv, "1,2\n");
        assertError(Cli.run("ingest", "--tpch", "lineitem:0.001"), "--dir");
        assertError(Cli.run("ingest", csv.toString(), "--tpch", "lineitem:0.001", "--dir", store.toString()),
                "no INPUT");
        assertError(Cli.run("ingest", "--tpch", "orders:1", "--dir", store.toString()), "lineitem:SF");
        assertError(Cli.run("ingest", "--tpch", "lineitem:-1", "--dir", store.toString()), "scale factor");
        assertError(Cli.run("ingest", csv.toString(), "--schema", "a:long,b:long", "--dir", store.toString()),
                "--projection");
        assertError(Cli.run("ingest", csv.toString(), "--schema", "a:long,b:bytes", "--projection", "p=a",
                "--dir", store.toString()), "unknown type 'bytes'");
        assertError(Cli.run("ingest", csv.toString(), "--schema", "a:long,b:long", "--projection", "p=a,b",
                "--projection", "q=b", "--dir", store.toString()), "more than one projection");
        assertError(Cli.run("ingest", dir.resolve("missing.csv").toString(), "--schema", "a:long", "--projection",
                "p=a", "--dir", store.toString()), "missing.csv");
        assertError(Cli.run("ingest", csv.toString(), "--projection", "p=a", "--dir", store.toString()),
                "c.csv:1: the header line");
        assertError(Cli.run("query", "--dir", dir.resolve("none").toString(), "--list-projections"), "no column store");
        assertEquals(0, Cli.run("ingest", csv.toString(), "--schema", "a:long,b:long", "--projection", "p=a,b",
                "--dir", store.toString()).exitCode);
        assertError(Cli.run("query", "--dir", store.toString(), "--projection", "p"), "--range");
        assertError(Cli.run("query", "--dir", store.toString(), "--projection", "p", "--range", "9", "1"), "above");
        assertError(Cli.run("query", "--dir", store.toString(), "--projection", "p", "--range", "1", "x"),
                "'x' is not a long");
        assertError(Cli.run("query", "--dir", store.toString(), "--projection", "q", "--range", "1", "2"),
                "no projection named q");
        assertError(Cli.run("query", "--dir", store.toString(), "--projection", "p", "--range", "1", "2", "--agg",
                "avg"), "count, sum, min or max");
        assertError(Cli.run("query", "--dir", store.toString(), "--projection", "p", "--range", "1", "2",
                "--columns", "zz"), "zz");
        assertError(Cli.run("ingest", csv.toString(), "--schema", "a:long,b:long", "--projection", "p=a",
                "--dir", store.toString()), "was written for");
        try (ColumnStore open = ColumnStore.open(store)) {
            assertError(Cli.run("query", "--dir", store.toString(), "--list-projections"), "open for writing");
            assertEquals(1, open.rows());
        }
    }

    private static void assertError(final Cli cli, final String fragment) {
        assertEquals(2, cli.exitCode, cli.toString());
        assertTrue(cli.err.contains(fragment), "expected '" + fragment + "' in: " + cli.err);
        assertTrue(cli.err.strip().split("\n").length <= 2, cli.err);
    }

    @Test
    void compareLoadsEveryStoreSideBySideAndCharts() {
        final Path chart = dir.resolve("out/cmp.png");
        final Cli c = Cli.run("ingest", "--tpch", "lineitem:" + SF, "--compare", "--rounds", "1", "--queries", "1",
                "--dir", dir.resolve("cmp").toString(), "--chart", chart.toString());
        assertEquals(0, c.exitCode, c.toString());
        for (String store : List.of("LDI ", "LDI (row API)", "Col_LSM-like leveled", "Col_LSM-like tiered",
                "Sorted_Col", "Write_MAX")) {
            assertTrue(c.out.contains(store), store + " in " + c.out);
        }
        assertTrue(c.out.contains("by_shipdate          15.0%"), c.out);
        assertTrue(Files.isRegularFile(chart) && Files.isRegularFile(dir.resolve("out/cmp-query.png")));
        assertTrue(Files.exists(dir.resolve("cmp/store.manifest")), "the LDI store is kept");
        final Cli again = Cli.run("ingest", "--tpch", "lineitem:" + SF, "--compare", "--dir",
                dir.resolve("cmp").toString());
        assertEquals(2, again.exitCode, again.toString());
    }

    /** A sink's store retains more commits than the default two: a query must not drop the older ones. */
    @Test
    void aQueryKeepsEveryRetainedCommitOfTheStore() throws IOException {
        final Path store = dir.resolve("sink");
        final Schema schema = Schema.of(Column.longColumn("t"), Column.longColumn("id"));
        final List<Projection> projections = List.of(Projection.of("by_t", "t", "t", "id"));
        final ColumnStoreOptions sinkOptions = ColumnStoreOptions.builder().commitOnClose(false)
                .retainedCommits(10).build();
        try (ColumnStore s = ColumnStore.open(store, schema, projections, sinkOptions)) {
            for (long c = 1; c <= 5; c++) {
                s.append(c, c);
                s.flush(Map.of("checkpoint", Long.toString(c)));
            }
        }
        final Cli query = Cli.run("query", "--dir", store.toString(), "--projection", "by_t", "--range", "min",
                "max", "--agg", "count");
        assertEquals(0, query.exitCode, query.toString());
        assertTrue(query.out.contains("5"), query.toString());
        try (ColumnStore s = ColumnStore.open(store, schema, projections, sinkOptions)) {
            assertEquals(List.of("1", "2", "3", "4", "5"), s.commits().stream()
                    .map(c -> c.metadata().get("checkpoint")).toList(), "the commits a sink may roll back to");
        }
        try (ColumnStore s = ColumnStore.open(store, schema, projections,
                sinkOptions.toBuilder().atCommit(1).build())) {
            assertEquals(1, s.rows(), "the first commit can still be reopened");
        }
    }

    @Test
    void helpShowsExamples() {
        final Cli ingest = Cli.run("ingest", "--help");
        assertEquals(0, ingest.exitCode);
        assertTrue(ingest.out.contains("--tpch lineitem:0.1") && ingest.out.contains("--rejects"), ingest.out);
        final Cli query = Cli.run("query", "--help");
        assertTrue(query.out.contains("--list-projections") && query.out.contains("--agg"), query.out);
    }
}
