package io.nearsort.core.memory;

/**
 * Switch for the expensive consistency checks of the off-heap layer (double free, foreign page addresses).
 *
 * <p>Like Agrona's {@code agrona.disable.bounds.checks}, the switch is a {@code static final} read once from a
 * system property so that the JIT removes the checks entirely when they are off. The test build turns them on
 * with {@code -Dnearsort.checks=true}; benchmarks run with them off (the default).
 */
public final class MemoryChecks {
    /** {@code true} when {@code -Dnearsort.checks=true} was given. */
    public static final boolean ENABLED = Boolean.getBoolean("nearsort.checks");

    private MemoryChecks() {
    }
}
