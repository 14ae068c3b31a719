package io.nearsort.core.sware;

/**
 * A blocked Bloom filter over {@code long} keys (SWARE §IV-B, Fig. 7): {@code bitsPerEntry} bits per expected
 * entry and {@code round(bitsPerEntry · ln 2)} probes, all inside one 512-bit block (one cache line) chosen by
 * the key's hash, so an insert or a probe touches one cache line instead of k. One 64-bit mix of the key
 * (MurmurHash3's finaliser) serves every probe and every filter of the buffer, the paper's "hash sharing". 10 bits per entry give about a 1%
 * false-positive rate. Guarded by its owner's lock.
 */
final class BloomFilter {
    private static final int BLOCK_WORDS = 8;
    private static final int BLOCK_BITS = BLOCK_WORDS * Long.SIZE;
    private static final int MAX_PROBES = 16;

    private final long[] words;
    private final int blocks;
    private final int probes;

    /**
     * @param expectedEntries entries the filter is sized for, at least 1
     * @param bitsPerEntry    bits per expected entry, at least 1
     */
    BloomFilter(final int expectedEntries, final int bitsPerEntry) {
        final long bits = (long) expectedEntries * bitsPerEntry;
        this.blocks = (int) Math.max(1, Math.min(1 << 24, (bits + BLOCK_BITS - 1) / BLOCK_BITS));
        this.words = new long[blocks * BLOCK_WORDS];
        this.probes = Math.max(1, Math.min(MAX_PROBES, (int) Math.round(bitsPerEntry * Math.log(2))));
    }

    /** The hash every filter of the buffer shares for {@code key}: compute it once per key. */
    static long hash(final long key) {
        return mix(key);
    }

    /** Adds a key by its {@link #hash}. */
    void add(final long hash) {
        final int base = block(hash) * BLOCK_WORDS;
        long bits = probeBits(hash);
        for (int i = 0; i < probes; i++) {
            if (i == 7) {
                bits = mix(bits); // 7 probes use 63 bits; more draw from a further mix
            }
            final int bit = (int) (bits & (BLOCK_BITS - 1));
            words[base + (bit >>> 6)] |= 1L << bit;
            bits >>>= 9;
        }
    }

    /** Whether a key with this {@link #hash} may have been added; false means certainly not. */
    boolean mightContain(final long hash) {
        final int base = block(hash) * BLOCK_WORDS;
        long bits = probeBits(hash);
        for (int i = 0; i < probes; i++) {
            if (i == 7) {
                bits = mix(bits);
            }
            final int bit = (int) (bits & (BLOCK_BITS - 1));
            if ((words[base + (bit >>> 6)] & (1L << bit)) == 0) {
                return false;
            }
            bits >>>= 9;
        }
        return true;
    }

    /** Probe bits decorrelated from the block bits by one multiply (the hash is already well mixed). */
    private static long probeBits(final long hash) {
        return hash * 0x9E3779B97F4A7C15L;
    }

    /** The block for a hash: the high 32 bits scaled to [0, blocks) (independent of the probe bits). */
    private int block(final long hash) {
        return (int) (((hash >>> 32) * blocks) >>> 32);
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
