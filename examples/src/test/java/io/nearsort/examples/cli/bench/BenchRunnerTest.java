package io.nearsort.examples.cli.bench;

import io.nearsort.core.memory.PageArena;
import io.nearsort.core.sortedness.KLGenerator;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runner's warm-up: how many runs each structure gets before the timed ones, and what is counted. */
class BenchRunnerTest {
    private static final List<BenchStructure> STRUCTURES = List.of(BenchStructure.BPLUS, BenchStructure.SA_BPLUS_SW);
    private static final Workload WORKLOAD = new Workload("K=5% L=5%", 5, 5, false,
            KLGenerator.generate(5_000, 5, 5, 3));

    private static BenchPlan plan(final long warmupNanos) {
        return new BenchPlan(STRUCTURES, BenchStructure.BPLUS, 2, warmupNanos, 500, 0, 0, 0, 1, true, 1.0, 0,
                Double.NaN, PageArena.DEFAULT_PAGE_SIZE, 7, 1);
    }

    @Test
    void noWarmupTimeMeansOneWarmupRun() {
        final AtomicInteger counted = new AtomicInteger();
        final BenchRunner runner = new BenchRunner(plan(0), counted::incrementAndGet);
        final WorkloadResult result = runner.run(WORKLOAD);
        for (final BenchStructure structure : STRUCTURES) {
            assertEquals(1, result.of(structure).warmupRuns(), structure.cliName());
            assertEquals(2, result.of(structure).runs(Phase.INGEST), structure.cliName());
            assertEquals(2, result.of(structure).runs(Phase.LOOKUP), structure.cliName());
        }
        assertEquals(runner.runsPerWorkload(), counted.get());
    }

    @Test
    void everyStructureWarmsUpForTheWarmupTime() {
        final long warmup = TimeUnit.MILLISECONDS.toNanos(150);
        final AtomicInteger counted = new AtomicInteger();
        final BenchRunner runner = new BenchRunner(plan(warmup), counted::incrementAndGet);
        final WorkloadResult result = runner.run(WORKLOAD);
        for (final BenchStructure structure : STRUCTURES) {
            final StructureResult r = result.of(structure);
            assertTrue(r.warmupNanos() >= warmup || r.warmupRuns() == BenchRunner.MAX_WARMUP_RUNS,
                    structure.cliName() + ": " + r.warmupRuns() + " runs in " + r.warmupNanos() + " ns");
            assertEquals(2, r.runs(Phase.INGEST), "the timed runs are as many as asked: " + structure.cliName());
            assertEquals(2 * 500, r.verifiedReads(), "only the timed runs' lookups count: " + structure.cliName());
        }
        // The progress counts the first warm-up run and the timed runs of each structure, whatever the warm-up took.
        assertEquals(runner.runsPerWorkload(), counted.get());
    }
}
