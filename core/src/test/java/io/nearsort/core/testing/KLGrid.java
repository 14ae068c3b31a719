package io.nearsort.core.testing;

import io.nearsort.core.LongIndex;
import io.nearsort.core.sortedness.KLGenerator;

import java.util.Arrays;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The data-sortedness benchmark's grid (OSM-tree §5) as test cases, and the checks the trees run on each cell. */
public final class KLGrid {
    /** K in % of n. */
    public static final double[] K = {0, 1, 5, 10, 15, 25, 50};
    /** L in % of n. */
    public static final double[] L = {1, 5, 10, 25, 50};

    private KLGrid() {
    }

    /** Every cell as {K, L, scrambled}: the grid's 35, then one scrambled cell. */
    public static Stream<double[]> cells() {
        final Stream<double[]> nearSorted = Arrays.stream(K).boxed()
                .flatMap(k -> Arrays.stream(L).mapToObj(l -> new double[] {k, l, 0}));
        return Stream.concat(nearSorted, Stream.of(new double[] {0, 0, 1}));
    }

    /** The cell's keys: {@code n} of them, random gaps of up to {@code gap}, the given seed. */
    public static long[] keys(final int n, final double k, final double l, final boolean scrambled, final int gap,
                              final long seed) {
        return KLGenerator.workload(n).kPercent(k).lPercent(l).scrambled(scrambled).randomGaps(gap).seed(seed)
                .generate();
    }

    /**
     * Writes {@code keys} to {@code index} as a stream with late overwrites (every 7th key rewrites an older one),
     * checks the content, deletes every third key, checks content, size and point reads, and returns the oracle.
     */
    public static TreeMap<Long, Long> ingestOverwriteAndDelete(final LongIndex index, final long[] keys) {
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        final int n = keys.length;
        for (int i = 0; i < n; i++) {
            index.put(keys[i], i);
            oracle.put(keys[i], (long) i);
            if (i % 7 == 0) {
                index.put(keys[i / 2], -i); // overwrite an older key
                oracle.put(keys[i / 2], (long) -i);
            }
        }
        assertEquals(oracle, index.asNavigableMap());
        for (int i = 0; i < n; i += 3) {
            index.remove(keys[i]);
            oracle.remove(keys[i]);
        }
        assertEquals(oracle.size(), index.size());
        assertEquals(oracle, index.asNavigableMap());
        for (int i = 0; i < n; i += 11) {
            final Long expected = oracle.get(keys[i]);
            assertEquals(expected == null ? -1 : expected, index.getOrDefault(keys[i], -1));
        }
        return oracle;
    }
}
