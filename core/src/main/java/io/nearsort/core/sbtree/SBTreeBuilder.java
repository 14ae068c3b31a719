package io.nearsort.core.sbtree;

import io.nearsort.core.memory.PageArena;
import io.nearsort.core.memory.SlabPool;
import io.nearsort.core.memory.UnsafeAccess;

/**
 * Validated configuration of an {@link SBTree}. The defaults follow the paper where it gives numbers: 4 KiB
 * blocks (§III-D: "the size of data block is 4KB"), one block size for every kind of block (§III-E); the
 * others are ours: 32 per-thread data blocks per segmented block (enough for 16 writer threads to hold two each,
 * §V-F's "provisionally over-allocating per-thread data blocks"), N-ary search table buckets of 8 keys (one
 * 64-byte cache line each), data blocks filled completely by conversions (bottom-up, like the search layer).
 */
public final class SBTreeBuilder {
    /** Block size used when none is configured (§III-D). */
    public static final int DEFAULT_BLOCK_SIZE = 4096;
    /** Per-thread data blocks a segmented block hands out before it is converted, when none is configured. */
    public static final int DEFAULT_MAX_PER_THREAD_BLOCKS = 32;
    /** Entries per bucket of the N-ary search table, when none is configured. */
    public static final int DEFAULT_SEARCH_TABLE_BUCKET = 8;
    /** Largest accepted bucket of the N-ary search table. */
    public static final int MAX_SEARCH_TABLE_BUCKET = 64;
    /** Smallest accepted conversion fill factor. */
    public static final double MIN_FILL_FACTOR = 0.5;

    private int blockSize = DEFAULT_BLOCK_SIZE;
    private int maxPerThreadBlocks = DEFAULT_MAX_PER_THREAD_BLOCKS;
    private int searchTableBucket = DEFAULT_SEARCH_TABLE_BUCKET;
    private double fillFactor = 1.0;
    private int allocatorThreadCache = PageArena.DEFAULT_THREAD_CACHE_CAPACITY;
    private boolean hugePages = true;
    private SlabPool slabPool;
    private long maxBytes = Long.MAX_VALUE;
    /** 0: as many as fit a block. */
    private int perThreadBlockCapacity;

    /** Use {@link io.nearsort.core.Indexes#sbTree()}. */
    public SBTreeBuilder() {
    }

    /**
     * Size of every block (data, segmented, per-thread and search blocks): a power of two from 512 B to 1 MiB
     * (default 4 KiB). Small blocks make conversions, splits and search-layer updates frequent.
     *
     * @param bytes bytes per block, a power of two from 512 to 1048576
     * @return this builder
     * @throws IllegalArgumentException when {@code bytes} is not such a power of two
     */
    public SBTreeBuilder blockSize(final int bytes) {
        this.blockSize = PageArena.checkPageSize("blockSize", bytes);
        return this;
    }

    /**
     * The segmented block's maximum threshold of per-thread data blocks (§IV-A): the thread that would take one
     * more converts the block. From 1 to what a block's slot array holds ({@code (blockSize - 64) / 8}, checked
     * by {@link #build()}); default 32. Give it at least twice the number of writer threads.
     *
     * @param blocks per-thread data blocks per segmented block, from 1; {@link #build()} checks the upper bound
     * @return this builder
     * @throws IllegalArgumentException when {@code blocks} is below 1 or above what even a 1 MiB block points to
     */
    public SBTreeBuilder maxPerThreadBlocks(final int blocks) {
        final int max = SegmentedBlockDescriptor.maxSlots(PageArena.MAX_PAGE_SIZE);
        if (blocks < 1 || blocks > max) {
            throw new IllegalArgumentException("maxPerThreadBlocks must be in [1, " + max + "] (got: " + blocks + ")");
        }
        this.maxPerThreadBlocks = blocks;
        return this;
    }

    /**
     * Entries a per-thread data block takes, from 1 to what fits a block ({@code (blockSize - 64) / 20}: 201 for
     * 4 KiB, checked by {@link #build()}); default: all that fit. §III-C: "SB-Tree can reduce the size of each
     * per-thread data block"; every block keeps one size (the allocator's), so fewer entries make segmented
     * blocks smaller: recent entries reach sorted data blocks sooner, at the price of more conversions.
     *
     * @param entries entries per per-thread data block, from 1; {@link #build()} checks the upper bound
     * @return this builder
     * @throws IllegalArgumentException when {@code entries} is below 1 or above what even a 1 MiB block holds
     */
    public SBTreeBuilder perThreadBlockCapacity(final int entries) {
        final int max = PerThreadBlockDescriptor.capacity(PageArena.MAX_PAGE_SIZE);
        if (entries < 1 || entries > max) {
            throw new IllegalArgumentException("perThreadBlockCapacity must be in [1, " + max + "] (got: " + entries
                    + ")");
        }
        this.perThreadBlockCapacity = entries;
        return this;
    }

    /**
     * Entries per bucket of a data block's N-ary search table (§III-D): a power of two from 2 to 64 (default 8).
     * A lookup scans about {@code capacity / bucket} table entries, then one bucket.
     *
     * @param entries keys per bucket, a power of two from 2 to 64
     * @return this builder
     * @throws IllegalArgumentException when {@code entries} is not such a power of two
     */
    public SBTreeBuilder searchTableBucketSize(final int entries) {
        if (entries < 2 || entries > MAX_SEARCH_TABLE_BUCKET || Integer.bitCount(entries) != 1) {
            throw new IllegalArgumentException("searchTableBucketSize must be a power of two in [2, "
                    + MAX_SEARCH_TABLE_BUCKET + "] (got: " + entries + ")");
        }
        this.searchTableBucket = entries;
        return this;
    }

    /**
     * Fraction of a data block a conversion fills, in [0.5, 1.0] (default 1.0: compact, §V-G; lower leaves room
     * for delayed data before a block splits).
     *
     * @param fraction fraction of a data block's capacity a conversion fills, in [0.5, 1.0]
     * @return this builder
     * @throws IllegalArgumentException when {@code fraction} is outside [0.5, 1.0]
     */
    public SBTreeBuilder fillFactor(final double fraction) {
        if (!(fraction >= MIN_FILL_FACTOR && fraction <= 1.0)) {
            throw new IllegalArgumentException("fillFactor must be in [" + MIN_FILL_FACTOR + ", 1.0] (got: "
                    + fraction + ")");
        }
        this.fillFactor = fraction;
        return this;
    }

    /**
     * Blocks each thread keeps in its free list of the block allocator (§III-E), from 2 to 65536 (default 64);
     * see {@link PageArena.Builder#threadCacheCapacity}.
     *
     * @param blocks free blocks cached per thread, from 2 to 65536
     * @return this builder
     * @throws IllegalArgumentException when {@code blocks} is outside [2, 65536]
     */
    public SBTreeBuilder allocatorThreadCache(final int blocks) {
        if (blocks < 2 || blocks > 65536) {
            throw new IllegalArgumentException("allocatorThreadCache must be in [2, 65536] (got: " + blocks + ")");
        }
        this.allocatorThreadCache = blocks;
        return this;
    }

    /**
     * Whether slabs of 2 MiB and more are advised to use transparent huge pages (default true).
     *
     * @param enabled true to advise huge pages for large slabs; see {@link PageArena.Builder#hugePages}
     * @return this builder
     */
    public SBTreeBuilder hugePages(final boolean enabled) {
        this.hugePages = enabled;
        return this;
    }

    /**
     * Where the index's off-heap slabs come from and return to when it is closed (default
     * {@link SlabPool#shared()}); see {@link PageArena.Builder#slabPool}.
     *
     * @param pool the pool to take slabs from and return them to; not null
     * @return this builder
     * @throws IllegalArgumentException when {@code pool} is null
     */
    public SBTreeBuilder slabPool(final SlabPool pool) {
        if (pool == null) {
            throw new IllegalArgumentException("slabPool must not be null (use SlabPool.disabled() for none)");
        }
        this.slabPool = pool;
        return this;
    }

    /**
     * A soft bound on the index's off-heap bytes in use, at least 64 blocks' worth (default: none). A write that
     * needs a new block (a per-thread data block, or a split) while {@link SBTree#bytesInUse()} is at or above the
     * bound is refused with {@link IllegalStateException} and changes nothing; reads, removes and writes into
     * blocks already there go on, and removes give memory back (a remove is never refused: its tombstone may
     * take one per-thread block past the bound). A conversion under way is never refused, so the
     * bound may be exceeded by one conversion's blocks.
     *
     * @param bytes the bound in bytes, at least 64 times the block size (checked again by {@link #build()})
     * @return this builder
     * @throws IllegalArgumentException when {@code bytes} is below 64 blocks of the block size set so far
     */
    public SBTreeBuilder maxBytes(final long bytes) {
        checkMaxBytes(bytes, blockSize);
        this.maxBytes = bytes;
        return this;
    }

    /**
     * A new, empty SB-Tree that owns its off-heap memory. Its search-layer thread starts lazily, with the index's
     * first background work (see {@link SBTree}); {@link SBTree#close()} must be called to free the memory and
     * end that thread.
     *
     * @return a new, empty SB-Tree with this builder's settings; the caller closes it
     * @throws IllegalStateException when the JVM lacks {@value UnsafeAccess#REQUIRED_FLAG}
     * @throws IllegalArgumentException when {@code maxPerThreadBlocks} exceeds what a block of
     *                                  {@code blockSize} bytes can point to
     */
    public SBTree build() {
        UnsafeAccess.requireAvailable();
        final int slots = SegmentedBlockDescriptor.maxSlots(blockSize);
        checkMaxBytes(maxBytes, blockSize); // again: blockSize may have grown since maxBytes was set
        final int fits = PerThreadBlockDescriptor.capacity(blockSize);
        if (perThreadBlockCapacity > fits) {
            throw new IllegalArgumentException("perThreadBlockCapacity must be in [1, " + fits + "] for blockSize "
                    + blockSize + " (got: " + perThreadBlockCapacity + ")");
        }
        if (maxPerThreadBlocks > slots) {
            throw new IllegalArgumentException("maxPerThreadBlocks must be in [1, " + slots + "] for blockSize "
                    + blockSize + " (got: " + maxPerThreadBlocks + ")");
        }
        return new SBTree(this);
    }

    /** The smallest bound {@link #maxBytes} accepts is 64 blocks. */
    private static void checkMaxBytes(final long bytes, final int blockSize) {
        final long min = 64L * blockSize;
        if (bytes < min) {
            throw new IllegalArgumentException("maxBytes must be at least 64 blocks (" + min + " bytes for blockSize "
                    + blockSize + ") (got: " + bytes + ")");
        }
    }

    int blockSize() {
        return blockSize;
    }

    int maxPerThreadBlocks() {
        return maxPerThreadBlocks;
    }

    int searchTableBucket() {
        return searchTableBucket;
    }

    double fillFactor() {
        return fillFactor;
    }

    int perThreadBlockCapacity() {
        return perThreadBlockCapacity == 0 ? PerThreadBlockDescriptor.capacity(blockSize) : perThreadBlockCapacity;
    }

    long maxBytes() {
        return maxBytes;
    }

    PageArena newArena() {
        return PageArena.builder().pageSize(blockSize).concurrent(true).threadCacheCapacity(allocatorThreadCache)
                .hugePages(hugePages).slabPool(slabPool != null ? slabPool : SlabPool.shared()).build();
    }

    @Override
    public String toString() {
        return "SBTreeBuilder{blockSize=" + blockSize + ", maxPerThreadBlocks=" + maxPerThreadBlocks
                + ", perThreadBlockCapacity=" + perThreadBlockCapacity()
                + ", searchTableBucketSize=" + searchTableBucket + ", fillFactor=" + fillFactor
                + ", allocatorThreadCache=" + allocatorThreadCache + ", hugePages=" + hugePages
                + ", maxBytes=" + (maxBytes == Long.MAX_VALUE ? "none" : Long.toString(maxBytes)) + "}";
    }
}
