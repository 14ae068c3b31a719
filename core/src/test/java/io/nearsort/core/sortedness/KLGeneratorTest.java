package io.nearsort.core.sortedness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
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
}
