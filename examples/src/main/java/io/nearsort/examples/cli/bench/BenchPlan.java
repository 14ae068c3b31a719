package io.nearsort.examples.cli.bench;

import io.nearsort.core.memory.PageArena;

import java.util.List;

/**
 * What to run on each workload.
 *
 * @param structures    the structures, in table order
 * @param baseline      the structure speedups are relative to (one of {@code structures})
 * @param repeat        timed runs per structure after the warm-up; the median counts
 * @param warmupNanos   warm-up per structure and workload: runs (at least one) until they have taken this long
 * @param lookups       point lookups after the ingest (0: none)
 * @param mixReads      reads part of the read:write mix (with {@code mixWrites} 0:0, no mix)
 * @param mixWrites     writes part of the read:write mix
 * @param scans         range scans after the ingest (0: none)
 * @param scanLength    consecutive keys per range scan
 * @param verify        check every read against the reference
 * @param bufferPercent SWARE buffer as a percentage of n (used when {@code bufferEntries} is 0)
 * @param bufferEntries SWARE buffer in entries, or 0
 * @param flushFraction share of the SWARE buffer a flush cycle sends to the tree, in (0, 1]; NaN for the
 *                      builder's default (the paper's 0.5)
 * @param pageSize      bytes of a tree node (B+-tree and Bε-tree pages, SB-Tree blocks): a power of two in
 *                      [{@value PageArena#MIN_PAGE_SIZE}, {@value PageArena#MAX_PAGE_SIZE}]; the papers use 4 KiB
 * @param seed          seed of the lookup keys, mix schedule and scan ranges
 * @param batch         records per write call of the ingest: 1 is one {@code put} per record, N is
 *                      {@code putAll} over slices of N, {@link #BULK_LOAD} is one {@code putAll} over the whole
 *                      workload; the untimed preload of the read:write mix is written the same way
 * @param lookupBatch   keys per lookup call after the ingest: 1 is one {@code getOrDefault} per key, N is
 *                      {@code getAll} over slices of N keys
 */
public record BenchPlan(List<BenchStructure> structures, BenchStructure baseline, int repeat, long warmupNanos,
                        int lookups, int mixReads, int mixWrites, int scans, int scanLength, boolean verify,
                        double bufferPercent, int bufferEntries, double flushFraction, int pageSize, long seed,
                        int batch, int lookupBatch) {
    /** {@code batch} for one {@code putAll} over the whole workload. */
    public static final int BULK_LOAD = Integer.MAX_VALUE;
    /** Share of the workload loaded before the read:write mix starts (SWARE §V: reads interleave after 80%). */
    public static final double MIX_PRELOAD = 0.8;

    public BenchPlan {
        structures = List.copyOf(structures);
        if (warmupNanos < 0) {
            throw new IllegalArgumentException("warmupNanos must be >= 0 (got: " + warmupNanos + ")");
        }
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be >= 1 (got: " + batch + ")");
        }
        if (lookupBatch < 1) {
            throw new IllegalArgumentException("lookupBatch must be >= 1 (got: " + lookupBatch + ")");
        }
        if (!Double.isNaN(flushFraction) && !(flushFraction > 0 && flushFraction <= 1)) {
            throw new IllegalArgumentException("flushFraction must be in (0, 1] or NaN (got: " + flushFraction + ")");
        }
        PageArena.checkPageSize("pageSize", pageSize);
        if (!structures.contains(baseline)) {
            throw new IllegalArgumentException("baseline " + baseline.cliName() + " is not among the structures");
        }
    }

    /** How the ingest writes, for headers and CSV: {@code put per record}, {@code putAll batches of N}, or bulk load. */
    public String ingestMode() {
        if (batch == 1) {
            return "put per record";
        }
        return batch == BULK_LOAD ? "bulk load (one putAll over the whole array)"
                : String.format(java.util.Locale.ROOT, "putAll batches of %,d", batch);
    }

    /** How the lookups look keys up, for headers: {@code getOrDefault per key} or {@code getAll batches of N}. */
    public String lookupMode() {
        return lookupBatch == 1 ? "getOrDefault per key"
                : String.format(java.util.Locale.ROOT, "getAll batches of %,d keys", lookupBatch);
    }

    /** The {@code --batch} value: {@code 1}, N or {@code all}. */
    public String batchName() {
        return batch == BULK_LOAD ? "all" : Integer.toString(batch);
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
