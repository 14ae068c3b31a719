package io.nearsort.ldi.bucketing;

import java.util.Arrays;
import java.util.List;

/**
 * The average relative bucket range factor of §3.3, Eq. 7: the sum of the key ranges of same-sized buckets cut
 * from the fully sorted data, divided by the sum of the key ranges of the actual buckets. 1 means no bucket holds a
 * key from elsewhere; smaller means buckets overlap and range queries read extraneous tuples.
 */
public final class Arb {
    private Arb() {
    }

    /**
     * ARB of buckets given by their keys (in any order within a bucket); 1 when every bucket's range is 0.
     *
     * @param buckets each bucket's keys, in any order; any long, and an empty bucket counts for nothing
     * @return the ideal over the actual sum of key ranges: 1 when no bucket overlaps another, smaller the more they
     *         overlap
     */
    public static double of(final List<long[]> buckets) {
        int total = 0;
        for (long[] b : buckets) {
            total += b.length;
        }
        final long[] sorted = new long[total];
        int at = 0;
        double actual = 0;
        for (long[] b : buckets) {
            if (b.length == 0) {
                continue;
            }
            long min = b[0];
            long max = b[0];
            for (long k : b) {
                min = Math.min(min, k);
                max = Math.max(max, k);
                sorted[at++] = k;
            }
            actual += range(min, max);
        }
        Arrays.sort(sorted);
        double ideal = 0;
        at = 0;
        for (long[] b : buckets) {
            if (b.length > 0) {
                ideal += range(sorted[at], sorted[at + b.length - 1]);
                at += b.length;
            }
        }
        return actual == 0 ? 1.0 : ideal / actual;
    }

    private static double range(final long min, final long max) {
        // max - min as an unsigned 64-bit distance, so extreme keys do not overflow.
        final long d = max - min;
        return d >= 0 ? (double) d : (double) (d >>> 1) * 2.0 + (d & 1);
    }
}
