package io.nearsort.examples.cli.bench;

import java.util.List;

/**
 * What to run on each workload.
 *
 * @param structures    the structures, in table order
 * @param baseline      the structure speedups are relative to (one of {@code structures})
 * @param repeat        timed runs per structure after one warm-up run; the median counts
 * @param lookups       point lookups after the ingest (0: none)
 * @param mixReads      reads part of the read:write mix (with {@code mixWrites} 0:0, no mix)
 * @param mixWrites     writes part of the read:write mix
 * @param scans         range scans after the ingest (0: none)
 * @param scanLength    consecutive keys per range scan
 * @param verify        check every read against the reference
 * @param bufferPercent SWARE buffer as a percentage of n (used when {@code bufferEntries} is 0)
 * @param bufferEntries SWARE buffer in entries, or 0
 * @param seed          seed of the lookup keys, mix schedule and scan ranges
 */
public record BenchPlan(List<BenchStructure> structures, BenchStructure baseline, int repeat, int lookups,
                        int mixReads, int mixWrites, int scans, int scanLength, boolean verify, double bufferPercent,
                        int bufferEntries, long seed) {
    /** Share of the workload loaded before the read:write mix starts (SWARE §V: reads interleave after 80%). */
    public static final double MIX_PRELOAD = 0.8;

    public BenchPlan {
        structures = List.copyOf(structures);
        if (!structures.contains(baseline)) {
            throw new IllegalArgumentException("baseline " + baseline.cliName() + " is not among the structures");
        }
    }

    /** Whether the read:write mix runs. */
    public boolean mixes() {
        return mixReads + mixWrites > 0;
    }

    /** The SWARE buffer for a workload of {@code n} keys. */
    public int bufferCapacity(final int n) {
        return bufferEntries > 0 ? bufferEntries : (int) Math.max(1, Math.round(n * bufferPercent / 100));
    }
}
