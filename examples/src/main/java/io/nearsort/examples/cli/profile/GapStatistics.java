package io.nearsort.examples.cli.profile;

import java.util.Arrays;

/**
 * The differences between consecutive distinct keys in sorted order: what the generator's {@code --gaps} option
 * controls (fixed or random widths) and what an interpolation search relies on. Gaps are unsigned: the whole
 * {@code long} range is a legal span.
 *
 * @param minKey   smallest key
 * @param maxKey   largest key
 * @param distinct distinct keys
 * @param min      smallest gap (0 when there are fewer than two distinct keys)
 * @param median   median gap
 * @param mean     mean gap
 * @param max      largest gap
 * @param exact    whether min, median and max were measured (false in streaming mode, where only the mean is
 *                 known and the others are 0)
 */
public record GapStatistics(long minKey, long maxKey, long distinct, long min, long median, double mean,
                            long max, boolean exact) {

    /** Exact statistics of {@code keys} (not modified). */
    public static GapStatistics of(final long[] keys) {
        if (keys.length == 0) {
            return new GapStatistics(0, 0, 0, 0, 0, 0, 0, true);
        }
        final long[] sorted = keys.clone();
        Arrays.sort(sorted);
        final long[] gaps = new long[sorted.length - 1];
        int distinct = 1;
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] != sorted[i - 1]) {
                gaps[distinct - 1] = sorted[i] - sorted[i - 1]; // unsigned difference
                distinct++;
            }
        }
        final int gapCount = distinct - 1;
        final long minKey = sorted[0];
        final long maxKey = sorted[sorted.length - 1];
        if (gapCount == 0) {
            return new GapStatistics(minKey, maxKey, distinct, 0, 0, 0, 0, true);
        }
        // Sort the gaps as unsigned values: flipping the sign bit maps unsigned order onto signed order.
        for (int i = 0; i < gapCount; i++) {
            gaps[i] ^= Long.MIN_VALUE;
        }
        Arrays.sort(gaps, 0, gapCount);
        final long min = gaps[0] ^ Long.MIN_VALUE;
        final long median = gaps[(gapCount - 1) / 2] ^ Long.MIN_VALUE;
        final long max = gaps[gapCount - 1] ^ Long.MIN_VALUE;
        return new GapStatistics(minKey, maxKey, distinct, min, median, meanGap(minKey, maxKey, distinct), max,
                true);
    }

    /**
     * What a stream's extremes and distinct count give without the keys themselves (streaming mode): only the
     * mean gap is known.
     */
    public static GapStatistics ofRange(final long minKey, final long maxKey, final long distinct) {
        return new GapStatistics(minKey, maxKey, distinct, 0, 0, meanGap(minKey, maxKey, distinct), 0, false);
    }

    private static double meanGap(final long minKey, final long maxKey, final long distinct) {
        return distinct < 2 ? 0 : unsignedToDouble(maxKey - minKey) / (distinct - 1);
    }

    private static double unsignedToDouble(final long value) {
        return value >= 0 ? value : (value >>> 1) * 2.0 + (value & 1);
    }

    /** Whether every gap has the same width (the generator's {@code fixed:W}). */
    public boolean fixedWidth() {
        return exact() && distinct >= 2 && min == max;
    }
}
