package io.nearsort.jmh;

import io.nearsort.core.sortedness.KLGenerator;

/** The ingestion orders benchmarked: the data-sortedness benchmark's generator (OSM-tree §5). */
public enum Workload {
    SORTED(0, 0, false),
    K5_L5(5, 5, false),
    K10_L5(10, 5, false),
    K25_L25(25, 25, false),
    SCRAMBLED(0, 0, true);

    private final double kPercent;
    private final double lPercent;
    private final boolean scrambled;

    Workload(final double kPercent, final double lPercent, final boolean scrambled) {
        this.kPercent = kPercent;
        this.lPercent = lPercent;
        this.scrambled = scrambled;
    }

    /** The keys in arrival order, reproducible (seed 42). */
    public long[] keys(final int n) {
        return KLGenerator.workload(n).kPercent(kPercent).lPercent(lPercent).scrambled(scrambled).seed(42)
                .generate();
    }
}
