package io.nearsort.core.sware;

/**
 * A Bloom filter over {@code long} keys (SWARE §IV-B, Fig. 7): {@code bitsPerEntry} bits per expected entry,
 * the optimal number of probes {@code round(bitsPerEntry · ln 2)}, and double hashing of one 64-bit mix
 * (MurmurHash3's finaliser) in place of k independent hashes, the "hash sharing" the paper uses. 10 bits per
 * entry give about a 1% false-positive rate. Confined to its owner's lock.
 */
final class BloomFilter {
    private final long[] words;
    private final int bitMask;
    private final int probes;

    /**
     * @param expectedEntries entries the filter is sized for, at least 1
     * @param bitsPerEntry    bits per expected entry, at least 1
     */
    BloomFilter(final int expectedEntries, final int bitsPerEntry) {
        final long bits = Math.max(64L, (long) expectedEntries * bitsPerEntry);
        final int roundedBits = (int) Math.min(1L << 30, Long.highestOneBit(bits - 1) << 1);
        this.words = new long[Math.max(1, roundedBits >>> 6)];
        this.bitMask = roundedBits - 1;
        this.probes = Math.max(1, (int) Math.round(bitsPerEntry * Math.log(2)));
    }

    void add(final long key) {
        final long hash = mix(key);
        int h1 = (int) hash;
        final int h2 = (int) (hash >>> 32) | 1;
        for (int i = 0; i < probes; i++) {
            final int bit = h1 & bitMask;
            words[bit >>> 6] |= 1L << bit;
            h1 += h2;
        }
    }

    boolean mightContain(final long key) {
        final long hash = mix(key);
        int h1 = (int) hash;
        final int h2 = (int) (hash >>> 32) | 1;
        for (int i = 0; i < probes; i++) {
            final int bit = h1 & bitMask;
            if ((words[bit >>> 6] & (1L << bit)) == 0) {
                return false;
            }
            h1 += h2;
        }
        return true;
    }

    void clear() {
        java.util.Arrays.fill(words, 0L);
    }

    /** Bytes held by the bit array. */
    long sizeInBytes() {
        return (long) words.length * Long.BYTES;
    }

    /** MurmurHash3's 64-bit finaliser: every input bit affects every output bit. */
    static long mix(final long key) {
        long h = key;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
