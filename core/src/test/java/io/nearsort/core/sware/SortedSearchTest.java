package io.nearsort.core.sware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SortedSearchTest {

    /** The last index of {@code key} in {@code keys[from, to)} by a scan, or -1. */
    private static int lastByScan(final long[] keys, final int from, final int to, final long key) {
        for (int i = to - 1; i >= from; i--) {
            if (keys[i] == key) {
                return i;
            }
        }
        return -1;
    }

    /** Every key of the array, its neighbours and the extremes, over the whole array and over sub-ranges. */
    private static void assertFindsAsScan(final long[] keys) {
        final long[] steps = new long[1];
        final int n = keys.length;
        final int[][] ranges = {{0, n}, {0, 0}, {n / 3, n / 3}, {n / 3, n}, {0, n / 2}, {n / 4, 3 * n / 4}};
        for (final int[] range : ranges) {
            for (final long probe : new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1,
                    Long.MAX_VALUE, 0L, -1L}) {
                assertEquals(lastByScan(keys, range[0], range[1], probe),
                        SortedSearch.findLast(keys, range[0], range[1], probe, steps));
            }
            for (int i = range[0]; i < range[1]; i++) {
                for (long d = -1; d <= 1; d++) {
                    final long probe = keys[i] + d;
                    assertEquals(lastByScan(keys, range[0], range[1], probe),
                            SortedSearch.findLast(keys, range[0], range[1], probe, steps),
                            () -> "key " + probe + " in " + Arrays.toString(range));
                }
            }
        }
    }

    @Test
    void findsTheLastEqualKeyOfRandomRunsWithDuplicatesAndExtremeKeys() {
        final SplittableRandom random = new SplittableRandom(17);
        for (int round = 0; round < 300; round++) {
            final int n = 1 + random.nextInt(600);
            final long[] keys = new long[n];
            final int shape = round % 4;
            for (int i = 0; i < n; i++) {
                keys[i] = switch (shape) {
                    case 0 -> random.nextLong(); // the whole long range: differences overflow
                    case 1 -> random.nextLong(n / 4 + 1); // many duplicates
                    case 2 -> random.nextInt(10) == 0 ? random.nextLong() : i; // dense keys and outliers
                    default -> random.nextInt(3) == 0 ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE)
                            : random.nextLong(1_000);
                };
            }
            Arrays.sort(keys);
            assertFindsAsScan(keys);
        }
    }

    /**
     * The bisection guard: on runs where a straight line between the ends guesses badly at every step, a search
     * takes a few probes more than on evenly spread keys, never more than 3 (log2 n + 1). The search this replaced
     * took 46–51 on average on the first two runs, up to 53.
     */
    @Test
    void skewedRunsTakeFewProbes() {
        final int n = 100_000;
        final int bound = 3 * (32 - Integer.numberOfLeadingZeros(n)) + 2;
        final long[][] runs = new long[3][n];
        for (int i = 0; i < n; i++) {
            runs[0][i] = i % 100 == 99 ? (1L << 40) + i : i; // consecutive keys and 1% far above them
            runs[1][i] = i < n / 10 ? -1_000_000_000_000L + i : i; // far outliers below, guesses land high
            runs[2][i] = (long) i * i * i; // convex: guesses land low, and less so as the range narrows
        }
        Arrays.sort(runs[0]);
        final long[] steps = new long[1];
        for (final long[] run : runs) {
            long most = 0;
            long total = 0;
            int searches = 0;
            for (int i = 0; i < n; i += 7) {
                steps[0] = 0;
                assertEquals(i, SortedSearch.findLast(run, 0, n, run[i], steps));
                most = Math.max(most, steps[0]);
                total += steps[0];
                searches++;
                final long absent = run[i] + 1;
                if (i + 1 < n && run[i + 1] == absent) {
                    continue;
                }
                steps[0] = 0;
                assertEquals(-1, SortedSearch.findLast(run, 0, n, absent, steps));
                most = Math.max(most, steps[0]);
            }
            assertTrue(most <= bound, "at most " + bound + " probes, took " + most);
            final double mean = (double) total / searches;
            assertTrue(mean <= 14, "a few probes on average, took " + mean);
        }
    }

    @Test
    void evenlySpreadKeysTakeAFewProbes() {
        final int n = 100_000;
        final long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = 3L * i;
        }
        final long[] steps = new long[1];
        for (int i = 0; i < n; i += 11) {
            assertEquals(i, SortedSearch.findLast(keys, 0, n, keys[i], steps));
        }
        assertTrue(steps[0] <= 2L * (n / 11 + 1), "interpolation on evenly spread keys: " + steps[0] + " probes");
    }
}
