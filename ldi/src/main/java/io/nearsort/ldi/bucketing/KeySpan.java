package io.nearsort.ldi.bucketing;

/** The smallest and largest of a non-empty array of keys or row ids. */
public final class KeySpan {
    private KeySpan() {
    }

    /**
     * The smallest of {@code values}.
     *
     * @param values keys or row ids, at least one
     * @return the smallest value ({@link Long#MAX_VALUE} for an empty array)
     */
    public static long min(final long[] values) {
        long min = Long.MAX_VALUE;
        for (long v : values) {
            min = Math.min(min, v);
        }
        return min;
    }

    /**
     * The largest of {@code values}.
     *
     * @param values keys or row ids, at least one
     * @return the largest value ({@link Long#MIN_VALUE} for an empty array)
     */
    public static long max(final long[] values) {
        long max = Long.MIN_VALUE;
        for (long v : values) {
            max = Math.max(max, v);
        }
        return max;
    }
}
