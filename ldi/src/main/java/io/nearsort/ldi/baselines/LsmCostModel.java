package io.nearsort.ldi.baselines;

/**
 * The closed forms of §2.1 (Eqs. 1–2) and Appendix 8.2 (Eqs. 10–13) for N tuples, a buffer of B, level ratio T and
 * P tuples per page, with M = ⌊N/B⌋ buffers, a_i = ⌊M/T^(i-1)⌋ runs arriving at level i, f_i = ⌊M/T^i⌋ times it
 * fills and b_i = a_i mod T runs left in it.
 *
 * <p>{@link #printed} evaluates the formulas as the paper prints them, summed over levels 1..L−1 with
 * L = ⌊log_T M⌋ + 1. Checked against {@link LsmRuns}, they are exact per level with three caveats, which
 * {@link #complete} corrects:
 * <ul>
 *   <li>the sum stops one level short: level L still receives a_L ≥ 1 runs, which are written there;</li>
 *   <li>Eq. 1 counts a_i − f_i, i.e. also the arrival that opens an empty level, which merges nothing; the
 *       merges leveling performs are a_i − ⌈a_i/T⌉;</li>
 *   <li>the tiered read formula (printed as the second Eq. 12) omits the factor T^(i-1): a level-i merge reads
 *       T − 1 runs of B·T^(i-1) tuples, not of B.</li>
 * </ul>
 */
public final class LsmCostModel {
    private LsmCostModel() {
    }

    /**
     * L = ⌊log_T M⌋ + 1, the number of levels the paper's sums run over (level 0 included); 1 when M = 0.
     *
     * @param n N, the tuples loaded, not negative
     * @param b B, tuples per buffer, at least 1
     * @param t T, the level ratio, at least 2
     * @return L, at least 1
     */
    public static int paperLevels(final long n, final int b, final int t) {
        final long m = n / b;
        int levels = 1;
        for (long power = t; power <= m; power *= t) {
            levels++;
            if (power > Long.MAX_VALUE / t) {
                break;
            }
        }
        return m == 0 ? 1 : levels;
    }

    /**
     * The paper's formulas as printed.
     *
     * @param policy leveling (Eqs. 1, 11, 13) or tiering (Eqs. 2, 10, 12)
     * @param n      N, the tuples loaded, not negative
     * @param b      B, tuples per buffer, at least 1
     * @param t      T, the level ratio, at least 2
     * @param p      P, tuples per page, at least 1
     * @return the merges and the pages written and read, summed over levels 1..L−1
     */
    public static LsmCosts printed(final MergePolicy policy, final long n, final int b, final int t, final int p) {
        return sum(policy, n, b, t, p, paperLevels(n, b, t) - 1, false);
    }

    /**
     * The formulas corrected as listed in the class comment; {@link LsmRuns} reproduces them exactly.
     *
     * @param policy leveling (Eqs. 1, 11, 13) or tiering (Eqs. 2, 10, 12)
     * @param n      N, the tuples loaded, not negative
     * @param b      B, tuples per buffer, at least 1
     * @param t      T, the level ratio, at least 2
     * @param p      P, tuples per page, at least 1
     * @return the merges and the pages written and read, summed over every level that receives a run
     * @throws IllegalArgumentException when N, B, T or P is out of its range
     */
    public static LsmCosts complete(final MergePolicy policy, final long n, final int b, final int t, final int p) {
        return sum(policy, n, b, t, p, Integer.MAX_VALUE, true);
    }

    private static LsmCosts sum(final MergePolicy policy, final long n, final int b, final int t, final int p,
                                final int lastLevel, final boolean complete) {
        if (n < 0 || b < 1 || t < 2 || p < 1) {
            throw new IllegalArgumentException("need N ≥ 0, B ≥ 1, T ≥ 2 and P ≥ 1 (got: N=" + n + ", B=" + b
                    + ", T=" + t + ", P=" + p + ")");
        }
        final long m = n / b;
        double merges = 0;
        double writes = 0;
        double reads = 0;
        long powerBelow = 1; // T^(i-1)
        for (int i = 1; i <= lastLevel; i++) {
            final long arrivals = m / powerBelow;
            if (arrivals == 0) {
                break;
            }
            final long fulls = arrivals / t;
            final long left = arrivals % t;
            final double run = (double) b * powerBelow / p; // pages of a level-i base run
            if (policy == MergePolicy.TIERED) {
                merges += fulls;                                            // Eq. 2
                writes += (arrivals - fulls) * run;                         // Eq. 10
                reads += fulls * (t - 1) * (complete ? run : (double) b / p); // Eq. 12 (tiered reads)
            } else {
                merges += complete ? arrivals - ceilDiv(arrivals, t) : arrivals - fulls; // Eq. 1
                final double cycle = (double) (t - 1) * t / 2 * run;
                writes += fulls * cycle + left * (left + 1) / 2.0 * run;    // Eq. 11
                reads += fulls * cycle + left * (left - 1) / 2.0 * run;     // Eq. 13
            }
            if (powerBelow > Long.MAX_VALUE / t) {
                break;
            }
            powerBelow *= t;
        }
        return new LsmCosts(merges, writes, reads);
    }

    private static long ceilDiv(final long a, final long b) {
        return (a + b - 1) / b;
    }
}
