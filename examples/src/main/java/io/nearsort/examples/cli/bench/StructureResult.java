package io.nearsort.examples.cli.bench;

import io.nearsort.core.IndexStats;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/** The timed runs of one structure on one workload, and how many warm-up runs came before them. */
public final class StructureResult {
    private final BenchStructure structure;
    private final Map<Phase, long[]> nanos = new EnumMap<>(Phase.class);
    private final Map<Phase, Long> operations = new EnumMap<>(Phase.class);
    private IndexStats stats;
    private long size;
    private long verifiedReads;
    private int warmupRuns;
    private long warmupNanos;

    StructureResult(final BenchStructure structure) {
        this.structure = structure;
    }

    void record(final Phase phase, final long operationCount, final long elapsedNanos) {
        operations.put(phase, operationCount);
        final long[] runs = nanos.getOrDefault(phase, new long[0]);
        final long[] grown = Arrays.copyOf(runs, runs.length + 1);
        grown[runs.length] = elapsedNanos;
        nanos.put(phase, grown);
    }

    void afterIngest(final IndexStats ingestStats, final long entries) {
        this.stats = ingestStats;
        this.size = entries;
    }

    /** Counts one warm-up run of {@code elapsedNanos} (its results are not kept). */
    void warmedUp(final long elapsedNanos) {
        warmupRuns++;
        warmupNanos += elapsedNanos;
    }

    /** Warm-up runs before the timed ones. */
    public int warmupRuns() {
        return warmupRuns;
    }

    /** Wall-clock time of the warm-up runs together. */
    public long warmupNanos() {
        return warmupNanos;
    }

    void verified(final long reads) {
        verifiedReads += reads;
    }

    public BenchStructure structure() {
        return structure;
    }

    /** Whether the phase ran. */
    public boolean ran(final Phase phase) {
        return nanos.containsKey(phase);
    }

    /** Median time of the phase's timed runs. */
    public long medianNanos(final Phase phase) {
        final long[] runs = nanos.get(phase).clone();
        Arrays.sort(runs);
        final int m = runs.length / 2;
        return runs.length % 2 == 1 ? runs[m] : (runs[m - 1] + runs[m]) / 2;
    }

    /** Timed runs of the phase. */
    public int runs(final Phase phase) {
        return nanos.get(phase).length;
    }

    /** Operations one run of the phase performs. */
    public long operations(final Phase phase) {
        return operations.get(phase);
    }

    /** Operations per second, from the median run. */
    public double throughput(final Phase phase) {
        return operations(phase) / (medianNanos(phase) / 1e9);
    }

    /** The index's counters after the last timed ingest (null for the JDK references). */
    public IndexStats stats() {
        return stats;
    }

    /** Entries held after the ingest. */
    public long size() {
        return size;
    }

    /** Reads checked against the reference (0 without --verify). */
    public long verifiedReads() {
        return verifiedReads;
    }
}
