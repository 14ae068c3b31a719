package io.nearsort.examples.cli;

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
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code nearsort demo}: a tour of about a minute on an embedded default. It generates a sorted, a near-sorted
 * (K=5%, L=5%) and a scrambled stream, profiles them, benchmarks the baseline B+-tree, the B+-tree with SWARE
 * §III's design elements, the SA B+-tree and {@link java.util.TreeMap} on ingestion and point lookups (every
 * lookup verified), prints the table and writes a bar chart of the speedups.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "A one-minute tour: generates sorted, near-sorted (K=5%% L=5%%) and scrambled streams, profiles "
                + "them, benchmarks the baseline B+-tree, the B+-tree with tail inserts and bulk append, the SA "
                + "B+-tree (SWARE) and TreeMap, prints the table and writes a chart.",
        footerHeading = "%nExamples:%n",
        footer = {"  nearsort demo", "  nearsort demo -n 10M --repeat 5 --chart out/demo.png"})
final class DemoCommand extends NearsortMain.Subcommand {
    static final List<BenchStructure> STRUCTURES = List.of(BenchStructure.BPLUS, BenchStructure.BPLUS_TAIL_BULK,
            BenchStructure.SA_BPLUS, BenchStructure.TREEMAP);

    @Option(names = "-n", paramLabel = "N", converter = Counts.class, defaultValue = "2000000",
            description = "keys per stream (default 2M)")
    long n;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "3",
            description = "timed runs per structure after a warm-up run; the median counts (default ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "42", description = "generator seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--chart", paramLabel = "FILE.png", defaultValue = "nearsort-out/demo.png",
            description = "where to write the chart of speedups (default ${DEFAULT-VALUE})")
    Path chart;

    @Override
    public Integer call() throws IOException {
        checkRange("-n", n, 1_000, WorkloadOptions.MAX_N);
        checkRange("--repeat", repeat, 1, 100);
        final PrintStream out = io().out();
        final int keys = (int) n;
        final List<Workload> workloads = List.of(
                new Workload("sorted", 0, 0, false, KLGenerator.generate(keys, 0, 0, seed)),
                new Workload("near-sorted K=5% L=5%", 5, 5, false, KLGenerator.generate(keys, 5, 5, seed)),
                new Workload("scrambled", 100, 100, true, KLGenerator.workload(keys).scrambled(true).seed(seed)
                        .generate()));
        out.printf(Locale.ROOT, "nearsort demo: three streams of %,d keys (seed %d)%n%n", n, seed);
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
        final BenchPlan plan = new BenchPlan(STRUCTURES, BenchStructure.BPLUS, repeat, keys / 4, 0, 0, 0, 1, true,
                1.0, 0, seed);
        out.printf(Locale.ROOT, "2. Ingest each stream, then %,d random lookups (nearsort bench; SA B+-tree buffer = 1%% "
                + "of n; every lookup verified)%n", plan.lookups());
        final List<WorkloadResult> results = new ArrayList<>();
        try (Progress progress = Progress.start(io(), "demo", (long) workloads.size() * (1 + repeat)
                * STRUCTURES.size(), "runs")) {
            final BenchRunner runner = new BenchRunner(plan, progress::step);
            for (final Workload w : workloads) {
                results.add(runner.run(w));
            }
        }
        new ResultTable(plan.baseline()).print(results, out);
        out.println();
        ResultTable.legend(out, plan.baseline(), repeat);
        out.println("The SA B+-tree's ingest time includes the final flush of its buffer into the tree.");
        final List<String> names = new ArrayList<>();
        final List<String> labels = new ArrayList<>();
        final double[][] speedups = new double[STRUCTURES.size()][workloads.size()];
        for (int w = 0; w < workloads.size(); w++) {
            names.add(workloads.get(w).name());
        }
        for (int s = 0; s < STRUCTURES.size(); s++) {
            labels.add(STRUCTURES.get(s).label());
            for (int w = 0; w < workloads.size(); w++) {
                speedups[s][w] = results.get(w).speedup(STRUCTURES.get(s), plan.baseline(), Phase.INGEST);
            }
        }
        SpeedupCharts.bars(String.format(Locale.ROOT, "Ingestion speedup over the baseline B+-tree, n = %,d", n),
                names, labels, speedups, chart);
        out.println();
        out.println("3. Chart of the ingestion speedups written to " + chart);
        out.println("Next: 'nearsort profile <your keys>' and 'nearsort bench --input <your keys> --lookups 1M'.");
        return NearsortMain.OK;
    }
}
