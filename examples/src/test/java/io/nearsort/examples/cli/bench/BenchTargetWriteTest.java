package io.nearsort.examples.cli.bench;

import io.nearsort.core.sortedness.KLGenerator;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link BenchTarget#write}: one {@code put} per record, {@code putAll} batches of any size and the bulk load leave
 * every structure holding exactly what a {@link TreeMap} replay of the writes holds (issue 17).
 */
class BenchTargetWriteTest {
    private static final int[] BATCHES = {1, 2, 7, 500, 4_096, BenchPlan.BULK_LOAD};

    @Test
    void everyStructureHoldsTheSameContentInEveryIngestMode() {
        final long[][] streams = {
            KLGenerator.workload(12_000).lateEvents(0.5).seed(3).generate(),
            KLGenerator.generate(12_000, 5, 5, 3),
            KLGenerator.workload(12_000).scrambled(true).seed(3).generate(),
            withDuplicatesAndExtremes(12_000, 3)};
        for (final long[] keys : streams) {
            final long[] values = new long[keys.length];
            final TreeMap<Long, Long> oracle = new TreeMap<>();
            for (int i = 0; i < keys.length; i++) {
                values[i] = i;
                oracle.put(keys[i], (long) i);
            }
            for (final BenchStructure structure : BenchStructure.values()) {
                for (final int batch : BATCHES) {
                    try (BenchTarget target = structure.create(100)) {
                        target.write(keys, values, batch);
                        target.finish();
                        assertSame(oracle, target, structure.cliName() + " --batch " + batch);
                    }
                }
            }
        }
    }

    @Test
    void aRangeIsWrittenInSlicesOfTheBatch() {
        final long[] keys = KLGenerator.generate(1_000, 10, 10, 8);
        final long[] values = keys.clone();
        for (final int batch : BATCHES) {
            try (BenchTarget target = BenchStructure.SA_BPLUS_SW.create(16)) {
                target.write(keys, values, 100, 733, batch);
                target.finish();
                final TreeMap<Long, Long> oracle = new TreeMap<>();
                for (int i = 100; i < 733; i++) {
                    oracle.put(keys[i], values[i]);
                }
                assertSame(oracle, target, "--batch " + batch);
            }
        }
        try (BenchTarget target = BenchStructure.BPLUS.create(1)) {
            target.write(new long[0], new long[0], 500);
            assertEquals(0, target.size());
            assertThrows(IllegalArgumentException.class, () -> target.write(keys, values, 0));
        }
    }

    /** {@code --flush-fraction}: the SA trees' flush cycles send that share of the buffer (whole zones) to the tree. */
    @Test
    void theFlushFractionReachesTheSwareBuffer() {
        final long[] keys = KLGenerator.workload(10_001).scrambled(true).seed(5).generate();
        for (final BenchStructure structure : new BenchStructure[] {BenchStructure.SA_BPLUS, BenchStructure.SA_BPLUS_SW,
            BenchStructure.SA_BPLUS_ST, BenchStructure.SA_BETREE, BenchStructure.SA_BETREE_SW,
            BenchStructure.SA_BETREE_ST}) {
            for (final double fraction : new double[] {Double.NaN, 0.75, 1.0}) {
                try (BenchTarget target = structure.create(10_000, fraction)) {
                    target.write(keys, keys, 1); // the last put finds the buffer full: one flush cycle
                    final long zone = target.stats().counter("zoneSize");
                    final double share = Double.isNaN(fraction) ? 0.5 : fraction;
                    assertEquals(1, target.stats().counter("bufferFlushes"), structure.cliName());
                    assertEquals((long) (share * 10_000) / zone * zone, target.stats().counter("flushedEntries"),
                            structure.cliName() + " --flush-fraction " + fraction);
                }
            }
        }
    }

    /**
     * {@code --page-size}: every tree's nodes take that many bytes (smaller nodes, more leaves for the same keys),
     * and the content is the same; the JDK maps have no nodes to size.
     */
    @Test
    void thePageSizeReachesEveryTree() {
        final long[] keys = KLGenerator.generate(12_000, 5, 5, 4);
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        for (final long key : keys) {
            oracle.put(key, key);
        }
        for (final BenchStructure structure : BenchStructure.values()) {
            final long[] leaves = new long[2];
            final int[] pageSizes = {512, 8192};
            for (int i = 0; i < pageSizes.length; i++) {
                try (BenchTarget target = structure.create(100, Double.NaN, pageSizes[i])) {
                    target.write(keys, keys, 1);
                    target.finish();
                    assertSame(oracle, target, structure.cliName() + " --page-size " + pageSizes[i]);
                    leaves[i] = target.stats() == null ? 0 : target.stats().leafCount(); // a JDK map: none
                }
            }
            final boolean jdkMap = structure == BenchStructure.TREEMAP || structure == BenchStructure.SKIPLIST;
            assertEquals(!jdkMap, leaves[0] > 4 * leaves[1], structure.cliName() + ": leaves with 512-byte and "
                    + "8 KiB nodes: " + leaves[0] + ", " + leaves[1]);
        }
        assertThrows(IllegalArgumentException.class, () -> BenchStructure.BPLUS.create(1, Double.NaN, 3000));
    }

    private static void assertSame(final TreeMap<Long, Long> oracle, final BenchTarget target, final String who) {
        assertEquals(oracle.size(), target.size(), who);
        for (final Map.Entry<Long, Long> entry : oracle.entrySet()) {
            assertEquals(entry.getValue().longValue(), target.get(entry.getKey(), Long.MIN_VALUE + 1), who);
        }
        final long[] visit = new long[2];
        target.scan(Long.MIN_VALUE, Long.MAX_VALUE, visit);
        long sum = 0;
        for (final long value : oracle.values()) {
            sum += value;
        }
        assertEquals(oracle.size(), visit[0], who + ": full scan count");
        assertEquals(sum, visit[1], who + ": full scan sum");
    }

    private static long[] withDuplicatesAndExtremes(final int n, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            // Ascending with repeats, a few late keys and the extremes: runs, overwrites and sentinel-like keys.
            keys[i] = random.nextInt(50) == 0 ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE)
                    : random.nextInt(10) == 0 ? i / 2 - random.nextInt(200) : i / 2;
        }
        return keys;
    }
}
