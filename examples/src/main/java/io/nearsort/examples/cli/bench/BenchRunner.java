package io.nearsort.examples.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Runs a {@link BenchPlan} on workloads: per workload warm-up rounds, then {@code repeat} timed rounds; each round
 * runs every structure once, alternating the order between rounds so that drift of the machine (heat, other
 * tenants) spreads over all of them. Every structure warms up for at least one run and until its warm-up runs have
 * taken {@link BenchPlan#warmupNanos()} of wall-clock time (each run's collection and checks included, as the JIT's
 * compiler threads work through those too), at most {@link #MAX_WARMUP_RUNS} runs: a structure that ingests the
 * workload in a few tens of milliseconds calls its rarer paths (an SA tree's flush cycle, a few hundred times per
 * 2M keys) too seldom in one run for the JIT to have compiled them, and timed runs that follow a single warm-up run
 * then still speed up from one to the next. A run ingests the workload into a fresh instance the way the plan's
 * {@code batch} says (one {@code put} per record, {@code putAll} batches, or one bulk {@code putAll}), then
 * performs the lookups and scans on it; the read:write mix runs on another fresh instance preloaded with the first
 * 80% the same way (so that it starts from the tree a sink writing that way would have built), then writes one
 * {@code put} per record between its reads. Sizes are always checked; with {@code verify}, every read is compared
 * with the {@link Reference} after the timing.
 */
public final class BenchRunner {
    private static final long MISSING = -1;
    /** Warm-up runs per structure and workload at most, however short they are. */
    public static final int MAX_WARMUP_RUNS = 200;

    private final BenchPlan plan;
    private final Runnable onRun;
    private final LongSupplier clock;

    /**
     * @param onRun called after the first warm-up run and after every timed run of each structure (progress:
     *              {@link #runsPerWorkload()} calls per workload)
     */
    public BenchRunner(final BenchPlan plan, final Runnable onRun) {
        this(plan, onRun, System::nanoTime);
    }

    /** @param clock the nanosecond clock the warm-up is measured with (tests give their own) */
    BenchRunner(final BenchPlan plan, final Runnable onRun, final LongSupplier clock) {
        this.plan = plan;
        this.onRun = onRun;
        this.clock = clock;
    }

    /**
     * Runs that {@code onRun} counts per workload: the first warm-up run and the timed runs of every structure (the
     * further warm-up runs, as many as {@link BenchPlan#warmupNanos()} takes, are not counted).
     */
    public int runsPerWorkload() {
        return (1 + plan.repeat()) * plan.structures().size();
    }

    /** The results of every structure on {@code workload}, in plan order. */
    public WorkloadResult run(final Workload workload) {
        final Reference reference = new Reference(workload);
        final Operations operations = new Operations(plan, workload, reference);
        final long[] values = workload.arrivalValues();
        final List<StructureResult> results = new ArrayList<>();
        for (final BenchStructure structure : plan.structures()) {
            results.add(new StructureResult(structure));
        }
        warmUp(workload, values, reference, operations, results);
        final int count = results.size();
        for (int round = 1; round <= plan.repeat(); round++) {
            for (int i = 0; i < count; i++) {
                runOnce(workload, values, reference, operations, results.get(alternate(round, i, count)));
                onRun.run();
            }
        }
        return new WorkloadResult(workload, results);
    }

    /**
     * The warm-up rounds: every structure runs once, then again, round after round, while its runs so far have taken
     * less than the plan's warm-up time (at most {@link #MAX_WARMUP_RUNS} runs); the results are dropped.
     */
    private void warmUp(final Workload workload, final long[] values, final Reference reference,
                        final Operations operations, final List<StructureResult> results) {
        final int count = results.size();
        boolean warming = true;
        for (int round = 0; warming && round < MAX_WARMUP_RUNS; round++) {
            warming = false;
            for (int i = 0; i < count; i++) {
                final StructureResult result = results.get(alternate(round, i, count));
                if (round > 0 && result.warmupNanos() >= plan.warmupNanos()) {
                    continue;
                }
                final long start = clock.getAsLong();
                runOnce(workload, values, reference, operations, new StructureResult(result.structure()));
                result.warmedUp(clock.getAsLong() - start);
                if (round == 0) {
                    onRun.run();
                }
                warming |= result.warmupNanos() < plan.warmupNanos();
            }
        }
    }

    /**
     * The lookup phase: {@code found[i]} gets the value of {@code keys[i]}, one {@code get} per key when
     * {@code batch} is 1, otherwise one {@code getAll} per consecutive slice of {@code batch} keys (the last one
     * shorter).
     */
    static void lookUp(final BenchTarget target, final long[] keys, final long[] found, final int batch) {
        if (batch == 1) {
            for (int i = 0; i < found.length; i++) {
                found[i] = target.get(keys[i], MISSING);
            }
            return;
        }
        for (int from = 0, to; from < found.length; from = to) {
            to = (int) Math.min(found.length, (long) from + batch);
            target.getAll(keys, found, from, to, MISSING);
        }
    }

    /** The structure that runs {@code i}-th in {@code round}: the order reverses from one round to the next. */
    private static int alternate(final int round, final int i, final int count) {
        return round % 2 == 0 ? i : count - 1 - i;
    }

    private void runOnce(final Workload workload, final long[] values, final Reference reference,
                         final Operations ops, final StructureResult result) {
        final long[] keys = workload.keys();
        final int capacity = plan.bufferCapacity(keys.length);
        final String who = result.structure().cliName() + " on " + workload.name();
        System.gc(); // the previous run's garbage (TreeMap nodes) should not be collected on this run's clock
        try (BenchTarget target = result.structure().create(capacity, plan.flushFraction(), plan.pageSize())) {
            long start = System.nanoTime();
            target.write(keys, values, plan.batch());
            target.finish();
            result.record(Phase.INGEST, keys.length, System.nanoTime() - start);
            checkSize(who, target.size(), reference.distinct());
            result.afterIngest(target.stats(), target.size());
            if (ops.lookupKeys.length > 0) {
                final long[] found = new long[ops.lookupKeys.length];
                start = System.nanoTime();
                lookUp(target, ops.lookupKeys, found, plan.lookupBatch());
                result.record(Phase.LOOKUP, found.length, System.nanoTime() - start);
                if (plan.verify()) {
                    verifyLookups(who, ops.lookupKeys, found, reference);
                    result.verified(found.length);
                }
            }
            if (ops.scanLo.length > 0) {
                scan(who, target, ops, reference, result);
            }
        }
        if (ops.mixOperations() > 0) {
            mix(who, keys, values, reference, ops, result, capacity);
        }
    }

    private void scan(final String who, final BenchTarget target, final Operations ops, final Reference reference,
                      final StructureResult result) {
        final int scans = ops.scanLo.length;
        final long[] counts = new long[scans];
        final long[] sums = new long[scans];
        final long[] visit = new long[2];
        final long start = System.nanoTime();
        for (int i = 0; i < scans; i++) {
            target.scan(ops.scanLo[i], ops.scanHi[i], visit);
            counts[i] = visit[0];
            sums[i] = visit[1];
        }
        result.record(Phase.SCAN, scans, System.nanoTime() - start);
        if (plan.verify()) {
            final long[] expected = new long[2];
            for (int i = 0; i < scans; i++) {
                reference.scan(ops.scanLo[i], ops.scanHi[i], expected);
                if (counts[i] != expected[0] || sums[i] != expected[1]) {
                    throw new VerificationException(String.format(Locale.ROOT, "%s: scan [%d, %d] visited %d entries "
                                    + "summing to %d, expected %d summing to %d", who, ops.scanLo[i], ops.scanHi[i],
                            counts[i], sums[i], expected[0], expected[1]));
                }
            }
            result.verified(scans);
        }
    }

    private void mix(final String who, final long[] keys, final long[] values, final Reference reference,
                     final Operations ops, final StructureResult result, final int capacity) {
        final int[] schedule = ops.mixSchedule;
        final long[] found = new long[ops.mixReadKeys.length];
        System.gc();
        try (BenchTarget target = result.structure().create(capacity, plan.flushFraction(), plan.pageSize())) {
            target.write(keys, values, 0, ops.mixPreload, plan.batch()); // untimed, but the same tree shape
            int read = 0;
            final long start = System.nanoTime();
            for (final int op : schedule) {
                if (op == Operations.READ) {
                    found[read] = target.get(ops.mixReadKeys[read], MISSING);
                    read++;
                } else {
                    target.put(keys[op], values[op]);
                }
            }
            result.record(Phase.MIX, schedule.length, System.nanoTime() - start);
            target.finish();
            checkSize(who + " after the mix", target.size(), reference.distinct());
        }
        if (plan.verify()) {
            int written = ops.mixPreload;
            int read = 0;
            for (final int op : schedule) {
                if (op == Operations.READ) {
                    final long expected = reference.valueBefore(ops.mixReadKeys[read], written, MISSING);
                    if (found[read] != expected) {
                        throw new VerificationException(String.format(Locale.ROOT, "%s: mix read %d of key %d after "
                                + "%d writes returned %d, expected %d", who, read, ops.mixReadKeys[read], written,
                                found[read], expected));
                    }
                    read++;
                } else {
                    written = op + 1;
                }
            }
            result.verified(found.length);
        }
    }

    private static void verifyLookups(final String who, final long[] keys, final long[] found,
                                      final Reference reference) {
        for (int i = 0; i < keys.length; i++) {
            final long expected = reference.value(keys[i], MISSING);
            if (found[i] != expected) {
                throw new VerificationException(String.format(Locale.ROOT, "%s: lookup of key %d returned %d, "
                        + "expected %d", who, keys[i], found[i], expected));
            }
        }
    }

    private static void checkSize(final String who, final long size, final long expected) {
        if (size != expected) {
            throw new VerificationException(String.format(Locale.ROOT, "%s: holds %,d entries, expected %,d distinct "
                    + "keys", who, size, expected));
        }
    }
}
