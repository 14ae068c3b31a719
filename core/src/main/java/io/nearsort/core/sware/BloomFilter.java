package io.nearsort.core.sware;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A register-blocked Bloom filter over {@code long} keys (SWARE §IV-B, Fig. 7; the blocking is Putze, Sanders and
 * Singler's, <i>Cache-, Hash- and Space-Efficient Bloom Filters</i>, 2007): {@code bitsPerEntry} bits per expected
 * entry, and every key's probes set bits of one 64-bit word, which the key's hash picks. A probe of the filter is
 * one load of that word, two loads of the key's bit pattern from tables that stay in the L1 cache, and a test:
 * one cache line of the filter, whatever the probe count.
 *
 * <p>Why one word rather than a 512-bit block: a lookup that the filter turns away from the buffer is otherwise a
 * tree lookup, and over a tree larger than the cache a stream of independent lookups is bounded by how many of
 * them the processor overlaps, which every instruction and every cache line of the filter reduces. Over a
 * 10M-key single-thread SA B+-tree after scrambled keys, a scratch read path that only checked the buffer's range
 * and the filter before the tree took 500 ns a lookup with eight probes in a 512-bit block (two cache lines on the
 * Java heap, whose arrays are not line-aligned), 416–436 ns with one word and a shift and an or per probe, and
 * 319–344 ns with one word, a multiply as hash and a table of patterns; 275–285 ns with no filter, the plain
 * B+-tree 234–274 ns (docs/benchmarks.md, "2026-11-29, fourteenth session"). The price is a higher false-positive
 * rate at equal size: 1.9% at 10 bits per entry (the index's default) against 1.0%, 1.1% at 12 bits, 3.5% at 8.
 * {@code BloomFilterTest} checks the measured rate against the model's at several sizes and key shapes.
 *
 * <p>The probe count for {@code b} bits per entry is close to the optimum for a 64-bit block: {@code round(b / 2)}
 * up to 12 bits (6 probes), then one more per 6 bits, at most 10. A key's bit pattern is the union of two fixed
 * patterns of half as many bits, each one of 1,024, picked by 10 bits of the hash (16 KiB of patterns per probe
 * count: two loads from the L1 cache rather than a shift and an or per probe); its word by the hash's high bits.
 * Two patterns' bits may coincide, which puts the rate about a tenth above the model's at 10 bits per entry and a
 * fifth at 20; a single table of 1,024 patterns was up to 60% above it at 16 and 20 bits. The hash is
 * MurmurHash3's 64-bit finaliser: a multiply alone left keys that differ only in their high half (a partition in
 * the high bits) at three times the rate. One hash of the key serves every filter of the buffer (the paper's "hash
 * sharing"). Guarded by its owner: writers add under the buffer's cover lock; readers probe words published to
 * them by the buffer's volatile ends.
 */
final class BloomFilter {
    /** Patterns per table: a power of two. */
    private static final int PATTERNS = 1 << 10;
    private static final int PATTERN_BITS = 10;
    private static final int MAX_PROBES = 10;
    /**
     * {@code HIGH_PATTERNS[k]} and {@code LOW_PATTERNS[k]}: {@link #PATTERNS} words of {@code ceil(k / 2)} and
     * {@code floor(k / 2)} distinct bits each, from a fixed seed.
     */
    private static final long[][] HIGH_PATTERNS = patternTables(1);
    private static final long[][] LOW_PATTERNS = patternTables(0);

    private final long[] words;
    private final long[] highPatterns;
    private final long[] lowPatterns;
    private final int probes;
    /** Whether a key was added since the last {@link #clear}: an untouched filter clears for free. */
    private boolean dirty;

    /**
     * @param expectedEntries entries the filter is sized for, at least 1
     * @param bitsPerEntry    bits per expected entry, 1 to 64
     */
    BloomFilter(final int expectedEntries, final int bitsPerEntry) {
        final long bits = (long) expectedEntries * bitsPerEntry;
        this.words = new long[(int) Math.max(1, (bits + Long.SIZE - 1) / Long.SIZE)];
        this.probes = probesFor(bitsPerEntry);
        this.highPatterns = HIGH_PATTERNS[probes];
        this.lowPatterns = LOW_PATTERNS[probes];
    }

    /** The probe count for {@code bitsPerEntry}: close to the optimum for one 64-bit word per key. */
    static int probesFor(final int bitsPerEntry) {
        final int k = bitsPerEntry <= 12 ? (bitsPerEntry + 1) / 2 : 6 + (bitsPerEntry - 12) / 6;
        return Math.max(1, Math.min(MAX_PROBES, k));
    }

    /** The hash every filter of the buffer shares for {@code key}: compute it once per key. */
    static long hash(final long key) {
        long h = key;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** Adds a key by its {@link #hash}. */
    void add(final long hash) {
        dirty = true;
        words[word(hash)] |= pattern(hash);
    }

    /** Whether a key with this {@link #hash} may have been added; false means certainly not. */
    boolean mightContain(final long hash) {
        return (pattern(hash) & ~words[word(hash)]) == 0;
    }

    /** The key's bits within its word: two patterns picked by the hash's low 20 bits. */
    private long pattern(final long hash) {
        return highPatterns[(int) hash & (PATTERNS - 1)] | lowPatterns[(int) (hash >>> PATTERN_BITS) & (PATTERNS - 1)];
    }

    /** The word for a hash: its high 32 bits scaled to {@code [0, words.length)}. */
    private int word(final long hash) {
        return (int) (((hash >>> 32) * words.length) >>> 32);
    }

    /** Probes per key (for tests). */
    int probes() {
        return probes;
    }

    /**
     * Removes every key. The buffer's filters are filled lazily by lookups and cleared at every flush, so in an
     * ingest-only phase they are never touched: those clears cost nothing.
     */
    void clear() {
        if (dirty) {
            Arrays.fill(words, 0L);
            dirty = false;
        }
    }

    /** Bytes held by the bit array. */
    long sizeInBytes() {
        return (long) words.length * Long.BYTES;
    }

    /** Tables of {@code ceil(k / 2)} ({@code roundUp} 1) or {@code floor(k / 2)} distinct bits per pattern. */
    private static long[][] patternTables(final int roundUp) {
        final SplittableRandom random = new SplittableRandom(0x5EEDB100L + roundUp);
        final long[][] tables = new long[MAX_PROBES + 1][];
        for (int k = 1; k <= MAX_PROBES; k++) {
            final int bits = (k + roundUp) / 2;
            tables[k] = new long[PATTERNS];
            for (int i = 0; i < PATTERNS; i++) {
                long pattern = 0;
                while (Long.bitCount(pattern) < bits) {
                    pattern |= 1L << random.nextInt(Long.SIZE);
                }
                tables[k][i] = pattern;
            }
        }
        return tables;
    }
}
