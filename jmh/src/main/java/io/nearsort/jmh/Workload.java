package io.nearsort.jmh;

import io.nearsort.core.sortedness.KLGenerator;

/**
 * The ingestion orders benchmarked: the data-sortedness benchmark's generator (OSM-tree §5) and the late-event
 * streams of event-time sinks (key i arriving at i + U[0, D), {@link KLGenerator#lateEvents(double)}).
 */
public enum Workload {
    SORTED(0, 0, false, -1),
    K5_L5(5, 5, false, -1),
    K10_L5(10, 5, false, -1),
    K25_L25(25, 25, false, -1),
    /** Late events, D = 0.1% of n. */
    LATE_D01(0, 0, false, 0.1),
    /** Late events, D = 0.5% of n: the reference stream. */
    LATE_D05(0, 0, false, 0.5),
    /** Late events, D = 1% of n. */
    LATE_D1(0, 0, false, 1),
    SCRAMBLED(0, 0, true, -1);

    private final double kPercent;
    private final double lPercent;
    private final boolean scrambled;
    private final double latePercent;

    Workload(final double kPercent, final double lPercent, final boolean scrambled, final double latePercent) {
        this.kPercent = kPercent;
        this.lPercent = lPercent;
        this.scrambled = scrambled;
        this.latePercent = latePercent;
    }

    /** The keys in arrival order, reproducible (seed 42). */
    public long[] keys(final int n) {
        final KLGenerator generator = KLGenerator.workload(n).seed(42);
        if (latePercent >= 0) {
            return generator.lateEvents(latePercent).generate();
        }
        return generator.kPercent(kPercent).lPercent(lPercent).scrambled(scrambled).generate();
    }
}
