package io.nearsort.core.memory;

import org.agrona.UnsafeApi;
import org.agrona.collections.LongHashSet;

import java.util.concurrent.atomic.LongAdder;

/**
 * Fixed-size off-heap pages carved from large, page-aligned slabs.
 *
 * <p>A page is identified by its plain {@code long} address: no object exists per page. Structures read and
 * write pages through flyweights (an Agrona {@link org.agrona.concurrent.UnsafeBuffer} wrapped over the page,
 * see {@link #wrap}). Slabs are allocated lazily, growing geometrically from a small first slab up to
 * {@link Builder#maxSlabBytes}, so a tiny index costs kilobytes, not megabytes. Freed pages go to an intrusive
 * free list (the next pointer lives in the freed page itself) and are reused before new pages are carved.
 * Slabs of 2 MiB and more are advised to use transparent huge pages where the JVM allows it ({@link HugePages},
 * {@link Builder#hugePages(boolean)}). Agrona's memory access needs
 * {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} on the JVM's command line ({@code =org.agrona}
 * when Agrona is on the module path).
 *
 * <h2>Ownership</h2>
 * The arena owns every slab; {@link #close()} releases them all at once, including pages that were never freed,
 * to the arena's {@link SlabPool} ({@link Builder#slabPool}: the process-wide {@link SlabPool#shared()} by
 * default), which keeps them for the next arena up to its bound and frees the rest. After close the arena holds
 * no memory ({@link #bytesAllocated()} is 0), and any call but the accessors throws
 * {@link IllegalStateException}. Pages are not zeroed on allocation: a slab taken from the pool holds whatever
 * its previous arena wrote.
 *
 * <h2>Thread safety</h2>
 * A {@linkplain Builder#concurrent(boolean) single-threaded} arena (the default) must be confined to one
 * thread at a time. A concurrent arena may be used by many threads: each thread allocates from and frees to a
 * small per-thread cache of pages ({@link Builder#threadCacheCapacity(int)}) and touches the shared free list
 * and slab carving under a lock only to refill or spill half of its cache. This is the block allocator that
 * SB-Tree (§III, block allocator) relies on. {@link #close()} must not race with other calls; pages held in
 * per-thread caches are returned to the operating system with their slabs.
 *
 * <p>With {@code -Dnearsort.checks=true} (see {@link MemoryChecks}) the arena also tracks every live page and
 * rejects double frees and addresses it never handed out.
 */
public final class PageArena implements AutoCloseable {
    /** Smallest page size accepted. */
    public static final int MIN_PAGE_SIZE = 512;
    /** Largest page size accepted. */
    public static final int MAX_PAGE_SIZE = 1 << 20;
    /** Page size used when none is configured. */
    public static final int DEFAULT_PAGE_SIZE = 4096;
    /** Upper bound on one slab's size used when none is configured. */
    public static final long DEFAULT_MAX_SLAB_BYTES = 64L << 20;
    /** Per-thread cache size of a concurrent arena used when none is configured. */
    public static final int DEFAULT_THREAD_CACHE_CAPACITY = 64;

    /**
     * Whether {@code bytes} is a page size an arena accepts: a power of two in [{@value #MIN_PAGE_SIZE}, {@value
     * #MAX_PAGE_SIZE}].
     *
     * @param bytes a page size
     * @return true when {@link Builder#pageSize} accepts it
     */
    public static boolean isValidPageSize(final int bytes) {
        return bytes >= MIN_PAGE_SIZE && bytes <= MAX_PAGE_SIZE && Integer.bitCount(bytes) == 1;
    }

    /**
     * {@code bytes}, when it is a page size an arena accepts ({@link #isValidPageSize}).
     *
     * @param parameter the name the exception gives the value (a builder's {@code pageSize}, {@code blockSize})
     * @param bytes     a page size
     * @return {@code bytes}
     * @throws IllegalArgumentException naming {@code parameter} when {@code bytes} is not a power of two in
     *                                  [{@value #MIN_PAGE_SIZE}, {@value #MAX_PAGE_SIZE}]
     */
    public static int checkPageSize(final String parameter, final int bytes) {
        if (!isValidPageSize(bytes)) {
            throw new IllegalArgumentException(parameter + " must be a power of two in [" + MIN_PAGE_SIZE + ", "
                    + MAX_PAGE_SIZE + "] (got: " + bytes + ")");
        }
        return bytes;
    }

    private static final long NULL = 0L;
    private static final int FIRST_SLAB_PAGES = 16;

    private final int pageSize;
    private final long maxSlabBytes;
    private final boolean concurrent;
    private final int threadCacheCapacity;
    private final boolean hugePages;
    private final SlabPool slabPool;
    private final Object lock = new Object();
    private final ThreadLocal<ThreadPageCache> threadCaches;
    private final LongHashSet livePages;

    // Shared state; guarded by lock in a concurrent arena.
    private long[] slabRawAddresses = new long[8];
    private long[] slabBases = new long[8];
    private long[] slabSizes = new long[8];
    private boolean[] slabAdvised = new boolean[8];
    private int slabCount;
    private long nextSlabBytes;
    private long carveNext;
    private long carveEnd;
    private long freeListHead = NULL;
    private long bytesAllocated;
    private long bytesAdvisedHugePages;

    private long pagesInUse;                  // single-threaded arena
    private final LongAdder concurrentPagesInUse; // concurrent arena
    private volatile boolean closed;

    private PageArena(final Builder builder) {
        UnsafeAccess.requireAvailable();
        this.pageSize = builder.pageSize;
        this.maxSlabBytes = builder.maxSlabBytes;
        this.concurrent = builder.concurrent;
        this.threadCacheCapacity = builder.threadCacheCapacity;
        this.hugePages = builder.hugePages;
        this.slabPool = builder.slabPool != null ? builder.slabPool : SlabPool.shared();
        if (hugePages) {
            HugePages.checkConfiguration();
        }
        this.nextSlabBytes = Math.min(maxSlabBytes, (long) pageSize * FIRST_SLAB_PAGES);
        this.threadCaches = concurrent ? ThreadLocal.withInitial(() -> new ThreadPageCache(threadCacheCapacity)) : null;
        this.concurrentPagesInUse = concurrent ? new LongAdder() : null;
        this.livePages = MemoryChecks.ENABLED ? new LongHashSet() : null;
    }

    /**
     * A builder with the defaults: 4 KiB pages, slabs up to 64 MiB, single-threaded.
     *
     * @return a new builder with the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A single-threaded arena of {@code pageSize}-byte pages with default slab sizing.
     *
     * @param pageSize bytes per page, a power of two from 512 to 1048576
     * @return a new arena; the caller closes it
     * @throws IllegalArgumentException when {@code pageSize} is not such a power of two
     */
    public static PageArena ofPageSize(final int pageSize) {
        return builder().pageSize(pageSize).build();
    }

    /**
     * Size of every page in bytes (a power of two).
     *
     * @return bytes per page, a power of two from 512 to 1048576
     */
    public int pageSize() {
        return pageSize;
    }

    /**
     * Whether this arena may be shared by threads.
     *
     * @return true when built with {@link Builder#concurrent concurrent(true)}
     */
    public boolean isConcurrent() {
        return concurrent;
    }

    /**
     * Hands out one page; its content is undefined.
     *
     * @return the page's address, never 0
     * @throws IllegalStateException after {@link #close()}
     * @throws OutOfMemoryError when the operating system refuses a new slab
     */
    public long allocate() {
        ensureOpen();
        final long page;
        if (concurrent) {
            final ThreadPageCache cache = threadCaches.get();
            if (cache.isEmpty()) {
                synchronized (lock) {
                    ensureOpen();
                    for (int i = cache.capacity() / 2; i > 0; i--) {
                        cache.push(takeGlobal());
                    }
                }
            }
            page = cache.pop();
            concurrentPagesInUse.increment();
        } else {
            page = takeGlobal();
            pagesInUse++;
        }
        if (livePages != null) {
            trackAllocated(page);
        }
        return page;
    }

    /**
     * Returns a page to the arena for reuse.
     *
     * @param page an address obtained from {@link #allocate()} of this arena and not freed since
     * @throws IllegalStateException after {@link #close()}
     * @throws IllegalArgumentException with checks on, for an address that is not a live page of this arena
     */
    public void free(final long page) {
        ensureOpen();
        if (livePages != null) {
            trackFreed(page);
        }
        if (concurrent) {
            final ThreadPageCache cache = threadCaches.get();
            if (cache.isFull()) {
                synchronized (lock) {
                    ensureOpen();
                    for (int i = cache.capacity() / 2; i > 0; i--) {
                        pushGlobal(cache.pop());
                    }
                }
            }
            cache.push(page);
            concurrentPagesInUse.decrement();
        } else {
            pushGlobal(page);
            pagesInUse--;
        }
    }

    /**
     * Points {@code flyweight} at {@code page}; the flyweight never owns the memory.
     *
     * @param flyweight the buffer to re-point
     * @param page the address of a page of this arena
     * @return the flyweight, for chaining
     */
    public org.agrona.concurrent.UnsafeBuffer wrap(final org.agrona.concurrent.UnsafeBuffer flyweight, final long page) {
        flyweight.wrap(page, pageSize);
        return flyweight;
    }

    /**
     * Bytes obtained from the operating system (all slabs, including unused parts).
     *
     * @return the bytes of every slab this arena holds
     */
    public long bytesAllocated() {
        if (concurrent) {
            synchronized (lock) {
                return bytesAllocated;
            }
        }
        return bytesAllocated;
    }

    /**
     * Bytes of slabs for which the kernel accepted the advice to use transparent huge pages (see
     * {@link HugePages}); 0 when the advice is off or unavailable in this JVM.
     *
     * @return the bytes of huge-page-advised slabs; 0 when the advice is off or unavailable
     */
    public long bytesAdvisedHugePages() {
        if (concurrent) {
            synchronized (lock) {
                return bytesAdvisedHugePages;
            }
        }
        return bytesAdvisedHugePages;
    }

    /**
     * Bytes in pages handed out and not yet freed.
     *
     * @return {@link #pagesInUse()} times {@link #pageSize()}
     */
    public long bytesInUse() {
        return pagesInUse() * pageSize;
    }

    /**
     * Pages handed out and not yet freed.
     *
     * @return the number of pages in use, {@code >= 0}
     */
    public long pagesInUse() {
        return concurrent ? concurrentPagesInUse.sum() : pagesInUse;
    }

    /**
     * Whether {@link #close()} was called.
     *
     * @return true once the arena is closed
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * The pool this arena takes slabs from and returns them to.
     *
     * @return the arena's slab pool, not null
     */
    public SlabPool slabPool() {
        return slabPool;
    }

    /** Returns every slab to the {@link #slabPool()}, which keeps or frees each. Idempotent. */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            for (int i = 0; i < slabCount; i++) {
                slabPool.give(slabRawAddresses[i], slabSizes[i] + pageSize, pageSize, hugePages, slabAdvised[i]);
            }
            slabCount = 0;
            bytesAllocated = 0;
            bytesAdvisedHugePages = 0;
            pagesInUse = 0;
            if (concurrentPagesInUse != null) {
                concurrentPagesInUse.reset();
            }
            freeListHead = NULL;
            carveNext = carveEnd = 0;
            if (livePages != null) {
                livePages.clear();
            }
        }
    }

    /** Throws {@link IllegalStateException} when closed. */
    public void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("PageArena is closed");
        }
    }

    private long takeGlobal() {
        if (freeListHead != NULL) {
            final long page = freeListHead;
            freeListHead = UnsafeApi.getLong(page);
            return page;
        }
        if (carveNext == carveEnd) {
            addSlab();
        }
        final long page = carveNext;
        carveNext += pageSize;
        return page;
    }

    private void pushGlobal(final long page) {
        UnsafeApi.putLong(page, freeListHead);
        freeListHead = page;
    }

    private void addSlab() {
        final long bytes = nextSlabBytes;
        // Over-allocate by one page so the slab can start on a page-size boundary.
        final long[] pooled = slabPool.take(bytes + pageSize, pageSize, hugePages);
        final long raw = pooled != null ? pooled[0] : UnsafeApi.allocateMemory(bytes + pageSize);
        final long base = (raw + pageSize - 1) & -(long) pageSize;
        final boolean advised = pooled != null ? pooled[1] != 0 : hugePages && HugePages.advise(base, bytes);
        if (slabCount == slabBases.length) {
            slabRawAddresses = java.util.Arrays.copyOf(slabRawAddresses, slabCount * 2);
            slabBases = java.util.Arrays.copyOf(slabBases, slabCount * 2);
            slabSizes = java.util.Arrays.copyOf(slabSizes, slabCount * 2);
            slabAdvised = java.util.Arrays.copyOf(slabAdvised, slabCount * 2);
        }
        slabRawAddresses[slabCount] = raw;
        slabBases[slabCount] = base;
        slabSizes[slabCount] = bytes;
        slabAdvised[slabCount] = advised;
        slabCount++;
        bytesAllocated += bytes + pageSize;
        if (advised) {
            bytesAdvisedHugePages += bytes;
        }
        carveNext = base;
        carveEnd = base + bytes;
        nextSlabBytes = Math.min(maxSlabBytes, bytes * 2);
    }

    private void trackAllocated(final long page) {
        synchronized (lock) {
            if (!livePages.add(page)) {
                throw new IllegalStateException("PageArena handed out page 0x" + Long.toHexString(page) + " twice");
            }
        }
    }

    private void trackFreed(final long page) {
        synchronized (lock) {
            if (!livePages.remove(page)) {
                throw new IllegalArgumentException("page: 0x" + Long.toHexString(page)
                        + " is not a live page of this arena (double free or foreign address)");
            }
        }
    }

    /** Validated configuration of a {@link PageArena}. */
    public static final class Builder {
        private int pageSize = DEFAULT_PAGE_SIZE;
        private long maxSlabBytes = DEFAULT_MAX_SLAB_BYTES;
        private boolean concurrent;
        private int threadCacheCapacity = DEFAULT_THREAD_CACHE_CAPACITY;
        private boolean hugePages = true;
        private SlabPool slabPool;

        private Builder() {
        }

        /**
         * Where slabs come from and go back to on close (default {@link SlabPool#shared()}, the process-wide pool
         * bounded by the system property {@value SlabPool#MAX_BYTES_PROPERTY}); {@link SlabPool#disabled()} takes
         * every slab from the operating system and frees it on close.
         *
         * @param slabPool the pool to take slabs from and return them to; not null
         * @return this builder
         * @throws IllegalArgumentException when {@code slabPool} is null
         */
        public Builder slabPool(final SlabPool slabPool) {
            if (slabPool == null) {
                throw new IllegalArgumentException("slabPool must not be null (use SlabPool.disabled() for none)");
            }
            this.slabPool = slabPool;
            return this;
        }

        /**
         * Page size in bytes: a power of two from 512 B to 1 MiB (default 4 KiB).
         *
         * @param pageSize bytes per page, a power of two from 512 to 1048576
         * @return this builder
         * @throws IllegalArgumentException when {@code pageSize} is not such a power of two
         */
        public Builder pageSize(final int pageSize) {
            this.pageSize = checkPageSize("pageSize", pageSize);
            return this;
        }

        /**
         * Largest slab requested from the operating system, in bytes; at least one page (default 64 MiB).
         *
         * @param maxSlabBytes bytes, from 512 to 2<sup>40</sup>; {@link #build()} also requires at least one page
         * @return this builder
         * @throws IllegalArgumentException when {@code maxSlabBytes} is outside [512, 2<sup>40</sup>]
         */
        public Builder maxSlabBytes(final long maxSlabBytes) {
            if (maxSlabBytes < MIN_PAGE_SIZE || maxSlabBytes > (1L << 40)) {
                throw new IllegalArgumentException("maxSlabBytes must be in [" + MIN_PAGE_SIZE + ", 2^40] (got: "
                        + maxSlabBytes + ")");
            }
            this.maxSlabBytes = maxSlabBytes;
            return this;
        }

        /**
         * Whether the arena may be shared by threads, with per-thread page caches (default false).
         *
         * @param concurrent true for an arena that threads may share
         * @return this builder
         */
        public Builder concurrent(final boolean concurrent) {
            this.concurrent = concurrent;
            return this;
        }

        /**
         * Pages each thread may cache in a concurrent arena: 2 to 65536 (default 64).
         *
         * @param threadCacheCapacity pages per thread cache, from 2 to 65536; ignored by a single-threaded arena
         * @return this builder
         * @throws IllegalArgumentException when {@code threadCacheCapacity} is outside [2, 65536]
         */
        public Builder threadCacheCapacity(final int threadCacheCapacity) {
            if (threadCacheCapacity < 2 || threadCacheCapacity > 65536) {
                throw new IllegalArgumentException("threadCacheCapacity must be in [2, 65536] (got: "
                        + threadCacheCapacity + ")");
            }
            this.threadCacheCapacity = threadCacheCapacity;
            return this;
        }

        /**
         * Whether slabs of 2 MiB and more are advised to use transparent huge pages where the JVM allows it
         * ({@link HugePages#status()}); default true. Fewer page faults while trees grow and fewer TLB misses
         * on lookups, at the cost of up to one huge page of resident memory ahead of the last page handed out.
         *
         * @param hugePages true to advise huge pages for large slabs
         * @return this builder
         */
        public Builder hugePages(final boolean hugePages) {
            this.hugePages = hugePages;
            return this;
        }

        /**
         * Creates the arena; no memory is allocated until the first page is.
         *
         * @return a new arena with this builder's settings; the caller closes it
         * @throws IllegalArgumentException when {@code maxSlabBytes} is below {@code pageSize}, or the huge pages
         *                                  system property is malformed while huge pages are on
         */
        public PageArena build() {
            if (maxSlabBytes < pageSize) {
                throw new IllegalArgumentException("maxSlabBytes must be at least pageSize " + pageSize + " (got: "
                        + maxSlabBytes + ")");
            }
            return new PageArena(this);
        }
    }
}
