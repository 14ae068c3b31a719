package io.nearsort.examples.cli;

import io.nearsort.core.memory.PageArena;
import io.nearsort.core.sortedness.Sortedness;
import io.nearsort.core.sortedness.SortednessReport;
import io.nearsort.examples.cli.bench.BenchPlan;
import io.nearsort.examples.cli.bench.BenchRunner;
import io.nearsort.examples.cli.bench.BenchStructure;
import io.nearsort.examples.cli.bench.CsvReport;
import io.nearsort.examples.cli.bench.Phase;
import io.nearsort.examples.cli.bench.ResultTable;
import io.nearsort.examples.cli.bench.Workload;
import io.nearsort.examples.cli.bench.WorkloadResult;
import io.nearsort.examples.cli.chart.SpeedupCharts;
import io.nearsort.examples.cli.keys.KeyFormat;
import io.nearsort.examples.cli.keys.KeyReader;
import io.nearsort.examples.cli.keys.LongArrayBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code nearsort bench}: ingests generated or supplied workloads into the chosen structures, optionally followed
 * by point lookups, a read:write mix and range scans, and prints the comparison; {@code --grid} sweeps the
 * OSM-tree §5 K/L grid and charts the speedups.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Ingests a workload (generated with -n/-K/-L or --late, or --input) into each structure as "
                + "--batch says, then optionally runs point lookups, a read:write mix and range scans, and prints "
                + "throughput, speedup over the baseline, %% bulk-loaded / top-inserted, average leaf fill and bytes "
                + "per entry.",
            "Each structure warms up (--warmup), then runs --repeat times; structures alternate between runs and "
                + "the median counts."},
        footerHeading = "%nExamples:%n",
        footer = {"  nearsort bench -n 10M -K 5 -L 5",
            "  nearsort bench -n 10M --late 0.5 -s bplus,sa-bplus,sa-bplus-sw --batch 500",
            "  nearsort bench -n 1M -K 10 -L 1 -s bplus,bplus-tail-bulk,sa-bplus,treemap,skiplist --lookups 1M "
                + "--mix 50:50 --scans 10k --verify --csv out/bench.csv",
            "  nearsort bench --input keys.txt --lookups 1M",
            "  nearsort bench --grid -n 1M --chart out/grid.png --chart-type line"})
final class BenchCommand extends NearsortMain.Subcommand {
    static final double[] GRID_K = {0, 1, 5, 10, 15, 25, 50};
    static final double[] GRID_L = {1, 5, 10, 25, 50};

    @Mixin
    WorkloadOptions workload = new WorkloadOptions();

    @Option(names = "--input", paramLabel = "FILE|-", description = "benchmark these keys (- for standard input) "
            + "instead of generating them")
    String input;

    @Option(names = "--binary", description = "--input is little-endian int64")
    boolean binary;

    @Option(names = "--int32", description = "--input is little-endian int32")
    boolean int32;

    @Option(names = {"-s", "--structures"}, split = ",", paramLabel = "NAME", defaultValue = "bplus,sa-bplus,treemap",
            description = "structures to compare: bplus (the papers' baseline B+-tree), bplus-tail-bulk (80:20 "
                    + "splits and tail-leaf inserts; its putAll batches bulk-append ascending runs), sa-bplus (SA "
                    + "B+-tree, SWARE), sa-bplus-sw (SA B+-tree for a single writer thread), sa-bplus-pin (the same with "
                    + "the writer pinned to its thread, whose lookups take no lock), sa-bplus-st (SA B+-tree "
                    + "confined to one thread), sbtree (SB-Tree: segmented blocks of per-thread blocks, concurrent), "
                    + "betree (the papers' Bε-tree, writes buffered as messages in its nodes), sa-betree (SA Bε-tree, "
                    + "SWARE over it), sa-betree-sw (SA Bε-tree for a single writer thread), sa-betree-st (SA "
                    + "Bε-tree confined to one thread), treemap, skiplist (default ${DEFAULT-VALUE})")
    List<String> structures;

    @Option(names = "--baseline", paramLabel = "NAME", defaultValue = "bplus",
            description = "the structure speedups are relative to (default ${DEFAULT-VALUE})")
    String baseline;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "3",
            description = "timed runs per structure after the warm-up; the median counts (default ${DEFAULT-VALUE})")
    int repeat;

    @Mixin
    WarmupOption warmup = new WarmupOption();

    @Option(names = "--batch", paramLabel = "1|N|all", defaultValue = "1",
            description = "how the ingest writes: 1 = one put per record (a Flink SinkWriter; default), N = putAll "
                    + "over batches of N records (Kafka Connect hands a task up to 500), all = one putAll over the "
                    + "whole workload (a bulk load, not a stream)")
    String batch;

    @Option(names = "--buffer", paramLabel = "ENTRIES|P%", defaultValue = "1%",
            description = "SWARE buffer of the SA trees (sa-bplus, sa-bplus-sw, sa-bplus-pin, sa-bplus-st, sa-betree, "
                    + "sa-betree-sw, sa-betree-st), in entries "
                    + "or %% of n (default ${DEFAULT-VALUE}, the papers' default)")
    String buffer;

    @Option(names = "--flush-fraction", paramLabel = "F",
            description = "least share of the SA trees' SWARE buffer a flush cycle sends to the tree, in (0, 1] "
                    + "(default: the paper's 0.5; cycles send more while the kept part absorbs few late entries; "
                    + "0.75 merges kept entries less often, which speeds up write-heavy per-record ingest of "
                    + "unsorted streams)")
    Double flushFraction;

    @Option(names = "--page-size", paramLabel = "BYTES", defaultValue = "4096",
            description = "bytes of a tree node: the B+-trees' and Bε-trees' pages, SB-Tree's blocks; a power of two "
                    + "from 512 to 1048576 (default ${DEFAULT-VALUE}, the papers' 4 KiB; the SWARE paper's 8-byte "
                    + "entries put ~510 of them in such a node, as 8192 does with these 16-byte entries)")
    int pageSize;

    @Option(names = "--lookups", paramLabel = "N", converter = Counts.class, defaultValue = "0",
            description = "uniform random non-empty point lookups after the ingest")
    long lookups;

    @Option(names = "--lookup-batch", paramLabel = "N", converter = Counts.class, defaultValue = "1",
            description = "keys per lookup call: 1 = getOrDefault per key (default), N = getAll over batches of N "
                    + "keys (the SA trees guard their reads once per 64 keys instead of once per key; the JDK maps "
                    + "look the keys up one by one)")
    long lookupBatch;

    @Option(names = "--mix", paramLabel = "R:W", description = "a read:write mix (e.g. 50:50, 90:10) on a structure "
            + "preloaded with the first 80%% of the workload (written as --batch says): the remaining 20%% of the writes, "
            + "one put each, interleaved with reads")
    String mix;

    @Option(names = "--scans", paramLabel = "N", converter = Counts.class, defaultValue = "0",
            description = "range scans after the ingest")
    long scans;

    @Option(names = "--scan-length", paramLabel = "M", converter = Counts.class, defaultValue = "100",
            description = "consecutive keys per range scan (default ${DEFAULT-VALUE})")
    long scanLength;

    @Option(names = "--verify", description = "check every lookup, mix read and scan against a reference")
    boolean verify;

    @Option(names = "--grid", description = "run the K/L grid (OSM-tree §5) plus a scrambled workload instead of one "
            + "workload, and chart the ingest speedups")
    boolean grid;

    @Option(names = "--grid-k", split = ",", paramLabel = "k", description = "K values of the grid, in %% "
            + "(default 0,1,5,10,15,25,50)")
    double[] gridK;

    @Option(names = "--grid-l", split = ",", paramLabel = "l", description = "L values of the grid, in %% "
            + "(default 1,5,10,25,50)")
    double[] gridL;

    @Option(names = "--chart", paramLabel = "FILE.png", description = "write a PNG chart of the speedups (default "
            + "with --grid: nearsort-out/bench-grid.png)")
    Path chart;

    @Option(names = "--chart-type", paramLabel = "TYPE",
            description = "heatmap or line for the grid (default heatmap), bar for a single workload (its default)")
    String chartType;

    @Option(names = "--chart-structure", paramLabel = "NAME", description = "whose speedup the grid chart shows "
            + "(default: sa-bplus if benchmarked, else the first non-baseline structure)")
    String chartStructure;

    @Option(names = "--csv", paramLabel = "FILE", description = "also write every result as CSV")
    Path csv;

    @Override
    public Integer call() throws IOException {
        final BenchPlan plan = plan();
        final List<Workload> workloads = grid ? gridWorkloads() : List.of(singleWorkload());
        final PrintStream out = io().out();
        out.printf(Locale.ROOT, "nearsort bench: %d workload(s) of %,d keys; %s; median of %d timed run(s) after %s%n",
                workloads.size(), workloads.get(0).keys().length, structureList(plan), plan.repeat(),
                ResultTable.warmupPhrase(plan.warmupNanos()));
        out.printf(Locale.ROOT, "ingest: %s (--batch %s)%n", plan.ingestMode(), plan.batchName());
        if (plan.lookupBatch() > 1) {
            out.printf(Locale.ROOT, "lookups: %s (--lookup-batch %d)%n", plan.lookupMode(), plan.lookupBatch());
        }
        if (!Double.isNaN(plan.flushFraction())) {
            out.printf(Locale.ROOT, "SWARE flush fraction: %s (--flush-fraction; the paper's default is 0.5)%n",
                    plan.flushFraction());
        }
        if (plan.pageSize() != PageArena.DEFAULT_PAGE_SIZE) {
            out.printf(Locale.ROOT, "tree nodes: %,d bytes (--page-size; the papers use 4,096)%n", plan.pageSize());
        }
        final BenchRunner runner;
        final List<WorkloadResult> results = new ArrayList<>();
        try (Progress progress = Progress.start(io(), "bench", (long) workloads.size()
                * (1 + plan.repeat()) * plan.structures().size(), "runs")) {
            runner = new BenchRunner(plan, progress::step);
            for (final Workload w : workloads) {
                final SortednessReport measured = Sortedness.measure(w.keys());
                out.printf(Locale.ROOT, "  %-22s measured K = %.2f%%, L = %.2f%%, %,d runs%n", w.name(), 100 * measured.kFraction(),
                        100 * measured.lFraction(), measured.runs());
                results.add(runner.run(w));
            }
        }
        out.println();
        new ResultTable(plan.baseline()).print(results, io().out());
        out.println();
        ResultTable.legend(io().out(), plan.baseline(), plan.repeat(), plan.warmupNanos());
        if (plan.verify()) {
            long checked = 0;
            for (final WorkloadResult r : results) {
                for (final var s : r.results()) {
                    checked += s.verifiedReads();
                }
            }
            out.printf(Locale.ROOT, "verify: %,d reads and scans matched the reference in the timed runs.%n", checked);
        }
        if (csv != null) {
            writeCsv(results, plan);
            out.println("CSV written to " + csv);
        }
        final Path chartPath = chart != null ? chart : grid ? Path.of("nearsort-out", "bench-grid.png") : null;
        if (chartPath != null) {
            writeChart(results, plan, chartPath);
            out.println("Chart written to " + chartPath);
        }
        return NearsortMain.OK;
    }

    private BenchPlan plan() {
        final List<BenchStructure> chosen = new ArrayList<>();
        for (final String name : structures) {
            final BenchStructure structure = structure("--structures", name);
            if (!chosen.contains(structure)) {
                chosen.add(structure);
            }
        }
        final BenchStructure base = structure("--baseline", baseline);
        if (!chosen.contains(base)) {
            chosen.add(0, base);
        }
        checkRange("--repeat", repeat, 1, 1000);
        checkRange("--lookups", lookups, 0, Integer.MAX_VALUE - 8);
        checkRange("--lookup-batch", lookupBatch, 1, Integer.MAX_VALUE - 8);
        if (lookupBatch > 1 && lookups == 0) {
            throw badArgument("--lookup-batch sizes the lookups' calls; there are no --lookups");
        }
        checkRange("--scans", scans, 0, Integer.MAX_VALUE - 8);
        checkRange("--scan-length", scanLength, 1, Integer.MAX_VALUE - 8);
        if (binary && int32) {
            throw badArgument("--binary and --int32 are exclusive");
        }
        if ((binary || int32) && input == null) {
            throw badArgument("--binary and --int32 describe --input; there is no --input");
        }
        if (grid && input != null) {
            throw badArgument("--grid generates its workloads; it takes no --input");
        }
        if (workload.late != null && (grid || input != null)) {
            throw badArgument("--late generates one workload; it takes no " + (grid ? "--grid" : "--input"));
        }
        if (chartType == null) {
            chartType = grid ? "heatmap" : "bar";
        } else if (!List.of("heatmap", "line", "bar").contains(chartType)) {
            throw badArgument("--chart-type must be heatmap, line or bar (got: '" + chartType + "')");
        } else if (grid == "bar".equals(chartType)) {
            throw badArgument(grid ? "--chart-type bar charts single workloads; the grid takes heatmap or line"
                    : "--chart-type " + chartType + " charts the grid; add --grid or use --chart-type bar");
        }
        final int[] ratio = mixRatio();
        double bufferPercent = 0;
        long bufferEntries = 0;
        if (buffer.endsWith("%")) {
            try {
                bufferPercent = Double.parseDouble(buffer.substring(0, buffer.length() - 1));
            } catch (final NumberFormatException e) {
                bufferPercent = Double.NaN;
            }
            if (!(bufferPercent > 0 && bufferPercent <= 100)) {
                throw badArgument("--buffer P% needs a percentage in (0, 100] (got: '" + buffer + "')");
            }
        } else {
            bufferEntries = checkRange("--buffer", Counts.parse(buffer), 1, 1 << 28);
        }
        if (flushFraction != null && !(flushFraction > 0 && flushFraction <= 1)) {
            throw badArgument("--flush-fraction must be in (0, 1] (got: " + flushFraction + ")");
        }
        if (!PageArena.isValidPageSize(pageSize)) {
            throw badArgument("--page-size must be a power of two from " + PageArena.MIN_PAGE_SIZE + " to "
                    + PageArena.MAX_PAGE_SIZE + " (got: " + pageSize + ")");
        }
        final BenchPlan plan = new BenchPlan(chosen, base, repeat, warmup.nanos(this), (int) lookups, ratio[0],
                ratio[1], (int) scans, (int) scanLength, verify, bufferPercent, (int) bufferEntries,
                flushFraction == null ? Double.NaN : flushFraction, pageSize, workload.seed, batchSize(),
                (int) lookupBatch);
        if (grid) {
            chartStructure(plan); // fails now rather than after the runs
            for (final double k : gridK()) {
                checkPercent("--grid-k", k);
            }
            for (final double l : gridL()) {
                checkPercent("--grid-l", l);
            }
        }
        return plan;
    }

    private int batchSize() {
        if ("all".equals(batch)) {
            return BenchPlan.BULK_LOAD;
        }
        try {
            final long size = Counts.parse(batch);
            if (size >= 1 && size < BenchPlan.BULK_LOAD) {
                return (int) size;
            }
        } catch (final IllegalArgumentException | picocli.CommandLine.TypeConversionException e) {
            // reported below
        }
        throw badArgument("--batch expects 1 (put per record), a positive batch size N, or all (got: '" + batch
                + "')");
    }

    private BenchStructure structure(final String option, final String name) {
        try {
            return BenchStructure.of(name.strip());
        } catch (final IllegalArgumentException e) {
            throw badArgument(option + ": " + e.getMessage());
        }
    }

    private int[] mixRatio() {
        if (mix == null) {
            return new int[] {0, 0};
        }
        final String[] parts = mix.split(":", -1);
        try {
            if (parts.length == 2) {
                final int reads = Integer.parseInt(parts[0].strip());
                final int writes = Integer.parseInt(parts[1].strip());
                if (reads >= 0 && writes >= 0 && reads + writes > 0 && reads <= 1000 && writes <= 1000) {
                    return new int[] {reads, writes};
                }
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw badArgument("--mix expects R:W with integers in [0, 1000], not both 0, e.g. 50:50 (got: '" + mix + "')");
    }

    private Workload singleWorkload() throws IOException {
        if (input == null) {
            checkRange("-n", workload.n, 1, WorkloadOptions.MAX_N);
            final boolean late = workload.late != null;
            return new Workload(workload.name(), late ? Double.NaN : workload.k, late ? Double.NaN : workload.l,
                    workload.scrambled, workload.generator(this).generate());
        }
        final LongArrayBuilder keys = new LongArrayBuilder();
        new KeyReader(KeyFormat.of(binary, int32)).read(input, io().in(), keys::accept);
        if (keys.size() == 0) {
            throw badArgument("--input " + input + " holds no keys");
        }
        final String name = "-".equals(input) ? "stdin" : Path.of(input).getFileName().toString();
        return new Workload(name, Double.NaN, Double.NaN, false, keys.toArray());
    }

    private List<Workload> gridWorkloads() {
        checkRange("-n", workload.n, 1, WorkloadOptions.MAX_N);
        workload.generator(this); // validates the gaps
        final List<Workload> list = new ArrayList<>();
        list.add(new Workload("sorted", 0, 0, false, workload.generator(this, 0, 0, false).generate()));
        for (final double l : gridL()) {
            for (final double k : gridK()) {
                if (k != 0) {
                    list.add(new Workload(WorkloadOptions.name(k, l, false), k, l, false,
                            workload.generator(this, k, l, false).generate()));
                }
            }
        }
        list.add(new Workload("scrambled", 100, 100, true, workload.generator(this, 0, 0, true).generate()));
        return list;
    }

    private double[] gridK() {
        return gridK == null ? GRID_K : gridK;
    }

    private double[] gridL() {
        return gridL == null ? GRID_L : gridL;
    }

    private void writeCsv(final List<WorkloadResult> results, final BenchPlan plan) throws IOException {
        final Path parent = csv.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (Writer writer = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            CsvReport.write(results, plan.baseline(), plan.batchName(), plan.pageSize(), plan.lookupBatch(), writer);
        }
    }

    private void writeChart(final List<WorkloadResult> results, final BenchPlan plan, final Path png)
            throws IOException {
        if (!grid) {
            final List<String> names = new ArrayList<>();
            results.forEach(r -> names.add(r.name()));
            final List<String> labels = new ArrayList<>();
            final double[][] speedups = new double[plan.structures().size()][results.size()];
            for (int s = 0; s < plan.structures().size(); s++) {
                labels.add(plan.structures().get(s).label());
                for (int w = 0; w < results.size(); w++) {
                    speedups[s][w] = results.get(w).speedup(plan.structures().get(s), plan.baseline(), Phase.INGEST);
                }
            }
            SpeedupCharts.bars("Ingestion speedup over " + plan.baseline().label(), names, labels, speedups, png);
            return;
        }
        final BenchStructure shown = chartStructure(plan);
        final double[] ks = gridK();
        final double[] ls = gridL();
        final double[][] cells = new double[ls.length][ks.length];
        double scrambledSpeedup = Double.NaN;
        for (final double[] row : cells) {
            Arrays.fill(row, Double.NaN);
        }
        for (final WorkloadResult r : results) {
            final double speedup = r.speedup(shown, plan.baseline(), Phase.INGEST);
            if (r.scrambled()) {
                scrambledSpeedup = speedup;
                continue;
            }
            for (int l = 0; l < ls.length; l++) {
                for (int k = 0; k < ks.length; k++) {
                    final boolean sortedCell = ks[k] == 0 && r.kPercent() == 0;
                    if (sortedCell || (ks[k] == r.kPercent() && ls[l] == r.lPercent())) {
                        cells[l][k] = speedup;
                    }
                }
            }
        }
        final String title = String.format(Locale.ROOT, "Ingestion speedup of %s over %s, n = %,d; scrambled %.2fx",
                shown.cliName(), plan.baseline().cliName(), results.get(0).n(), scrambledSpeedup);
        if ("line".equals(chartType)) {
            SpeedupCharts.lines(title, ks, ls, cells, png);
        } else {
            SpeedupCharts.heatMap(title, ks, ls, cells, png);
        }
    }

    private BenchStructure chartStructure(final BenchPlan plan) {
        if (chartStructure != null) {
            final BenchStructure named = structure("--chart-structure", chartStructure);
            if (!plan.structures().contains(named)) {
                throw badArgument("--chart-structure " + chartStructure + " is not among --structures");
            }
            return named;
        }
        if (plan.structures().contains(BenchStructure.SA_BPLUS)) {
            return BenchStructure.SA_BPLUS;
        }
        return plan.structures().stream().filter(s -> s != plan.baseline()).findFirst().orElse(plan.baseline());
    }

    private static String structureList(final BenchPlan plan) {
        final List<String> names = new ArrayList<>();
        plan.structures().forEach(s -> names.add(s.cliName() + (s == plan.baseline() ? " (baseline)" : "")));
        return String.join(", ", names);
    }
}
