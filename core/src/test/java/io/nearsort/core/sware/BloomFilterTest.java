package io.nearsort.core.sware;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sectorised blocked Bloom filter of the SWARE buffer (§IV-B): no false negatives, the promised rate. */
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

    @Test
    void tenBitsPerEntryGiveAboutOnePercentFalsePositives() {
        assertEquals(0.0107, falsePositiveRate(10), 0.004);
    }

    @Test
    void moreBitsGiveFewerFalsePositives() {
        final double four = falsePositiveRate(4);
        final double ten = falsePositiveRate(10);
        final double twenty = falsePositiveRate(20);
        assertTrue(four > ten && ten > twenty, () -> four + " > " + ten + " > " + twenty);
        assertTrue(four < 0.2, () -> "4 bits per entry: " + four); // classic Bloom filter: 0.146
        assertTrue(twenty < 0.001, () -> "20 bits per entry: " + twenty);
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

    /** Fraction of 10^6 keys never added that a filter of {@link #ENTRIES} sequential keys reports. */
    private static double falsePositiveRate(final int bitsPerEntry) {
        final BloomFilter filter = new BloomFilter(ENTRIES, bitsPerEntry);
        for (long k = 0; k < ENTRIES; k++) {
            filter.add(BloomFilter.hash(k));
        }
        int positives = 0;
        final int probes = 1_000_000;
        for (long k = ENTRIES; k < ENTRIES + probes; k++) {
            if (filter.mightContain(BloomFilter.hash(k))) {
                positives++;
            }
        }
        return positives / (double) probes;
    }
}
