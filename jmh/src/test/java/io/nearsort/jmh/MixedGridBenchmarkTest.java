package io.nearsort.jmh;

import io.nearsort.core.sortedness.Sortedness;
import io.nearsort.core.sortedness.SortednessReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Fig. 20's grid cells generate the sortedness they name, and the mixed workload runs on the Bε-trees. */
class MixedGridBenchmarkTest {

    @Test
    void cellsGenerateTheSortednessTheyName() {
        final int n = 100_000;
        assertArrayEquals(LongStream.rangeClosed(1, n).toArray(), MixedGridBenchmark.keys("SORTED", n));
        final long[] scrambled = MixedGridBenchmark.keys("SCRAMBLED", n);
        assertArrayEquals(LongStream.rangeClosed(1, n).toArray(), Arrays.stream(scrambled).sorted().toArray());
        assertTrue(Sortedness.measure(scrambled).kFraction() > 0.99);
        final SortednessReport cell = Sortedness.measure(MixedGridBenchmark.keys("K10_L5", n));
        assertEquals(0.10, cell.kFraction(), 0.01);
        assertEquals(0.05, cell.lFraction(), 0.001);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MixedGridBenchmark.keys("K10", n));
        assertTrue(e.getMessage().contains("sortedness") && e.getMessage().contains("K10"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"BETREE, K5_L5, 50, 4096", "SA_BETREE, SORTED, 90, 8192", "SA_BETREE, SCRAMBLED, 10, 512",
        "BPLUS, K100_L50, 30, 4096"})
    void everyLookupOfTheMixFindsItsKey(final String structure, final String sortedness, final int readPercent,
                                        final int pageSize) {
        final MixedGridBenchmark benchmark = cell(structure, sortedness, readPercent, pageSize);
        long expectedSum = 0;
        for (final long op : benchmark.operations) {
            if (op < 0) {
                expectedSum += benchmark.keys[(int) ~op];
            }
        }
        benchmark.preload();
        assertEquals(expectedSum, benchmark.mixed(), "every lookup finds its key (value = key)");
        benchmark.close(); // checks that the structure holds n entries
    }

    /** {@code pageSize} reaches the trees: with 512-byte nodes the same keys fill many more leaves than with 8 KiB. */
    @Test
    void thePageSizeReachesTheTrees() {
        for (final String structure : new String[] {"BETREE", "SA_BETREE_ST", "BPLUS", "SA_BPLUS"}) {
            final long[] leaves = new long[2];
            final int[] pageSizes = {512, 8192};
            for (int i = 0; i < pageSizes.length; i++) {
                final MixedGridBenchmark benchmark = cell(structure, "K5_L5", 50, pageSizes[i]);
                benchmark.preload();
                benchmark.mixed();
                leaves[i] = benchmark.target().stats().leafCount();
                benchmark.close();
            }
            assertTrue(leaves[0] > 4 * leaves[1], structure + ": " + Arrays.toString(leaves));
        }
    }

    private static MixedGridBenchmark cell(final String structure, final String sortedness, final int readPercent,
                                           final int pageSize) {
        final MixedGridBenchmark benchmark = new MixedGridBenchmark();
        benchmark.n = 20_000;
        benchmark.sortedness = sortedness;
        benchmark.readPercent = readPercent;
        benchmark.structure = structure;
        benchmark.batch = "1";
        benchmark.pageSize = pageSize;
        benchmark.generate();
        return benchmark;
    }
}
