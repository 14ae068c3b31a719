package io.nearsort.core.sware;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.function.LongUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The register-blocked Bloom filter of the SWARE buffer (§IV-B): no false negatives, the model's rate. */
class BloomFilterTest {
    private static final int ENTRIES = 100_000;

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 8, 10, 11, 12, 20, 64})
    void everyAddedKeyIsReported(final int bitsPerEntry) {
        final BloomFilter filter = new BloomFilter(ENTRIES, bitsPerEntry);
        final SplittableRandom random = new SplittableRandom(bitsPerEntry);
        final long[] keys = new long[ENTRIES];
        for (int i = 0; i < ENTRIES; i++) {
            keys[i] = i < 4 ? new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1}[i] : random.nextLong();
            filter.add(BloomFilter.hash(keys[i]));
        }
        for (final long key : keys) {
            assertTrue(filter.mightContain(BloomFilter.hash(key)), () -> "false negative for " + key);
        }
    }

    /** Sequential keys, the shape of row ids and in-order timestamps, at the sizes a user may pick. */
    @ParameterizedTest
    @ValueSource(ints = {4, 8, 10, 12, 16, 20})
    void falsePositiveRateIsTheModels(final int bitsPerEntry) {
        final double model = modelRate(bitsPerEntry, BloomFilter.probesFor(bitsPerEntry));
        final double measured = falsePositiveRate(bitsPerEntry, k -> k);
        assertEquals(model, measured, 0.25 * model + 0.0003, () -> bitsPerEntry + " bits per entry");
    }

    @Test
    void tenBitsPerEntryGiveUnderTwoPercentFalsePositives() {
        assertEquals(0.0171, modelRate(10, BloomFilter.probesFor(10)), 0.0005); // the Javadoc's figure
        assertEquals(0.0098, modelRate(12, BloomFilter.probesFor(12)), 0.0005);
        final double ten = falsePositiveRate(10, k -> k);
        assertTrue(ten < 0.02, () -> "10 bits per entry: " + ten);
    }

    @Test
    void moreBitsGiveFewerFalsePositives() {
        final double four = falsePositiveRate(4, k -> k);
        final double ten = falsePositiveRate(10, k -> k);
        final double twenty = falsePositiveRate(20, k -> k);
        assertTrue(four > ten && ten > twenty, () -> four + " > " + ten + " > " + twenty);
        assertTrue(four < 0.2, () -> "4 bits per entry: " + four); // the model: 0.159
        assertTrue(twenty < 0.0025, () -> "20 bits per entry: " + twenty); // the model: 0.0017
    }

    /**
     * Keys whose low bits never vary (a partition in the high half, multiples of 10^6 as nanosecond timestamps of
     * whole milliseconds, powers-of-two strides) must spread as well as sequential keys: the hash folds the high
     * half into the low before the multiply, and the pattern index sees the product's high half too.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3})
    void structuredKeysSpreadLikeSequentialOnes(final int shape) {
        final LongUnaryOperator key = switch (shape) {
            case 0 -> k -> k << 32;
            case 1 -> k -> 1_700_000_000_000_000_000L + k * 1_000_000L;
            case 2 -> k -> k << 40 | 7;
            default -> k -> (k % 1_000) << 32 | (k / 1_000);
        };
        final double model = modelRate(10, BloomFilter.probesFor(10));
        final double measured = falsePositiveRate(10, key);
        assertEquals(model, measured, 0.25 * model, () -> "shape " + shape);
    }

    @Test
    void clearForgetsEverythingEveryTime() {
        final BloomFilter filter = new BloomFilter(1_000, 10);
        filter.clear(); // nothing added: a clear with nothing to do must not stop later ones
        for (int round = 0; round < 3; round++) {
            for (long k = round * 1_000L; k < (round + 1) * 1_000L; k++) {
                filter.add(BloomFilter.hash(k));
                assertTrue(filter.mightContain(BloomFilter.hash(k)));
            }
            filter.clear();
            filter.clear();
            for (long k = 0; k < 3_000; k++) {
                assertFalse(filter.mightContain(BloomFilter.hash(k)), "round " + round + ", key " + k);
            }
        }
    }

    @Test
    void probeCountsAreNearTheOptimumForOneWord() {
        final int[][] expected = {{1, 1}, {4, 2}, {8, 4}, {10, 5}, {12, 6}, {16, 6}, {20, 7}, {32, 9}, {64, 10}};
        for (final int[] e : expected) {
            assertEquals(e[1], BloomFilter.probesFor(e[0]), () -> e[0] + " bits per entry");
            assertEquals(e[1], new BloomFilter(10, e[0]).probes());
        }
    }

    /**
     * Fraction of 10^6 keys never added that a filter of {@link #ENTRIES} keys reports: keys {@code key(0)} to
     * {@code key(ENTRIES - 1)} added, {@code key(ENTRIES)} onwards probed.
     */
    private static double falsePositiveRate(final int bitsPerEntry, final LongUnaryOperator key) {
        final BloomFilter filter = new BloomFilter(ENTRIES, bitsPerEntry);
        for (long k = 0; k < ENTRIES; k++) {
            filter.add(BloomFilter.hash(key.applyAsLong(k)));
        }
        int positives = 0;
        final int probes = 1_000_000;
        for (long k = ENTRIES; k < ENTRIES + probes; k++) {
            if (filter.mightContain(BloomFilter.hash(key.applyAsLong(k)))) {
                positives++;
            }
        }
        return positives / (double) probes;
    }

    /**
     * The false-positive rate of a Bloom filter blocked to one 64-bit word per key with {@code k} probes: the
     * keys per word are Poisson with mean 64 / bitsPerEntry, and a word holding {@code x} keys answers yes to a
     * key not added with probability (1 - (1 - 1/64)^(kx))^k (Putze, Sanders and Singler, 2007).
     */
    private static double modelRate(final int bitsPerEntry, final int k) {
        final double mean = (double) Long.SIZE / bitsPerEntry;
        double poisson = Math.exp(-mean);
        double rate = 0;
        for (int x = 0; x < 200; x++) {
            if (x > 0) {
                poisson *= mean / x;
            }
            rate += poisson * Math.pow(1 - Math.pow(1 - 1.0 / Long.SIZE, (double) k * x), k);
        }
        return rate;
    }
}
