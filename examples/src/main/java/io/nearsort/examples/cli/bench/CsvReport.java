package io.nearsort.examples.cli.bench;

import io.nearsort.core.IndexStats;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Locale;

/** Bench results as CSV: one row per workload, structure and phase, numbers unformatted. */
public final class CsvReport {
    static final String HEADER = "workload,k_percent,l_percent,scrambled,n,batch,structure,phase,operations,timed_runs,"
            + "median_ns,ops_per_second,speedup,bulk_loaded,top_inserts,tail_leaf_inserts,average_leaf_fill,"
            + "bytes_in_use,page_size,warmup_runs,warmup_ms,lookup_batch";

    private CsvReport() {
    }

    /**
     * @param batch    the {@code --batch} value the ingest used ({@link BenchPlan#batchName()})
     * @param pageSize the bytes of the trees' nodes ({@link BenchPlan#pageSize()})
     * @param lookupBatch keys per lookup call ({@link BenchPlan#lookupBatch()})
     */
    public static void write(final List<WorkloadResult> workloads, final BenchStructure baseline, final String batch,
                             final int pageSize, final int lookupBatch, final Writer out) throws IOException {
        out.write(HEADER);
        out.write('\n');
        for (final WorkloadResult workload : workloads) {
            for (final StructureResult result : workload.results()) {
                final IndexStats stats = result.stats();
                for (final Phase phase : Phase.values()) {
                    if (!result.ran(phase)) {
                        continue;
                    }
                    out.write(String.join(",", quoted(workload.name()), number(workload.kPercent()),
                            number(workload.lPercent()), Boolean.toString(workload.scrambled()),
                            Integer.toString(workload.n()), batch,
                            result.structure().cliName(), phase.label(), Long.toString(result.operations(phase)),
                            Integer.toString(result.runs(phase)), Long.toString(result.medianNanos(phase)),
                            String.format(Locale.ROOT, "%.1f", result.throughput(phase)),
                            String.format(Locale.ROOT, "%.4f", workload.speedup(result.structure(), baseline, phase)),
                            stats == null ? "" : Long.toString(stats.bulkLoadedEntries()),
                            stats == null ? "" : Long.toString(stats.topInserts()),
                            stats == null ? "" : Long.toString(stats.tailLeafInserts()),
                            stats == null ? "" : String.format(Locale.ROOT, "%.4f", stats.averageLeafFill()),
                            stats == null ? "" : Long.toString(stats.bytesInUse()),
                            stats == null ? "" : Integer.toString(pageSize),
                            Integer.toString(result.warmupRuns()),
                            String.format(Locale.ROOT, "%.1f", result.warmupNanos() / 1e6),
                            Integer.toString(lookupBatch)));
                    out.write('\n');
                }
            }
        }
    }

    private static String number(final double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%s", value);
    }

    private static String quoted(final String text) {
        return text.contains(",") || text.contains("\"") ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }
}
