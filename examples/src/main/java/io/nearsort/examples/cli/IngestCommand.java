package io.nearsort.examples.cli;

import io.nearsort.examples.cli.ingest.BatchSource;
import io.nearsort.examples.cli.ingest.CompareRun;
import io.nearsort.examples.cli.ingest.DelimitedSource;
import io.nearsort.examples.cli.ingest.Lineitem;
import io.nearsort.examples.cli.ingest.TableSpec;
import io.nearsort.examples.cli.keys.MalformedInputException;
import io.nearsort.ldi.commit.CommitPoint;
import io.nearsort.ldi.io.WriteMax;
import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.ProjectionStats;
import io.nearsort.ldi.projection.StoreStats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code nearsort ingest}: loads CSV/TSV files or a generated TPC-H lineitem table into an LDI column store, as one
 * commit, and reports the load against the disk's sequential write speed; {@code --compare} loads the same rows into
 * the §5 baselines too and charts load and query times.
 */
@Command(name = "ingest", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Loads rows into the LDI column store in --dir (created if needed): CSV or TSV files, typed by "
                + "--schema or by a header line of name:type columns, or --tpch lineitem:SF generated in process. "
                + "Every projection is clustered by its key with a learned distribution (LDI, SSDBM 2021).",
            "The whole ingest is one commit: a failure or a malformed line (without --rejects) leaves the store as it "
                + "was. Types: long, double, string, string(N) (at most N UTF-8 bytes), date (yyyy-mm-dd, stored as "
                + "days since 1970-01-01). Empty lines are skipped.",
            "Prints rows/s, bytes written, buckets and ARB per projection, and the disk's sequential write speed "
                + "measured in the same run (Write_MAX, §5)."},
        footerHeading = "%nExamples:%n",
        footer = {"  nearsort ingest --tpch lineitem:0.1 --dir store/lineitem",
            "  nearsort ingest --schema id:long,v:double,note:string --projection by_id=id,note "
                + "--projection by_v=v data.csv --dir store/t",
            "  nearsort ingest trips.tsv --projection by_time=pickup,fare --rejects rejects.tsv --dir store/trips",
            "  nearsort ingest --tpch lineitem:0.05 --compare --dir store/cmp --chart out/compare.png",
            "",
            "A header line with types: id:long,v:double,note:string (then no --schema)."})
final class IngestCommand extends NearsortMain.Subcommand {
    /** Rows of one column batch appended at a time. */
    static final int DEFAULT_BATCH = 4096;

    @Parameters(paramLabel = "INPUT", arity = "0..*", description = "CSV or TSV files (- for standard input)")
    List<String> inputs = new ArrayList<>();

    @Option(names = "--dir", paramLabel = "STORE", required = true,
            description = "the store's directory (created with the schema and projections given, or appended to)")
    Path dir;

    @Option(names = "--tpch", paramLabel = "lineitem:SF",
            description = "generate TPC-H lineitem at scale factor SF in process (SF 1 = 6M rows), instead of files")
    String tpch;

    @Option(names = "--schema", paramLabel = "name:type,...",
            description = "the columns of the files, in order; without it each file starts with such a header line")
    String schema;

    @Option(names = "--projection", paramLabel = "NAME=KEY,COL,...",
            description = "a projection: its name, its key column (long, date or double), its other columns; "
                    + "repeat for several; no column in two (default with --tpch: by_order, by_shipdate, by_price)")
    List<String> projections = new ArrayList<>();

    @Option(names = "--skip-header", description = "with --schema: the first line of each file is a header to skip")
    boolean skipHeader;

    @Option(names = "--delimiter", paramLabel = "C",
            description = "field separator: a character, or tab (default: tab for .tsv files, else a comma; "
                    + "CSV fields may be \"quoted\")")
    String delimiter;

    @Option(names = "--rejects", paramLabel = "FILE",
            description = "write malformed lines here (file:line, reason, the line; tab-separated) and go on; "
                    + "without it the first malformed line stops the ingest")
    Path rejects;

    @Option(names = "--batch", paramLabel = "ROWS", converter = Counts.class, defaultValue = "4096",
            description = "rows appended per column batch (default ${DEFAULT-VALUE})")
    long batch;

    @Option(names = "--compare", description = "also load the rows into Col_LSM-like (leveled, tiered), Sorted_Col "
            + "and LDI through its row API, side by side, time range queries on every store and chart both (§5); "
            + "holds the rows in memory")
    boolean compare;

    @Option(names = "--chart", paramLabel = "FILE.png",
            description = "with --compare: the load-time chart (the query chart goes beside it as FILE-query.png; "
                    + "default nearsort-out/ingest-compare.png)")
    Path chart;

    @Option(names = "--queries", paramLabel = "N", defaultValue = "3",
            description = "with --compare: positions per selectivity of the timed range queries (default "
                    + "${DEFAULT-VALUE})")
    int queries;

    @Option(names = "--rounds", paramLabel = "R", defaultValue = "3",
            description = "with --compare: loads (and query sets) of each store, in a rotated order each round; the median counts "
                    + "(default ${DEFAULT-VALUE})")
    int rounds;

    @Override
    public Integer call() throws IOException {
        checkRange("--batch", batch, 1, 1 << 20);
        checkRange("--rounds", rounds, 1, 99);
        checkRange("--queries", queries, 1, 100);
        if ((tpch == null) == inputs.isEmpty()) {
            throw badArgument(tpch == null ? "give INPUT files or --tpch lineitem:SF" : "--tpch generates the rows; it"
                    + " takes no INPUT files");
        }
        if (skipHeader && schema == null) {
            throw badArgument("--skip-header needs --schema (without it the header line types the columns)");
        }
        if (chart != null && !compare) {
            throw badArgument("--chart charts --compare; add --compare");
        }
        if (compare && Files.exists(dir.resolve("store.manifest"))) {
            throw badArgument("--compare loads a new LDI store: --dir " + dir + " already holds one");
        }
        final TableSpec given = schema == null ? null : parseSchema();
        try (Writer rejected = rejects == null ? null : openRejects();
             BatchSource source = source(given, rejected)) {
            final List<Projection> chosen = projections(source);
            if (compare) {
                return new CompareRun(io(), source, chosen, dir, (int) batch, queries, rounds,
                        chart != null ? chart : Path.of("nearsort-out", "ingest-compare.png")).run();
            }
            return ingest(source, chosen);
        }
    }

    private TableSpec parseSchema() {
        try {
            return TableSpec.parse(schema);
        } catch (IllegalArgumentException e) {
            throw badArgument("--schema: " + e.getMessage());
        }
    }

    private Writer openRejects() throws IOException {
        final Path parent = rejects.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return Files.newBufferedWriter(rejects, StandardCharsets.UTF_8);
    }

    private BatchSource source(final TableSpec given, final Writer rejected) throws IOException {
        if (tpch != null) {
            if (schema != null || rejects != null || skipHeader || delimiter != null) {
                throw badArgument("--tpch generates typed rows: it takes no --schema, --skip-header, --delimiter or"
                        + " --rejects");
            }
            final String[] parts = tpch.split(":", -1);
            if (parts.length != 2 || !parts[0].equals("lineitem")) {
                throw badArgument("--tpch expects lineitem:SF, e.g. lineitem:0.1 (got: '" + tpch + "')");
            }
            try {
                return new Lineitem(Double.parseDouble(parts[1]));
            } catch (IllegalArgumentException e) {
                throw badArgument("--tpch: " + (e instanceof NumberFormatException ? "'" + parts[1]
                        + "' is not a scale factor" : e.getMessage()));
            }
        }
        return new DelimitedSource(inputs, io().in(), given, delimiter(), skipHeader, rejected);
    }

    private char delimiter() {
        if (delimiter == null) {
            return inputs.get(0).toLowerCase(Locale.ROOT).endsWith(".tsv") ? '\t' : ',';
        }
        if (delimiter.equalsIgnoreCase("tab") || delimiter.equals("\\t")) {
            return '\t';
        }
        if (delimiter.length() != 1 || delimiter.charAt(0) == '"' || delimiter.charAt(0) == '\n') {
            throw badArgument("--delimiter must be one character (or tab), not a quote (got: '" + delimiter + "')");
        }
        return delimiter.charAt(0);
    }

    private List<Projection> projections(final BatchSource source) {
        if (projections.isEmpty()) {
            if (tpch != null) {
                return Lineitem.PROJECTIONS;
            }
            throw badArgument("give at least one --projection NAME=KEY,COL,... (columns: "
                    + String.join(",", source.table().names()) + ")");
        }
        final List<Projection> out = new ArrayList<>();
        for (String p : projections) {
            try {
                out.add(TableSpec.projection(p));
            } catch (IllegalArgumentException e) {
                throw badArgument("--projection: " + e.getMessage());
            }
        }
        try {
            new io.nearsort.ldi.projection.TableLayout(source.table().schema(), out);
        } catch (IllegalArgumentException e) {
            throw badArgument("--projection: " + e.getMessage());
        }
        return out;
    }

    /** Opens the store for this ingest: nothing is committed unless the whole ingest succeeds. */
    static ColumnStore openStore(final NearsortMain.Subcommand command, final Path dir, final TableSpec table,
                                 final List<Projection> projections) throws IOException {
        try {
            return ColumnStore.open(dir, table.schema(), projections,
                    ColumnStoreOptions.builder().commitOnClose(false).build());
        } catch (IllegalArgumentException e) {
            throw command.badArgument("--dir " + dir + ": " + e.getMessage());
        }
    }

    private int ingest(final BatchSource source, final List<Projection> chosen) throws IOException {
        final PrintStream out = io().out();
        try (ColumnStore store = openStore(this, dir, source.table(), chosen)) {
            final long rowsBefore = store.rows();
            final boolean existed = store.lastCommit().isPresent();
            final long bytesBefore = store.stats().fileBytes();
            final ColumnBatch b = ColumnBatch.allocate(source.table().schema(), (int) batch);
            long readNanos = 0;
            final long start = System.nanoTime();
            try (Progress progress = Progress.start(io(), "ingest", source.total(), source.unit())) {
                long reported = 0;
                while (true) {
                    final long t = System.nanoTime();
                    final boolean more = source.fill(b);
                    readNanos += System.nanoTime() - t;
                    if (!more) {
                        break;
                    }
                    store.append(b);
                    progress.stepBy(source.done() - reported);
                    reported = source.done();
                }
            } catch (MalformedInputException e) {
                throw new MalformedInputException(e.getMessage() + "; nothing was committed: " + dir + " stays at "
                        + store.lastCommit().map(c -> "commit " + c.id()).orElse("no commit") + " ("
                        + rowsBefore + " rows)");
            }
            final long rows = store.rows() - rowsBefore;
            final Map<String, String> metadata = new LinkedHashMap<>();
            metadata.put("nearsort.ingest.input", source.description());
            metadata.put("nearsort.ingest.rows", Long.toString(rows));
            metadata.put("nearsort.ingest.rejected", Long.toString(source.rejected()));
            final CommitPoint commit = store.flush(metadata);
            final double seconds = (System.nanoTime() - start) / 1e9;
            final StoreStats stats = store.stats();
            final long written = stats.fileBytes() - bytesBefore;
            final double writeMax = WriteMax.estimate(dir, Math.max(1, written));
            final double diskMBs = Math.max(1, written) / 1e6 / writeMax;
            out.printf(Locale.ROOT, "nearsort ingest: %s -> %s (%s)%n", source.description(), dir,
                    existed ? "appended to the store" : "new store");
            out.printf(Locale.ROOT, "  %,d rows in %.2f s: %,.0f rows/s (reading the input: %.2f s of it); %,d "
                    + "rejected%s%n", rows, seconds, rows / seconds, readNanos / 1e9, source.rejected(),
                    rejects != null ? " (to " + rejects + ")" : "");
            out.printf(Locale.ROOT, "  commit %d: the store holds %,d rows%n", commit.id(), commit.rows());
            out.printf(Locale.ROOT, "  written: %.1f MB at %.1f MB/s; this disk writes %.0f MB/s sequentially "
                    + "(measured now, forced): Write_MAX for these bytes is %.2f s, the load took %.1fx Write_MAX%n",
                    written / 1e6, written / 1e6 / seconds, diskMBs, writeMax, seconds / writeMax);
            out.println();
            out.printf(Locale.ROOT, "  %-14s %-16s %9s %14s %9s %8s%n", "projection", "key", "buckets",
                    "non-compacted", "live MB", "ARB");
            for (Projection p : chosen) {
                final ProjectionStats s = stats.projections().get(p.name());
                out.printf(Locale.ROOT, "  %-14s %-16s %,9d %,14d %9.1f %8.4f%n", p.name(), p.key(), s.buckets(),
                        s.nonCompacted(), s.liveBytes() / 1e6, store.arb(p.name()));
            }
            out.println();
            out.println("ARB (Eq. 7 of the LDI paper): how close each projection's buckets are to a full sort on its "
                    + "key (1 = as narrow as sorted buckets).");
            out.println("Next: nearsort query --dir " + dir + " --list-projections");
        }
        return NearsortMain.OK;
    }
}
