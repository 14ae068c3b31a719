package io.nearsort.examples.cli.profile;

import io.nearsort.core.sortedness.SortednessReport;

/**
 * A coarse reading of a (K,L) measurement, in the vocabulary of the SWARE and OSM-tree evaluations. The
 * boundaries follow SWARE §IV-C: below K = 20% or L = 5% the (K,L)-adaptive sort is the right tool, which is
 * where a sortedness-aware buffer absorbs most of the disorder.
 */
public enum SortednessClass {
    /** K = 0: every entry is in place. */
    SORTED("sorted"),
    /** K &lt; 20% or L &lt; 5% (SWARE §IV-C): few entries out of place, or all of them displaced only locally. */
    NEAR_SORTED("near-sorted"),
    /** Order remains (fewer than half the entries would have to move), but beyond the near-sorted bounds. */
    LESS_SORTED("less-sorted"),
    /** At least half the entries would have to be removed to leave the rest sorted: no order to exploit. */
    SCRAMBLED("scrambled");

    /** SWARE §IV-C's K bound, as a fraction of n. */
    static final double NEAR_SORTED_K = 0.20;
    /** SWARE §IV-C's L bound, as a fraction of n. */
    static final double NEAR_SORTED_L = 0.05;
    /** Fraction of entries out of the longest non-decreasing subsequence from which a stream is scrambled. */
    static final double SCRAMBLED_REMOVALS = 0.5;

    private final String label;

    SortednessClass(final String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The class of a measured (or estimated) stream. */
    public static SortednessClass of(final SortednessReport report) {
        if (report.k() == 0) {
            return SORTED;
        }
        if (report.kFraction() < NEAR_SORTED_K || report.lFraction() < NEAR_SORTED_L) {
            return NEAR_SORTED;
        }
        if ((double) report.minRemovals() / report.n() >= SCRAMBLED_REMOVALS) {
            return SCRAMBLED;
        }
        return LESS_SORTED;
    }

    /** The rule that put a stream in this class, for reports. */
    public String rule() {
        switch (this) {
            case SORTED:
                return "K = 0";
            case NEAR_SORTED:
                return "K < 20% or L < 5% (SWARE §IV-C)";
            case LESS_SORTED:
                return "K >= 20% and L >= 5%, fewer than 50% minimum removals";
            case SCRAMBLED:
                return "K >= 20%, L >= 5% and at least 50% minimum removals";
            default:
                throw new AssertionError(this);
        }
    }
}
