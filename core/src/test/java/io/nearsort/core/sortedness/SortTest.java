package io.nearsort.core.sortedness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both sorts against a stable oracle ({@link Arrays#sort} of boxed (key, arrival) pairs). Values carry the
 * arrival index so any instability among equal keys shows.
 */
class SortTest {

    private static long[][] withArrivalValues(final long[] keys) {
        final long[] values = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            values[i] = i;
        }
        return new long[][] {keys.clone(), values};
    }

    private static long[][] oracle(final long[] keys) {
        final Integer[] order = new Integer[keys.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong(i -> keys[i])); // TimSort: stable
        final long[] k = new long[keys.length];
        final long[] v = new long[keys.length];
        for (int i = 0; i < order.length; i++) {
            k[i] = keys[order[i]];
            v[i] = order[i];
        }
        return new long[][] {k, v};
    }

    /**
     * {@code n} keys climbing by 0 or 1 (so keys repeat), of which one in {@code displacedOneIn} is replaced by a
     * random key in {@code [0, n]}.
     */
    private static long[] nearSortedWithRepeats(final SplittableRandom random, final int n, final int displacedOneIn) {
        final long[] keys = new long[n];
        long next = 0;
        for (int i = 0; i < n; i++) {
            next += random.nextInt(3) == 0 ? 0 : 1;
            keys[i] = random.nextInt(displacedOneIn) == 0 ? random.nextInt(n + 1) : next;
        }
        return keys;
    }

    private static long[] withDuplicates(final long[] keys, final SplittableRandom random) {
        final long[] out = keys.clone();
        for (int i = 0; i < out.length; i++) {
            if (random.nextInt(4) == 0) {
                out[i] = out[Math.max(0, i - random.nextInt(5))];
            }
        }
        return out;
    }

    @ParameterizedTest(name = "n={0} K={1}% L={2}%")
    @CsvSource({"0,0,0", "1,0,0", "2,100,100", "100,10,5", "10000,5,5", "10000,20,1", "50000,1,50",
        "50000,50,50", "50000,100,100"})
    void mergeSortIsAStableSort(final int n, final double k, final double l) {
        final SplittableRandom random = new SplittableRandom(n);
        final long[] keys = withDuplicates(KLGenerator.generate(n, k, l, 5), random);
        final long[][] data = withArrivalValues(keys);
        new StableMergeSort().sort(data[0], data[1], 0, n);
        final long[][] expected = oracle(keys);
        assertArrayEquals(expected[0], data[0]);
        assertArrayEquals(expected[1], data[1], "equal keys keep arrival order");
    }

    @ParameterizedTest(name = "n={0} spread={1}")
    @CsvSource({"0,10", "1,10", "255,1000", "256,1000", "5000,0", "5000,200", "5000,70000", "5000,16777216",
        "5000,1099511627776", "70000,9223372036854775807"})
    void radixSortIsAStableSortAtEverySpread(final int n, final long spread) {
        final SplittableRandom random = new SplittableRandom(n ^ spread);
        final long base = random.nextLong();
        final long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = spread == 0 ? base : base + random.nextLong(spread); // wraps past Long.MAX_VALUE too
        }
        final long[] withRepeats = withDuplicates(keys, random);
        final long[][] data = withArrivalValues(withRepeats);
        final StableRadixSort sorter = new StableRadixSort();
        sorter.sort(data[0], data[1], 0, n);
        final long[][] expected = oracle(withRepeats);
        assertArrayEquals(expected[0], data[0]);
        assertArrayEquals(expected[1], data[1], "equal keys keep arrival order");
        // The instance keeps its scratch arrays: a second, shorter call on a sub-range must not see stale data.
        final long[][] again = withArrivalValues(withRepeats);
        sorter.sort(again[0], again[1], n / 4, n / 2);
        final long[][] expectedPart = oracle(Arrays.copyOfRange(withRepeats, n / 4, n / 2));
        assertArrayEquals(expectedPart[0], Arrays.copyOfRange(again[0], n / 4, n / 2));
        for (int i = 0; i < expectedPart[1].length; i++) {
            assertEquals(expectedPart[1][i] + n / 4, again[1][n / 4 + i], "position " + i + " of the sub-range");
        }
        assertArrayEquals(Arrays.copyOfRange(withRepeats, 0, n / 4), Arrays.copyOfRange(again[0], 0, n / 4));
        assertArrayEquals(Arrays.copyOfRange(withRepeats, n / 2, n), Arrays.copyOfRange(again[0], n / 2, n));
    }

    @Test
    void radixSortHandlesTheExtremeKeys() {
        final long[] keys = new long[40_000]; // long enough for eight radix passes rather than a merge sort
        final SplittableRandom random = new SplittableRandom(7);
        final long[] pool = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        for (int i = 0; i < keys.length; i++) {
            keys[i] = pool[random.nextInt(pool.length)];
        }
        final long[][] data = withArrivalValues(keys);
        new StableRadixSort().sort(data[0], data[1], 0, keys.length);
        final long[][] expected = oracle(keys);
        assertArrayEquals(expected[0], data[0]);
        assertArrayEquals(expected[1], data[1]);
    }

    @ParameterizedTest(name = "n={0} K={1}% L={2}% estimates {3}")
    @CsvSource({"10000,5,5,exact", "10000,20,1,exact", "50000,10,2,exact", "50000,2,10,exact",
        "50000,10,2,low", "50000,50,50,low", "50000,0,0,exact", "20000,100,100,low"})
    void klAdaptiveSortIsAStableSortAndFallsBackOnUnderestimates(final int n, final double k, final double l,
                                                                 final String estimates) {
        final long[] keys = withDuplicates(KLGenerator.generate(n, k, l, 6), new SplittableRandom(n));
        final SortednessReport measured = Sortedness.measure(keys);
        final boolean exact = estimates.equals("exact");
        final int kEstimate = exact ? (int) measured.k() : (int) measured.k() / 100;
        final int lEstimate = exact ? (int) measured.l() : (int) measured.l() / 100;
        final long[][] data = withArrivalValues(keys);
        final KLAdaptiveSort.Outcome outcome = new KLAdaptiveSort().sort(data[0], data[1], 0, n, kEstimate,
                lEstimate);
        final long[][] expected = oracle(keys);
        assertArrayEquals(expected[0], data[0]);
        assertArrayEquals(expected[1], data[1], "equal keys keep arrival order");
        if (exact) {
            assertEquals(KLAdaptiveSort.Outcome.ADAPTIVE, outcome, "true K and L never need the fallback");
        } else if (measured.k() > 100) {
            assertEquals(KLAdaptiveSort.Outcome.FELL_BACK_TO_MERGE_SORT, outcome, "underestimates are detected");
        }
    }

    @Test
    void klAdaptiveSortIsStableOnManySmallRunsWithRepeatedKeysAndAnyEstimates() {
        final SplittableRandom random = new SplittableRandom(31);
        final KLAdaptiveSort sort = new KLAdaptiveSort();
        for (int round = 0; round < 20_000; round++) {
            final int n = random.nextInt(40);
            final long[] keys = nearSortedWithRepeats(random, n, 5);
            final long[][] data = withArrivalValues(keys);
            sort.sort(data[0], data[1], 0, n, random.nextInt(n + 1), random.nextInt(n + 1));
            final long[][] expected = oracle(keys);
            assertArrayEquals(expected[0], data[0], () -> Arrays.toString(keys));
            assertArrayEquals(expected[1], data[1], () -> "stable on " + Arrays.toString(keys));
        }
    }

    /**
     * With deferred outliers the kept run is sorted and the outliers, merged by their documented order among equal
     * keys, complete the stable sort, whichever algorithm ran (with none deferred when the greedy pass did not
     * finish); one {@link SortedOutliers} serves every round, so a stale count from a previous one would show.
     */
    @Test
    void klAdaptiveSortCanHandOverItsOutliersSortedForTheCallerToMerge() {
        final SplittableRandom random = new SplittableRandom(37);
        final AdaptiveSorter sorter = new AdaptiveSorter();
        final SortedOutliers outliers = new SortedOutliers();
        int deferredRuns = 0;
        for (int round = 0; round < 5_000; round++) {
            final int n = random.nextInt(300);
            final long[] keys = nearSortedWithRepeats(random, n, 10);
            final long[][] data = withArrivalValues(keys);
            final int from = n / 10;
            sorter.sort(data[0], data[1], from, n, random.nextInt(n + 1), random.nextInt(n + 1), outliers);
            final int keptEnd = n - outliers.count();
            deferredRuns += outliers.count() > 0 ? 1 : 0;
            final long[] mergedKeys = new long[n - from];
            final long[] mergedValues = new long[n - from];
            int i = from;
            int c = 0;
            for (int d = 0; d < mergedKeys.length; d++) {
                final boolean outlier = c < outliers.count() && (i == keptEnd || outliers.key(c) < data[0][i]
                        || (outliers.key(c) == data[0][i] && outliers.precedesEqualRunKeys(c)));
                mergedKeys[d] = outlier ? outliers.key(c) : data[0][i];
                mergedValues[d] = outlier ? outliers.value(c++) : data[1][i++];
            }
            final long[][] expected = oracle(Arrays.copyOfRange(keys, from, n));
            for (int d = 0; d < expected[1].length; d++) {
                expected[1][d] += from;
            }
            assertArrayEquals(expected[0], mergedKeys, () -> Arrays.toString(keys));
            assertArrayEquals(expected[1], mergedValues, () -> "stable on " + Arrays.toString(keys));
            assertArrayEquals(Arrays.copyOfRange(keys, 0, from), Arrays.copyOfRange(data[0], 0, from));
        }
        assertTrue(deferredRuns > 300, "the outliers of many runs are handed over: " + deferredRuns);
    }

    /**
     * The greedy pass sets aside exactly the displaced keys of a long run whose ascending stretches it keeps whole:
     * a key that arrived early, just before a descent, is seen as early (its stretch is not kept with it), so the
     * keys after it stay kept rather than all turning late.
     */
    @Test
    void klAdaptiveSortSetsAsideExactlyTheDisplacedKeysOfLongStretches() {
        final int n = 20_000;
        final long[] keys = new long[n];
        int displaced = 0;
        for (int i = 0; i < n; i++) {
            keys[i] = 10L * i;
            if (i % 997 == 500) {
                keys[i] = 10L * (i + 400) + 5; // early: belongs 400 positions later
                displaced++;
            } else if (i % 997 == 800) {
                keys[i] = 10L * (i - 600) + 5; // late: belongs 600 positions earlier
                displaced++;
            }
        }
        final long[][] data = withArrivalValues(keys);
        final SortedOutliers outliers = new SortedOutliers();
        assertEquals(KLAdaptiveSort.Outcome.ADAPTIVE,
                new KLAdaptiveSort().sort(data[0], data[1], 0, n, 2 * displaced, n, outliers));
        assertEquals(displaced, outliers.count(), "outliers");
        for (int i = 1; i < n - outliers.count(); i++) {
            assertTrue(data[0][i - 1] <= data[0][i], "the kept run ascends at " + i);
        }
    }

    @Test
    void klAdaptiveSortOnSubRangesLeavesTheRestAlone() {
        final long[] keys = {9, 9, 5, 4, 3, 2, 1, 0, 0};
        final long[] values = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        new KLAdaptiveSort().sort(keys, values, 2, 7, 5, 5);
        assertArrayEquals(new long[] {9, 9, 1, 2, 3, 4, 5, 0, 0}, keys);
        assertArrayEquals(new long[] {0, 1, 6, 5, 4, 3, 2, 7, 8}, values);
        assertThrows(IllegalArgumentException.class, () -> new KLAdaptiveSort().sort(keys, values, 0, 1, -1, 0));
    }

    @Test
    void theChooserFollowsSwareIVC() {
        final AdaptiveSorter sorter = new AdaptiveSorter();
        assertTrue(sorter.prefersAdaptive(1000, 199, 900), "K < 20%");
        assertTrue(sorter.prefersAdaptive(1000, 900, 49), "L < 5%");
        assertFalse(sorter.prefersAdaptive(1000, 200, 50), "K >= 20% and L >= 5%");
        // Small buffers: thresholds are fractions, not integer divisions that round to zero.
        assertTrue(sorter.prefersAdaptive(10, 1, 9));
        final AdaptiveSorter osm = new AdaptiveSorter(0.10, 0.05);
        assertFalse(osm.prefersAdaptive(1000, 150, 60));
        assertThrows(IllegalArgumentException.class, () -> new AdaptiveSorter(1.5, 0.05));
        assertThrows(IllegalArgumentException.class, () -> new AdaptiveSorter(0.2, Double.NaN));

        final long[] near = KLGenerator.generate(10_000, 2, 1, 3);
        final long[][] a = withArrivalValues(near);
        assertEquals(AdaptiveSorter.Algorithm.KL_ADAPTIVE, sorter.sort(a[0], a[1], 0, near.length, 200, 100));
        final long[] scrambled = KLGenerator.workload(10_000).scrambled(true).seed(3).generate();
        final long[][] b = withArrivalValues(scrambled);
        // Keys 1..10,000 span two bytes: radix passes; arbitrary longs span eight: merge sort.
        assertEquals(AdaptiveSorter.Algorithm.RADIX_SORT, sorter.sort(b[0], b[1], 0, 10_000, 10_000, 10_000));
        final long[][] wide = withArrivalValues(new java.util.SplittableRandom(5).longs(10_000).toArray());
        final long[] wideSorted = wide[0].clone();
        java.util.Arrays.sort(wideSorted);
        assertEquals(AdaptiveSorter.Algorithm.MERGE_SORT, sorter.sort(wide[0], wide[1], 0, 10_000, 10_000, 10_000));
        assertArrayEquals(wideSorted, wide[0]);
        final long[][] c = withArrivalValues(scrambled);
        assertEquals(AdaptiveSorter.Algorithm.KL_ADAPTIVE_FELL_BACK, sorter.sort(c[0], c[1], 0, 10_000, 10, 10));
        assertArrayEquals(b[0], c[0]);
        assertEquals(1, sorter.adaptiveSorts());
        assertEquals(1, sorter.mergeSorts());
        assertEquals(1, sorter.radixSorts());
        assertEquals(1, sorter.fallbacks());
    }

    @Test
    void orderIsLexicographicAndStableAgainstABoxedSort() {
        final SplittableRandom rnd = new SplittableRandom(12);
        for (int round = 0; round < 200; round++) {
            final int n = rnd.nextInt(300);
            final long[] primary = new long[n + 3];
            final long[] secondary = new long[n + 3];
            for (int i = 0; i < primary.length; i++) {
                primary[i] = rnd.nextInt(4) == 0 ? Long.MIN_VALUE + rnd.nextInt(3) : rnd.nextInt(20);
                secondary[i] = rnd.nextInt(4) == 0 ? Long.MAX_VALUE - rnd.nextInt(3) : rnd.nextInt(5);
            }
            final Integer[] expected = new Integer[n];
            for (int i = 0; i < n; i++) {
                expected[i] = i;
            }
            Arrays.sort(expected, Comparator.<Integer>comparingLong(i -> primary[i])
                    .thenComparingLong(i -> secondary[i]).thenComparingInt(i -> i));
            assertArrayEquals(Arrays.stream(expected).mapToInt(Integer::intValue).toArray(),
                    StableMergeSort.order(primary, secondary, n));
        }
        assertThrows(IndexOutOfBoundsException.class, () -> StableMergeSort.order(new long[2], new long[1], 2));
    }
}
