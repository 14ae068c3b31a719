package io.nearsort.examples.cli.bench;

import io.nearsort.core.IndexStats;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints bench results as an aligned table: per workload and structure the ingest time and throughput, each
 * phase's throughput and speedup over the baseline, the share of entries bulk-loaded, top-inserted and
 * tail-inserted, the average leaf fill and the off-heap bytes per entry.
 */
public final class ResultTable {
    private final BenchStructure baseline;

    public ResultTable(final BenchStructure baseline) {
        this.baseline = baseline;
    }

    public void print(final List<WorkloadResult> workloads, final PrintStream out) {
        if (workloads.isEmpty()) {
            return;
        }
        final List<Phase> phases = new ArrayList<>();
        for (final Phase phase : Phase.values()) {
            if (workloads.get(0).results().get(0).ran(phase)) {
                phases.add(phase);
            }
        }
        final StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-22s %-24s %10s", "workload",
                "structure", "ingest ms"));
        for (final Phase phase : phases) {
            header.append(String.format(Locale.ROOT, " %13s %8s", phase.label() + " M/s", "speedup"));
        }
        header.append(String.format(Locale.ROOT, " %7s %7s %7s %6s %8s", "bulk", "top", "tail", "fill", "B/entry"));
        out.println(header);
        for (final WorkloadResult workload : workloads) {
            for (final StructureResult result : workload.results()) {
                final StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-22s %-24s %10.1f",
                        workload.name(), result.structure().label(),
                        result.medianNanos(Phase.INGEST) / 1e6));
                for (final Phase phase : phases) {
                    row.append(String.format(Locale.ROOT, " %13.2f %7.2fx", result.throughput(phase) / 1e6,
                            workload.speedup(result.structure(), baseline, phase)));
                }
                final IndexStats stats = result.stats();
                final long n = workload.n();
                row.append(String.format(Locale.ROOT, " %7s %7s %7s %6s %8s",
                        stats == null ? "-" : percent(stats.bulkLoadedEntries(), n),
                        stats == null ? "-" : percent(stats.topInserts(), n),
                        stats == null ? "-" : percent(stats.tailLeafInserts(), n),
                        stats == null ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * stats.averageLeafFill()),
                        stats == null || result.size() == 0 ? "-"
                                : String.format(Locale.ROOT, "%.1f", (double) stats.bytesInUse() / result.size())));
                out.println(row);
            }
        }
    }

    /** The legend printed under the table. */
    public static void legend(final PrintStream out, final BenchStructure baseline, final int repeat,
                              final long warmupNanos) {
        out.println("Median of " + repeat + " timed run(s) after " + warmupPhrase(warmupNanos)
                + "; structures alternate between runs. speedup = time(" + baseline.cliName()
                + ") / time(structure) on the same operations.");
        out.println("bulk / top / tail = share of the workload's keys bulk-appended, inserted from the root, or "
                + "inserted straight into the right-most leaf;");
        out.println("fill = average leaf fill; B/entry = off-heap bytes in use per entry (the JDK maps live on the "
                + "heap: '-').");
    }

    /** The warm-up as the header and legend name it: "a warm-up run" or "1 s of warm-up runs per structure". */
    public static String warmupPhrase(final long warmupNanos) {
        return warmupNanos == 0 ? "a warm-up run" : String.format(Locale.ROOT, "%s s of warm-up runs per structure",
                BigDecimal.valueOf(warmupNanos, 9).stripTrailingZeros().toPlainString());
    }

    private static String percent(final long count, final long n) {
        return n == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * count / n);
    }
}
