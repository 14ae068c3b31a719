package io.nearsort.ldi.bucketing;

import io.nearsort.core.sortedness.KLGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every tuple comes out exactly once, in buckets of exactly n until finish(), on many shapes of input. */
class BucketizerPropertyTest {

    @ParameterizedTest(name = "n={0} B={1} bucket={2} window={3} shape={4} seed={5}")
    @CsvSource({
        "20000, 64, 8, 512, uniform, 1",
        "20000, 256, 16, 1000, skewed, 2",
        "20000, 256, 16, 300, drifting, 3",
        "20000, 16, 16, 64, drifting, 4",
        "5000, 1, 1, 7, uniform, 5",
        "30000, 1024, 32, 4096, nearSorted, 6",
        "10000, 100, 3, 50, extremes, 7",
    })
    void everyTupleWrittenOnceInFullBuckets(final int n, final int buffer, final int bucket, final int window,
                                            final String shape, final long seed) {
        final long[] keys = keys(shape, n, seed);
        final List<Bucket> written = new ArrayList<>();
        final Bucketizer b = Bucketizer.builder()
                .trainingPrefix(Math.max(1, n / 10)).fanout(8)
                .bufferCapacity(buffer).bucketCapacity(bucket).windowSize(window)
                .onBucket(written::add)
                .build();
        for (int i = 0; i < n; i++) {
            b.add(keys[i], i);
            assertTrue(b.stats().buffered() <= Math.max(buffer, n / 10), "buffer bound");
        }
        final int beforeFinish = written.size();
        b.finish();
        final boolean[] seen = new boolean[n];
        for (int i = 0; i < written.size(); i++) {
            final Bucket bk = written.get(i);
            assertEquals(i, bk.sequence());
            if (i < beforeFinish) {
                assertEquals(bucket, bk.size(), "bucket " + i + " written before finish()");
            } else {
                assertTrue(bk.size() <= bucket);
            }
            for (int j = 0; j < bk.size(); j++) {
                final int row = (int) bk.rowRef(j);
                assertEquals(keys[row], bk.key(j), "row reference carries its key");
                assertTrue(!seen[row], "row " + row + " written twice");
                seen[row] = true;
                assertTrue(bk.key(j) >= bk.low() && bk.key(j) <= bk.high());
            }
            if (bk.compacted()) {
                assertTrue(bk.low() >= bk.intervalLow() && bk.high() <= bk.intervalHigh(),
                        "compacted bucket " + bk + " inside its interval");
            }
        }
        for (int i = 0; i < n; i++) {
            assertTrue(seen[i], "row " + i + " never written");
        }
        final BucketizerStats s = b.stats();
        assertEquals(n, s.tuples());
        assertEquals(0, s.buffered());
        assertEquals(written.size(), s.buckets());
        assertEquals(s.buckets(), s.compactedBuckets() + s.nonCompactedBuckets());
        if (shape.equals("drifting")) {
            assertTrue(s.splits() > 0, "a drifting distribution splits intervals: " + s);
            assertTrue(s.merges() > 0, "a drifting distribution merges intervals: " + s);
        }
        assertThrows(IllegalStateException.class, () -> b.add(1, 1));
    }

    @Test
    void sortedInputGivesCompactedBucketsWithPerfectArb() {
        final List<Bucket> written = new ArrayList<>();
        final Bucketizer b = Bucketizer.builder().trainingPrefix(2000).fanout(16).bufferCapacity(512)
                .bucketCapacity(32).onBucket(written::add).build();
        for (int i = 0; i < 20000; i++) {
            b.add(i * 3L, i);
        }
        b.finish();
        final List<long[]> keys = new ArrayList<>();
        for (Bucket bk : written) {
            keys.add(bk.keys());
        }
        assertEquals(1.0, Arb.of(keys), 0.05);
    }

    @Test
    void builderRejectsBadConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> Bucketizer.builder().initialBoundaries(3, 3));
        assertThrows(IllegalArgumentException.class, () -> Bucketizer.builder().initialBoundaries(1));
        assertThrows(IllegalArgumentException.class, () -> Bucketizer.builder().bucketCapacity(0));
        assertThrows(IllegalArgumentException.class, () -> Bucketizer.builder().driftThresholds(1.0, 0.3));
        assertThrows(IllegalArgumentException.class, () -> Bucketizer.builder().driftThresholds(2.0, 1.0));
        assertThrows(IllegalArgumentException.class, () -> Bucketizer.builder().fanout(1));
        assertThrows(IllegalStateException.class, () -> Bucketizer.builder().build());
        assertThrows(IllegalStateException.class,
                () -> Bucketizer.builder().initialBoundaries(1, 5).trainingPrefix(4).build());
        assertThrows(IllegalStateException.class,
                () -> Bucketizer.builder().initialBoundaries(1, 5).bufferCapacity(2).bucketCapacity(3).build());
        assertThrows(IllegalStateException.class,
                () -> Bucketizer.builder().initialBoundaries(1, 5, 9).initialLoads(1, 2, 3).build());
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bucketizer.builder().bufferCapacity(-4));
        assertTrue(e.getMessage().contains("bufferCapacity"), e.getMessage());
    }

    @Test
    void finishBeforeTrainingCompletesTrainsOnWhatArrived() {
        final List<Bucket> written = new ArrayList<>();
        final Bucketizer b = Bucketizer.builder().trainingPrefix(1000).bufferCapacity(8).bucketCapacity(4)
                .onBucket(written::add).build();
        final long[] keys = {Long.MAX_VALUE, Long.MIN_VALUE, 0, 5, 5, 5, -7};
        for (int i = 0; i < keys.length; i++) {
            b.add(keys[i], i);
        }
        assertEquals(0, b.stats().intervals());
        b.finish();
        long[] all = new long[0];
        for (Bucket bk : written) {
            final long[] k = bk.keys();
            final int from = all.length;
            all = Arrays.copyOf(all, from + k.length);
            System.arraycopy(k, 0, all, from, k.length);
        }
        Arrays.sort(all);
        final long[] expected = keys.clone();
        Arrays.sort(expected);
        assertArrayEquals(expected, all);
    }

    static long[] keys(final String shape, final int n, final long seed) {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final long[] keys = new long[n];
        switch (shape) {
            case "uniform" -> {
                for (int i = 0; i < n; i++) {
                    keys[i] = rnd.nextLong(1_000_000);
                }
            }
            case "skewed" -> {
                for (int i = 0; i < n; i++) {
                    final double u = rnd.nextDouble();
                    keys[i] = (long) (1_000_000 * u * u * u);
                }
            }
            case "drifting" -> {
                // A hot spot that moves across the key space: intervals must split where it is and merge behind.
                for (int i = 0; i < n; i++) {
                    final long centre = 10_000L + (long) i * 100;
                    keys[i] = rnd.nextInt(10) == 0 ? rnd.nextLong(3_000_000)
                            : centre + (long) (rnd.nextGaussian() * 2_000);
                }
            }
            case "nearSorted" -> {
                System.arraycopy(KLGenerator.generate(n, 5, 5, seed), 0, keys, 0, n);
            }
            case "extremes" -> {
                final long[] pool = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1,
                    Long.MAX_VALUE};
                for (int i = 0; i < n; i++) {
                    keys[i] = rnd.nextInt(3) == 0 ? pool[rnd.nextInt(pool.length)] : rnd.nextLong();
                }
            }
            default -> throw new IllegalArgumentException(shape);
        }
        return keys;
    }
}
