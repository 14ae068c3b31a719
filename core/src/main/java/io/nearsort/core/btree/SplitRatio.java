package io.nearsort.core.btree;

/**
 * Where a full node splits (SWARE §III "split factor adjustment", Fig. 3c): with ratio {@code r}, the node
 * keeps {@code r} of its entries and the new right sibling receives the rest, so an 80:20 split leaves room for
 * near-sorted inserts in the new right-most node and fills the left one, which will see few further inserts.
 * Shared with the Bε-tree ({@code io.nearsort.core.betree}), whose leaves split by the same rule.
 */
public final class SplitRatio {
    /** Smallest accepted ratio (the textbook 50:50 split). */
    static final double MIN = 0.5;
    /** Largest accepted ratio. */
    static final double MAX = 0.95;

    private SplitRatio() {
    }

    /**
     * How many of {@code total} entries stay in the left node, clamped so that the left keeps at least
     * {@code minLeft} and the right receives at least {@code minRight}.
     *
     * @param total the entries of the full node
     * @param ratio the fraction that stays left, normally a validated ratio in [0.5, 0.95]
     * @param minLeft the fewest entries the left node keeps
     * @param minRight the fewest entries the right node receives
     * @return {@code round(ratio * total)} clamped to {@code [minLeft, total - minRight]}
     */
    public static int leftCount(final int total, final double ratio, final int minLeft, final int minRight) {
        final int left = (int) Math.round(ratio * total);
        return Math.max(minLeft, Math.min(total - minRight, left));
    }

    /**
     * {@code ratio} if it is a split ratio in [0.5, 0.95]; otherwise an exception naming {@code parameter}.
     *
     * @param parameter the setting's name, for the exception's message
     * @param ratio the ratio to check
     * @return {@code ratio} unchanged
     * @throws IllegalArgumentException when {@code ratio} is outside [0.5, 0.95] or NaN
     */
    public static double validate(final String parameter, final double ratio) {
        if (!(ratio >= MIN && ratio <= MAX)) {
            throw new IllegalArgumentException(parameter + " must be in [" + MIN + ", " + MAX + "] (got: " + ratio
                    + ")");
        }
        return ratio;
    }
}
