package io.nearsort.examples.cli;

import io.nearsort.examples.cli.bench.BenchRunner;
import picocli.CommandLine.Option;

/** The warm-up option {@code bench} and {@code demo} share (a picocli mixin); see {@code BenchRunner}. */
final class WarmupOption {
    /** The longest warm-up accepted, in seconds. */
    static final double MAX_SECONDS = 3600;

    @Option(names = "--warmup", paramLabel = "SECONDS", defaultValue = "1",
            description = "warm-up per structure and workload: each structure runs once, then again until its warm-up "
                    + "runs have taken this long (wall-clock, at most " + BenchRunner.MAX_WARMUP_RUNS + " runs), so "
                    + "that the JIT has compiled what the timed runs call (default ${DEFAULT-VALUE}; 0 = one run; in "
                    + "milliseconds' steps)")
    double seconds;

    /** The warm-up in nanoseconds, checked: 0, or a whole number of milliseconds up to {@link #MAX_SECONDS}. */
    long nanos(final NearsortMain.Subcommand command) {
        if (!(seconds >= 0 && seconds <= MAX_SECONDS) || (seconds > 0 && seconds < 1e-3)) {
            throw command.badArgument("--warmup must be 0 or a number of seconds in [0.001, " + (long) MAX_SECONDS
                    + "] (got: " + seconds + ")");
        }
        return Math.round(seconds * 1e3) * 1_000_000L;
    }
}
