package io.nearsort.examples.cli.bench;

import io.nearsort.core.memory.PageArena;
import io.nearsort.core.sortedness.KLGenerator;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runner's warm-up: how many runs each structure gets before the timed ones, and what is counted. */
class BenchRunnerTest {
    private static final List<BenchStructure> STRUCTURES = List.of(BenchStructure.BPLUS, BenchStructure.SA_BPLUS_SW);
    private static final Workload WORKLOAD = new Workload("K=5% L=5%", 5, 5, false,
            KLGenerator.generate(5_000, 5, 5, 3));
    private static final int REPEAT = 2;
    private static final int LOOKUPS = 500;

    private static BenchPlan plan(final long warmupNanos) {
        return new BenchPlan(STRUCTURES, BenchStructure.BPLUS, REPEAT, warmupNanos, LOOKUPS, 0, 0, 0, 1, true, 1.0, 0,
                Double.NaN, PageArena.DEFAULT_PAGE_SIZE, 7, 1, 1);
    }

    /** A clock that moves {@code step} nanoseconds each time it is read: every warm-up run then takes exactly that. */
    private static LongSupplier steppingClock(final long step) {
        final long[] now = {0};
        return () -> now[0] += step;
    }

    private static WorkloadResult run(final long warmupNanos, final LongSupplier clock, final AtomicInteger counted) {
        return new BenchRunner(plan(warmupNanos), counted::incrementAndGet, clock).run(WORKLOAD);
    }

    /** The timed runs are as many as asked, and only theirs are recorded, verified and counted for progress. */
    private static void assertTimedRunsOnly(final WorkloadResult result, final AtomicInteger counted) {
        for (final BenchStructure structure : STRUCTURES) {
            final StructureResult r = result.of(structure);
            assertEquals(REPEAT, r.runs(Phase.INGEST), structure.cliName());
            assertEquals(REPEAT, r.runs(Phase.LOOKUP), structure.cliName());
            assertEquals(REPEAT * LOOKUPS, r.verifiedReads(), structure.cliName());
        }
        // The first warm-up run and the timed runs of each structure, whatever the warm-up took.
        assertEquals(STRUCTURES.size() * (1 + REPEAT), counted.get());
    }

    @Test
    void noWarmupTimeMeansOneWarmupRun() {
        final AtomicInteger counted = new AtomicInteger();
        final WorkloadResult result = run(0, steppingClock(1), counted);
        for (final BenchStructure structure : STRUCTURES) {
            assertEquals(1, result.of(structure).warmupRuns(), structure.cliName());
        }
        assertTimedRunsOnly(result, counted);
    }

    @Test
    void warmsUpUntilTheTimeIsReachedAndNoLonger() {
        final AtomicInteger counted = new AtomicInteger();
        // Runs of 40 ms against 100 ms: the third run reaches it.
        final WorkloadResult result = run(TimeUnit.MILLISECONDS.toNanos(100),
                steppingClock(TimeUnit.MILLISECONDS.toNanos(40)), counted);
        for (final BenchStructure structure : STRUCTURES) {
            assertEquals(3, result.of(structure).warmupRuns(), structure.cliName());
            assertEquals(TimeUnit.MILLISECONDS.toNanos(120), result.of(structure).warmupNanos(), structure.cliName());
        }
        assertTimedRunsOnly(result, counted);
    }

    @Test
    void warmupRunsAreCapped() {
        final AtomicInteger counted = new AtomicInteger();
        // A clock that never moves: the time is never reached, the cap ends the warm-up.
        final WorkloadResult result = run(1, () -> 0L, counted);
        for (final BenchStructure structure : STRUCTURES) {
            assertEquals(BenchRunner.MAX_WARMUP_RUNS, result.of(structure).warmupRuns(), structure.cliName());
        }
        assertTimedRunsOnly(result, counted);
    }

    @Test
    void realClockWarmsUpForTheTimeGiven() {
        final long warmup = TimeUnit.MILLISECONDS.toNanos(150);
        final AtomicInteger counted = new AtomicInteger();
        final WorkloadResult result = new BenchRunner(plan(warmup), counted::incrementAndGet).run(WORKLOAD);
        for (final BenchStructure structure : STRUCTURES) {
            final StructureResult r = result.of(structure);
            assertTrue(r.warmupNanos() >= warmup || r.warmupRuns() == BenchRunner.MAX_WARMUP_RUNS,
                    structure.cliName() + ": " + r.warmupRuns() + " runs in " + r.warmupNanos() + " ns");
        }
        assertTimedRunsOnly(result, counted);
    }
}
