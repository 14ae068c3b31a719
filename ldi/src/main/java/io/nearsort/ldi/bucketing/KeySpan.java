package io.nearsort.ldi.bucketing;

/** The smallest and largest of a non-empty array of keys or row ids. */
public final class KeySpan {
    private KeySpan() {
    }

    public static long min(final long[] values) {
        long min = Long.MAX_VALUE;
        for (long v : values) {
            min = Math.min(min, v);
        }
        return min;
    }

    public static long max(final long[] values) {
        long max = Long.MIN_VALUE;
        for (long v : values) {
            max = Math.max(max, v);
        }
        return max;
    }
}
