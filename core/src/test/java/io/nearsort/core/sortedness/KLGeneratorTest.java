package io.nearsort.core.sortedness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KLGeneratorTest {
    private static final int N = 200_000;

    /** The benchmark grid of OSM-tree §5 (K > 0 and L > 0). */
    static Stream<Arguments> grid() {
        final double[] ks = {1, 5, 10, 15, 25, 50};
        final double[] ls = {1, 5, 10, 25, 50};
        return Arrays.stream(ks).boxed().flatMap(k -> Arrays.stream(ls).mapToObj(l -> Arguments.of(k, l)));
    }

    @ParameterizedTest(name = "K={0}% L={1}%")
    @MethodSource("grid")
    void measuredSortednessMatchesTheRequest(final double k, final double l) {
        final long[] keys = KLGenerator.generate(N, k, l, 1234);
        final SortednessReport report = Sortedness.measure(keys);
        assertEquals(N, report.n());
        assertEquals((long) Math.floor(N * l / 100), report.l(), "L is reached exactly");
        final double requested = N * k / 100;
        assertEquals(requested, report.k(), 0.15 * requested, "K within 15%");
        assertEquals(0, report.duplicates());
        final long[] sorted = keys.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < N; i++) {
            assertEquals(i + 1, sorted[i], "a permutation of 1..n");
        }
    }

    @Test
    void zeroKOrZeroLIsSorted() {
        assertTrue(Sortedness.measure(KLGenerator.generate(1000, 0, 50, 1)).isSorted());
        assertTrue(Sortedness.measure(KLGenerator.generate(1000, 50, 0, 1)).isSorted());
        assertEquals(0, KLGenerator.generate(0, 10, 10, 1).length);
        assertArrayEquals(new long[] {1}, KLGenerator.generate(1, 100, 100, 1));
    }

    @Test
    void reproducibleFromTheSeed() {
        assertArrayEquals(KLGenerator.generate(50_000, 10, 5, 9), KLGenerator.generate(50_000, 10, 5, 9));
        assertFalse(Arrays.equals(KLGenerator.generate(50_000, 10, 5, 9), KLGenerator.generate(50_000, 10, 5, 10)));
        assertArrayEquals(KLGenerator.workload(1000).scrambled(true).seed(4).generate(),
                KLGenerator.workload(1000).scrambled(true).seed(4).generate());
    }

    @Test
    void gapsAndScrambledMode() {
        final long[] fixed = KLGenerator.workload(1000).fixedGaps(10).generate();
        for (int i = 0; i < fixed.length; i++) {
            assertEquals(1 + 10L * i, fixed[i]);
        }
        final long[] random = KLGenerator.workload(10_000).randomGaps(100).seed(3).generate();
        for (int i = 1; i < random.length; i++) {
            final long gap = random[i] - random[i - 1];
            assertTrue(gap >= 1 && gap <= 100, "gap " + gap);
        }
        final long[] scrambled = KLGenerator.workload(100_000).scrambled(true).seed(5).generate();
        final SortednessReport report = Sortedness.measure(scrambled);
        assertTrue(report.kFraction() > 0.99, report.toString());
        assertTrue(report.lFraction() > 0.9, report.toString());
        final long[] sorted = scrambled.clone();
        Arrays.sort(sorted);
        assertEquals(1, sorted[0]);
        assertEquals(100_000, sorted[99_999]);
    }

    @Test
    void rejectsBadParametersNamingThem() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KLGenerator.generate(-1, 1, 1, 1))
                .getMessage().contains("n must be"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KLGenerator.generate(10, 101, 1, 1))
                .getMessage().contains("kPercent"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KLGenerator.generate(10, 1, -1, 1))
                .getMessage().contains("lPercent"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KLGenerator.workload(10).randomGaps(0))
                .getMessage().contains("gap"));
    }

    @ParameterizedTest(name = "D={0}% of n")
    @org.junit.jupiter.params.provider.ValueSource(doubles = {0.1, 0.5, 1})
    void lateEventsStayWithinTheirDelayAndAreMostlyOutOfPlace(final double d) {
        final long[] keys = KLGenerator.workload(N).lateEvents(d).seed(99).generate();
        final int maxDelay = (int) Math.floor(N * d / 100);
        for (int p = 0; p < N; p++) {
            final long sortedPosition = keys[p] - 1; // keys are 1..n
            assertTrue(Math.abs(p - sortedPosition) < maxDelay,
                    "key " + keys[p] + " at position " + p + " is at least D=" + maxDelay + " from its place");
        }
        final long[] sorted = keys.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < N; i++) {
            assertEquals(i + 1, sorted[i], "a permutation of 1..n");
        }
        final SortednessReport report = Sortedness.measure(keys);
        assertTrue(report.l() < maxDelay, "L below D: " + report);
        assertTrue(report.l() > maxDelay / 2, "L close to D: " + report);
        assertTrue(report.kFraction() > 0.5, "K near 100%: " + report);
        assertArrayEquals(keys, KLGenerator.workload(N).lateEvents(d).seed(99).generate(), "reproducible");
    }

    @Test
    void lateEventsArriveByArrivalTimeWithTiesInKeyOrder() {
        // Small enough to check against a direct model: sort (arrival, index) pairs.
        final int n = 1_000;
        final long[] keys = KLGenerator.workload(n).lateEvents(5).seed(3).generate();
        final SplittableRandom random = new SplittableRandom(3);
        final long[][] arrivals = new long[n][];
        for (int i = 0; i < n; i++) {
            arrivals[i] = new long[] {i + random.nextInt(50), i + 1};
        }
        Arrays.sort(arrivals, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        for (int p = 0; p < n; p++) {
            assertEquals(arrivals[p][1], keys[p], "position " + p);
        }
    }

    /**
     * The generator's free-position index gives exactly the keys of its first version, which scanned for free
     * positions one by one ({@link #scanningGenerator}): same seeds, same streams, so benchmark cells stay
     * comparable across versions. Crowded windows (K = 100%) and the wrap-around at both ends included.
     */
    @Test
    void sameKeysAsTheScanningGenerator() {
        for (final int n : new int[] {1, 2, 3, 10, 97, 1_000, 20_000}) {
            for (final double k : new double[] {0.5, 5, 25, 50, 100}) {
                for (final double l : new double[] {0.1, 1, 5, 50, 100}) {
                    for (long seed = 1; seed <= (n <= 1_000 ? 40 : 2); seed++) {
                        assertArrayEquals(scanningGenerator(n, k, l, seed), KLGenerator.generate(n, k, l, seed),
                                "n=" + n + " K=" + k + " L=" + l + " seed=" + seed);
                    }
                }
            }
        }
    }

    /** The K/L generation of the generator's first version (keys 1..n), a position-by-position model. */
    private static long[] scanningGenerator(final int n, final double k, final double l, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = i + 1;
        }
        final int swaps = (int) Math.floor(n * k / 200.0);
        final int maxDistance = (int) Math.min(n - 1L, (long) Math.floor(n * l / 100.0));
        if (swaps == 0 || maxDistance <= 0) {
            return keys;
        }
        final boolean[] used = new boolean[n];
        final int first = random.nextInt(n - maxDistance);
        swapAndMark(keys, used, first, first + maxDistance);
        for (int s = 1; s < swaps; s++) {
            final int start = random.nextInt(n);
            int source = -1;
            for (int i = 0; i < n && source < 0; i++) {
                final int p = (start + i) % n;
                source = used[p] ? -1 : p;
            }
            if (source < 0) {
                break;
            }
            final int lo = Math.max(0, source - maxDistance);
            final int hi = Math.min(n - 1, source + maxDistance);
            int partner = -1;
            for (int attempt = 0; attempt < 32 && partner < 0; attempt++) {
                final int p = lo + random.nextInt(hi - lo + 1);
                partner = p != source && !used[p] ? p : -1;
            }
            if (partner < 0) {
                final int width = hi - lo + 1;
                final int from = random.nextInt(width);
                for (int i = 0; i < width && partner < 0; i++) {
                    final int p = lo + (from + i) % width;
                    partner = p != source && !used[p] ? p : -1;
                }
            }
            if (partner >= 0) {
                swapAndMark(keys, used, source, partner);
            } else {
                used[source] = true;
            }
        }
        return keys;
    }

    private static void swapAndMark(final long[] keys, final boolean[] used, final int a, final int b) {
        final long t = keys[a];
        keys[a] = keys[b];
        keys[b] = t;
        used[a] = true;
        used[b] = true;
    }

    @Test
    void lateEventsWithADelayOfAtMostOneAreSorted() {
        final long[] keys = KLGenerator.workload(500).lateEvents(0.1).seed(1).generate(); // D = 0
        assertTrue(Sortedness.measure(keys).isSorted());
        assertTrue(Sortedness.measure(KLGenerator.workload(1000).lateEvents(0.1).generate()).isSorted()); // D = 1
    }

    @Test
    void lateEventsRejectOtherShapesAndBadDelays() {
        assertThrows(IllegalStateException.class, () -> KLGenerator.workload(100).kPercent(5).lateEvents(1).generate());
        assertThrows(IllegalStateException.class, () -> KLGenerator.workload(100).lPercent(5).lateEvents(1).generate());
        assertThrows(IllegalStateException.class,
                () -> KLGenerator.workload(100).scrambled(true).lateEvents(1).generate());
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KLGenerator.workload(100).lateEvents(-1));
        assertTrue(e.getMessage().contains("dPercent"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> KLGenerator.workload(100).lateEvents(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> KLGenerator.workload(100).lateEvents(101));
    }
}
