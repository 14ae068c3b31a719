package io.nearsort.examples.cli;

import io.nearsort.core.memory.PageArena;
import io.nearsort.core.sortedness.KLGenerator;
import io.nearsort.core.sortedness.Sortedness;
import io.nearsort.core.sortedness.SortednessReport;
import io.nearsort.examples.cli.bench.BenchPlan;
import io.nearsort.examples.cli.bench.BenchRunner;
import io.nearsort.examples.cli.bench.BenchStructure;
import io.nearsort.examples.cli.bench.Phase;
import io.nearsort.examples.cli.bench.ResultTable;
import io.nearsort.examples.cli.bench.Workload;
import io.nearsort.examples.cli.bench.WorkloadResult;
import io.nearsort.examples.cli.chart.SpeedupCharts;
import io.nearsort.examples.cli.profile.Recommendation;
import io.nearsort.examples.cli.profile.SortednessClass;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code nearsort demo}: a tour of a minute or two on an embedded default. It generates a sorted, a near-sorted
 * (K=5%, L=5%), a late-event (D = 0.5% of n) and a scrambled stream and profiles them. Then it writes each into
 * the structures the way sinks write: one {@code put} per record first (the baseline B+-tree, the B+-tree with
 * SWARE §III's design elements, the SA B+-tree in its default and single-writer configurations and
 * {@link java.util.TreeMap}, every lookup afterwards verified), then, for the three streams that are sorted or
 * nearly so, in {@code putAll} batches of 500 and last as one whole-array {@code putAll}, labelled as the bulk
 * load it is. It writes a bar chart of the per-record
 * speedups.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "A tour of a minute or two: generates sorted, near-sorted (K=5%% L=5%%), late-event and "
                + "scrambled streams, profiles them, then writes them into the baseline B+-tree, the B+-tree with "
                + "tail inserts and bulk append, the SA B+-tree (SWARE; also built for a single writer) and TreeMap "
                + "one put per record, then in putAll batches of 500, then as one bulk putAll, prints the tables and "
                + "writes a chart of the per-record speedups.",
        footerHeading = "%nExamples:%n",
        footer = {"  nearsort demo", "  nearsort demo -n 10M --repeat 5 --chart out/demo.png"})
final class DemoCommand extends NearsortMain.Subcommand {
    /** Compared one put per record, with verified lookups afterwards. */
    static final List<BenchStructure> STRUCTURES = List.of(BenchStructure.BPLUS, BenchStructure.BPLUS_TAIL_BULK,
            BenchStructure.SA_BPLUS, BenchStructure.SA_BPLUS_SW, BenchStructure.TREEMAP);
    /** Compared in putAll batches and as a bulk load. */
    static final List<BenchStructure> BATCH_STRUCTURES = List.of(BenchStructure.BPLUS, BenchStructure.SA_BPLUS,
            BenchStructure.SA_BPLUS_SW);
    /** Records per putAll of the batch section: Kafka Connect's default max.poll.records. */
    static final int SINK_BATCH = 500;
    /** D of the late-event stream, in % of n. */
    static final double LATE_PERCENT = 0.5;

    @Option(names = "-n", paramLabel = "N", converter = Counts.class, defaultValue = "2000000",
            description = "keys per stream (default 2M)")
    long n;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "3",
            description = "timed runs per structure after the warm-up; the median counts (default ${DEFAULT-VALUE})")
    int repeat;

    @Mixin
    WarmupOption warmup = new WarmupOption();

    @Option(names = "--seed", paramLabel = "S", defaultValue = "42", description = "generator seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--chart", paramLabel = "FILE.png", defaultValue = "nearsort-out/demo.png",
            description = "where to write the chart of speedups (default ${DEFAULT-VALUE})")
    Path chart;

    @Override
    public Integer call() throws IOException {
        checkRange("-n", n, 1_000, WorkloadOptions.MAX_N);
        checkRange("--repeat", repeat, 1, 100);
        final long warmupNanos = warmup.nanos(this);
        final PrintStream out = io().out();
        final int keys = (int) n;
        final List<Workload> workloads = List.of(
                new Workload("sorted", 0, 0, false, KLGenerator.generate(keys, 0, 0, seed)),
                new Workload("near-sorted K=5% L=5%", 5, 5, false, KLGenerator.generate(keys, 5, 5, seed)),
                new Workload(WorkloadOptions.lateName(LATE_PERCENT), Double.NaN, Double.NaN, false,
                        KLGenerator.workload(keys).lateEvents(LATE_PERCENT).seed(seed).generate()),
                new Workload("scrambled", 100, 100, true, KLGenerator.workload(keys).scrambled(true).seed(seed)
                        .generate()));
        out.printf(Locale.ROOT, "nearsort demo: four streams of %,d keys (seed %d)%n%n", n, seed);
        out.println("1. How sorted is each stream? (nearsort profile)");
        out.printf(Locale.ROOT, "  %-24s %9s %9s %13s %12s  %-12s %s%n", "stream", "K", "L", "min removals", "runs",
                "class", "recommended SWARE buffer, split");
        for (final Workload w : workloads) {
            final SortednessReport r = Sortedness.measure(w.keys());
            final Recommendation rec = Recommendation.of(r);
            out.printf(Locale.ROOT, "  %-24s %8.2f%% %8.2f%% %12.2f%% %,12d  %-12s %,d entries, %.1f%n", w.name(),
                    100 * r.kFraction(), 100 * r.lFraction(), 100.0 * r.minRemovals() / r.n(), r.runs(),
                    SortednessClass.of(r).label(), rec.bufferCapacity(), rec.splitRatio());
        }
        out.println();
        final int lookups = keys / 10;
        // The batch and bulk sections leave the scrambled stream out: no batch makes it sorted (section 2 shows it).
        final List<Workload> nearSorted = workloads.subList(0, workloads.size() - 1);
        final List<WorkloadResult> perRecord = section(out, workloads, STRUCTURES, 1, lookups, warmupNanos,
                String.format(Locale.ROOT, "2. One put per record, as a Flink SinkWriter writes; then %,d random "
                        + "lookups, every one verified (nearsort bench --batch 1; SA B+-tree buffer = 1%% of n)",
                        lookups));
        section(out, nearSorted, BATCH_STRUCTURES, SINK_BATCH, 0, warmupNanos, String.format(Locale.ROOT,
                "3. putAll in batches of %d records, as a Kafka Connect SinkTask receives them (nearsort bench "
                        + "--batch %d; the sorted streams)", SINK_BATCH, SINK_BATCH));
        section(out, nearSorted, BATCH_STRUCTURES, BenchPlan.BULK_LOAD, 0, warmupNanos, "4. Bulk load: one putAll over "
                + "the whole array (nearsort bench --batch all; the sorted streams). Not how a stream arrives; shown "
                + "for comparison");
        ResultTable.legend(out, BenchStructure.BPLUS, repeat, warmupNanos);
        out.println("The SA B+-tree's ingest time includes the final flush of its buffer into the tree. 'single writer' "
                + "is .concurrency(SINGLE_WRITER):");
        out.println("one writing thread, as in a Flink SinkWriter or a Kafka Connect task, and any number of readers; "
                + "its appends take no lock.");
        final List<String> names = new ArrayList<>();
        final List<String> labels = new ArrayList<>();
        final double[][] speedups = new double[STRUCTURES.size()][workloads.size()];
        for (int w = 0; w < workloads.size(); w++) {
            names.add(workloads.get(w).name());
        }
        for (int s = 0; s < STRUCTURES.size(); s++) {
            labels.add(STRUCTURES.get(s).label());
            for (int w = 0; w < workloads.size(); w++) {
                speedups[s][w] = perRecord.get(w).speedup(STRUCTURES.get(s), BenchStructure.BPLUS, Phase.INGEST);
            }
        }
        SpeedupCharts.bars(String.format(Locale.ROOT, "Ingestion speedup over the baseline B+-tree, one put per "
                + "record, n = %,d", n), names, labels, speedups, chart);
        out.println();
        out.println("5. Chart of the per-record ingestion speedups written to " + chart);
        out.println("Next: 'nearsort profile <your keys>' and 'nearsort bench --input <your keys> --lookups 1M'.");
        return NearsortMain.OK;
    }

    /** Runs {@code structures} on every workload with one ingest mode and prints the table. */
    private List<WorkloadResult> section(final PrintStream out, final List<Workload> workloads,
                                         final List<BenchStructure> structures, final int batch, final int lookups,
                                         final long warmupNanos, final String title) {
        final BenchPlan plan = new BenchPlan(structures, BenchStructure.BPLUS, repeat, warmupNanos, lookups, 0, 0, 0,
                1, true, 1.0, 0, Double.NaN, PageArena.DEFAULT_PAGE_SIZE, seed, batch, 1);
        out.println(title);
        final List<WorkloadResult> results = new ArrayList<>();
        try (Progress progress = Progress.start(io(), "demo", (long) workloads.size() * (1 + repeat)
                * structures.size(), "runs")) {
            final BenchRunner runner = new BenchRunner(plan, progress::step);
            for (final Workload w : workloads) {
                results.add(runner.run(w));
            }
        }
        new ResultTable(plan.baseline()).print(results, out);
        out.println();
        return results;
    }
}
