package io.nearsort.core.sware;

/**
 * A blocked, sectorised Bloom filter over {@code long} keys (SWARE §IV-B, Fig. 7): {@code bitsPerEntry} bits per
 * expected entry and {@code round(bitsPerEntry · ln 2)} probes, all inside one 512-bit block (one cache line)
 * chosen by the key's hash. Probe {@code i} sets one bit of word {@code i mod 8} of the block, so the probes of
 * a key touch different words: an insert is eight independent, branch-free stores (no probe waits for the
 * previous one's store), a probe of the filter eight independent loads. One 64-bit mix of the key (MurmurHash3's
 * finaliser) serves every probe and every filter of the buffer, the paper's "hash sharing". 10 bits per entry
 * give about a 1% false-positive rate ({@code BloomFilterTest} measures it). Guarded by its owner's lock.
 */
final class BloomFilter {
    private static final int BLOCK_WORDS = 8;
    private static final int BLOCK_BITS = BLOCK_WORDS * Long.SIZE;
    /** Bits of the hash one probe consumes: a bit index inside its 64-bit word. */
    private static final int PROBE_BITS = 6;
    private static final int MAX_PROBES = 2 * BLOCK_WORDS;
    /**
     * Probes per bit of budget: above the classic ln 2, because one bit per word makes the words of a block fill
     * unevenly; 0.8 measured best for the sectorised layout (1.0% false positives at 10 bits per entry, against
     * 1.8% with ln 2).
     */
    private static final double PROBES_PER_BIT = 0.8;

    private final long[] words;
    private final int blocks;
    private final int probes;
    /** Whether a key was added since the last {@link #clear}: an untouched filter clears for free. */
    private boolean dirty;
    /**
     * @param expectedEntries entries the filter is sized for, at least 1
     * @param bitsPerEntry    bits per expected entry, at least 1
     */
    BloomFilter(final int expectedEntries, final int bitsPerEntry) {
        final long bits = (long) expectedEntries * bitsPerEntry;
        this.blocks = (int) Math.max(1, Math.min(1 << 24, (bits + BLOCK_BITS - 1) / BLOCK_BITS));
        this.words = new long[blocks * BLOCK_WORDS];
        this.probes = Math.max(1, Math.min(MAX_PROBES, (int) Math.round(bitsPerEntry * PROBES_PER_BIT)));
    }

    /** The hash every filter of the buffer shares for {@code key}: compute it once per key. */
    static long hash(final long key) {
        return mix(key);
    }

    /** Adds a key by its {@link #hash}. */
    void add(final long hash) {
        dirty = true;
        final int base = block(hash) * BLOCK_WORDS;
        final long[] w = words;
        long bits = probeBits(hash);
        final int first = (int) bits & (BLOCK_WORDS - 1);
        bits >>>= 3;
        for (int i = 0; i < BLOCK_WORDS; i++) {
            w[base + i] |= (1L << bits) & covered((i - first) & (BLOCK_WORDS - 1));
            bits >>>= PROBE_BITS;
        }
        if (probes > BLOCK_WORDS) {
            bits = mix(probeBits(hash));
            for (int i = 0; i < BLOCK_WORDS; i++) {
                w[base + i] |= (1L << bits) & covered(i + BLOCK_WORDS);
                bits >>>= PROBE_BITS;
            }
        }
    }

    /** Whether a key with this {@link #hash} may have been added; false means certainly not. */
    boolean mightContain(final long hash) {
        if (probes == BLOCK_WORDS) {
            return mightContainOnePerWord(hash);
        }
        final int base = block(hash) * BLOCK_WORDS;
        final long[] w = words;
        long bits = probeBits(hash);
        final int first = (int) bits & (BLOCK_WORDS - 1);
        bits >>>= 3;
        long missing = 0;
        for (int i = 0; i < BLOCK_WORDS; i++) {
            final long probe = (1L << bits) & covered((i - first) & (BLOCK_WORDS - 1));
            missing |= probe & ~w[base + i];
            bits >>>= PROBE_BITS;
        }
        if (probes > BLOCK_WORDS) {
            bits = mix(probeBits(hash));
            for (int i = 0; i < BLOCK_WORDS; i++) {
                final long probe = (1L << bits) & covered(i + BLOCK_WORDS);
                missing |= probe & ~w[base + i];
                bits >>>= PROBE_BITS;
            }
        }
        return missing == 0;
    }

    /**
     * {@link #mightContain} with exactly one probe per word (8 probes: 10 bits per entry, the default), which
     * every word covers: the same bits without the probe masks, written out. Lookups of keys inside the buffer's
     * range probe the filter every time: with this, independent lookups of scrambled keys in a 10M-key
     * single-thread index went from ~585 to ~520 ns in a harness (JMH could not tell it from its noise;
     * docs/benchmarks.md, "2026-11-28, eleventh session").
     */
    private boolean mightContainOnePerWord(final long hash) {
        final int base = block(hash) * BLOCK_WORDS;
        final long[] w = words;
        final long bits = probeBits(hash) >>> 3; // as mightContain: the first 3 bits pick no word here
        final long missing = (1L << bits & ~w[base])
                | (1L << (bits >>> PROBE_BITS) & ~w[base + 1])
                | (1L << (bits >>> 2 * PROBE_BITS) & ~w[base + 2])
                | (1L << (bits >>> 3 * PROBE_BITS) & ~w[base + 3])
                | (1L << (bits >>> 4 * PROBE_BITS) & ~w[base + 4])
                | (1L << (bits >>> 5 * PROBE_BITS) & ~w[base + 5])
                | (1L << (bits >>> 6 * PROBE_BITS) & ~w[base + 6])
                | (1L << (bits >>> 7 * PROBE_BITS) & ~w[base + 7]);
        return missing == 0;
    }

    /**
     * All ones when probe number {@code probe} exists ({@code probe < probes}), else zero: probes of the first
     * round are numbered from the word the hash picks first, so with fewer than 8 probes keys still spread over
     * every word of the block. Branch-free.
     */
    private long covered(final int probe) {
        return (long) (probe - probes) >> 63;
    }

    /** Probe bits decorrelated from the block bits by one multiply (the hash is already well mixed). */
    private static long probeBits(final long hash) {
        return hash * 0x9E3779B97F4A7C15L;
    }

    /** The block for a hash: the high 32 bits scaled to [0, blocks) (independent of the probe bits). */
    private int block(final long hash) {
        return (int) (((hash >>> 32) * blocks) >>> 32);
    }

    /**
     * Removes every key. The buffer's filters are filled lazily by lookups and cleared at every flush, so in an
     * ingest-only phase they are never touched: those clears cost nothing.
     */
    void clear() {
        if (dirty) {
            java.util.Arrays.fill(words, 0L);
            dirty = false;
        }
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
