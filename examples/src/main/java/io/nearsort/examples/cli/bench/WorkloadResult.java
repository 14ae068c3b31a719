package io.nearsort.examples.cli.bench;

import java.util.List;

/**
 * Every structure's results on one workload (without its keys, so that a grid's results stay small).
 *
 * @param name      the workload's name
 * @param kPercent  K of the generator, NaN for keys read from a file
 * @param lPercent  L of the generator, NaN for keys read from a file
 * @param scrambled whether the generator's scrambled mode made it
 * @param n         keys in the workload
 * @param results   per structure, in plan order
 */
public record WorkloadResult(String name, double kPercent, double lPercent, boolean scrambled, int n,
                             List<StructureResult> results) {
    public WorkloadResult {
        results = List.copyOf(results);
    }

    WorkloadResult(final Workload workload, final List<StructureResult> results) {
        this(workload.name(), workload.kPercent(), workload.lPercent(), workload.scrambled(), workload.keys().length,
                results);
    }

    /** The result of {@code structure}. */
    public StructureResult of(final BenchStructure structure) {
        for (final StructureResult result : results) {
            if (result.structure() == structure) {
                return result;
            }
        }
        throw new IllegalArgumentException(structure.cliName() + " did not run on " + name);
    }

    /** {@code time(baseline) / time(structure)} of the phase's median runs. */
    public double speedup(final BenchStructure structure, final BenchStructure baseline, final Phase phase) {
        return (double) of(baseline).medianNanos(phase) / of(structure).medianNanos(phase);
    }
}
