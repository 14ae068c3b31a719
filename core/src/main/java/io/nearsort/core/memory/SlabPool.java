package io.nearsort.core.memory;

import org.agrona.UnsafeApi;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Slabs of closed {@link PageArena}s kept for the next arena, so that a process which builds, rotates and closes
 * indexes stops paying a page fault for every page of every new index.
 *
 * <p>The first write to a page the process has never touched costs a page fault (a kernel entry and a zeroed
 * page, about as much as inserting the page's worth of keys). A heap map stops paying it once its heap is warm;
 * an off-heap arena that returns its slabs to the C allocator on close pays it again for the next index, since
 * slabs from 32 MiB up go straight back to the operating system. With a pool, {@link PageArena#close()} hands
 * its slabs here instead, up to {@link #maxBytes()}, and the next arena of the same page size and huge-page
 * setting takes them back before asking the operating system: its pages are already mapped (and, where the
 * kernel accepted the advice, backed by huge pages).
 *
 * <h2>Memory</h2>
 * Idle slabs are off-heap memory owned by the pool until an arena takes them or {@link #clear()} frees them.
 * They are not zeroed (neither are an arena's fresh pages). The pool holds at most {@link #maxBytes()} bytes;
 * a slab that would take it over the bound is freed at once. The process-wide pool, {@link #shared()}, is the
 * default of every arena; its bound is the system property {@value #MAX_BYTES_PROPERTY} (bytes, read once,
 * default {@value #DEFAULT_MAX_BYTES}: enough for the slabs of an index of about ten million entries, a
 * bounded price for an idle process, and 0 turns pooling off). Call {@link #clear()} to give idle memory back.
 *
 * <h2>Thread safety</h2>
 * All methods are thread-safe; taking and returning a slab happen once per slab (at most a few per index),
 * under one lock.
 */
public final class SlabPool {
    /** System property with the bound of {@link #shared()}, in bytes; 0 disables pooling. */
    public static final String MAX_BYTES_PROPERTY = "nearsort.slabPool.maxBytes";
    /** Bound of {@link #shared()} when the property is not set: 256 MiB. */
    public static final long DEFAULT_MAX_BYTES = 256L << 20;

    private static final SlabPool DISABLED = new SlabPool(0);
    private static volatile SlabPool shared;

    private final long maxBytes;
    private final Map<Shape, ArrayDeque<long[]>> idle = new HashMap<>();

    // Guarded by this.
    private long bytesPooled;
    private long slabsPooled;
    private long hits;
    private long misses;
    private long bytesReused;
    private long slabsFreedOverBound;

    private SlabPool(final long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * The process-wide pool, bounded by {@value #MAX_BYTES_PROPERTY} (read at the first call).
     *
     * @return the one shared pool, the same instance on every call
     * @throws IllegalArgumentException when the property is set to anything but a number of bytes >= 0
     */
    public static SlabPool shared() {
        SlabPool pool = shared;
        if (pool == null) {
            synchronized (SlabPool.class) {
                pool = shared;
                if (pool == null) {
                    pool = new SlabPool(maxBytesFromProperty(System.getProperty(MAX_BYTES_PROPERTY)));
                    shared = pool;
                }
            }
        }
        return pool;
    }

    /**
     * A pool that keeps nothing: arenas built with it free their slabs on close, as without a pool.
     *
     * @return the shared pool that keeps nothing
     */
    public static SlabPool disabled() {
        return DISABLED;
    }

    /**
     * A private pool holding at most {@code maxBytes} of idle slabs.
     *
     * @param maxBytes the most idle bytes to keep, {@code >= 0}; 0 keeps nothing
     * @return a new pool, or {@link #disabled()} when {@code maxBytes} is 0
     * @throws IllegalArgumentException when {@code maxBytes} is negative
     */
    public static SlabPool create(final long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must be >= 0 (got: " + maxBytes + ")");
        }
        return maxBytes == 0 ? DISABLED : new SlabPool(maxBytes);
    }

    /** Parses the {@value #MAX_BYTES_PROPERTY} value; null means the default. Package-private for tests. */
    static long maxBytesFromProperty(final String value) {
        if (value == null) {
            return DEFAULT_MAX_BYTES;
        }
        try {
            final long bytes = Long.parseLong(value.trim());
            if (bytes >= 0) {
                return bytes;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("system property " + MAX_BYTES_PROPERTY
                + " must be a number of bytes >= 0 (got: '" + value + "')");
    }

    /**
     * Largest number of idle bytes kept.
     *
     * @return the bound on idle bytes, {@code >= 0}
     */
    public long maxBytes() {
        return maxBytes;
    }

    /**
     * Idle bytes held now, counting each slab's alignment slack.
     *
     * @return the bytes of the idle slabs held now
     */
    public synchronized long bytesPooled() {
        return bytesPooled;
    }

    /**
     * Idle slabs held now.
     *
     * @return the number of idle slabs held now
     */
    public synchronized long slabsPooled() {
        return slabsPooled;
    }

    /**
     * Slabs arenas took from the pool instead of the operating system.
     *
     * @return the number of slabs reused, since the pool was created
     */
    public synchronized long hits() {
        return hits;
    }

    /**
     * Slabs arenas asked for and had to get from the operating system.
     *
     * @return the number of slabs not found in the pool, since it was created
     */
    public synchronized long misses() {
        return misses;
    }

    /**
     * Bytes arenas took from the pool instead of the operating system, in total.
     *
     * @return the bytes of all slabs reused, since the pool was created
     */
    public synchronized long bytesReused() {
        return bytesReused;
    }

    /**
     * Slabs freed on return because keeping them would have taken the pool over {@link #maxBytes()}.
     *
     * @return the number of slabs freed for the bound, since the pool was created
     */
    public synchronized long slabsFreedOverBound() {
        return slabsFreedOverBound;
    }

    /** Frees every idle slab; safe at any time (arenas in use keep their slabs). */
    public synchronized void clear() {
        for (final ArrayDeque<long[]> slabs : idle.values()) {
            for (final long[] slab : slabs) {
                UnsafeApi.freeMemory(slab[0]);
            }
        }
        idle.clear();
        bytesPooled = 0;
        slabsPooled = 0;
    }

    /**
     * An idle slab of exactly {@code rawBytes} allocated for pages of {@code pageSize} with the given huge-page
     * setting, or null: {@code {rawAddress, 1 if huge pages were advised else 0}}.
     */
    synchronized long[] take(final long rawBytes, final int pageSize, final boolean hugePages) {
        final ArrayDeque<long[]> slabs = maxBytes == 0 ? null : idle.get(new Shape(rawBytes, pageSize, hugePages));
        if (slabs == null || slabs.isEmpty()) {
            misses++;
            return null;
        }
        final long[] slab = slabs.pop();
        hits++;
        bytesReused += rawBytes;
        bytesPooled -= rawBytes;
        slabsPooled--;
        return slab;
    }

    /**
     * Keeps a slab an arena no longer needs, or frees it when that would exceed the bound.
     *
     * @return whether the pool kept it
     */
    synchronized boolean give(final long rawAddress, final long rawBytes, final int pageSize, final boolean hugePages,
                              final boolean advised) {
        if (bytesPooled + rawBytes > maxBytes) {
            UnsafeApi.freeMemory(rawAddress);
            if (maxBytes > 0) {
                slabsFreedOverBound++;
            }
            return false;
        }
        idle.computeIfAbsent(new Shape(rawBytes, pageSize, hugePages), shape -> new ArrayDeque<>())
                .push(new long[] {rawAddress, advised ? 1 : 0});
        bytesPooled += rawBytes;
        slabsPooled++;
        return true;
    }

    @Override
    public synchronized String toString() {
        return "SlabPool{maxBytes=" + maxBytes + ", bytesPooled=" + bytesPooled + ", slabsPooled=" + slabsPooled
                + ", hits=" + hits + ", misses=" + misses + ", bytesReused=" + bytesReused
                + ", slabsFreedOverBound=" + slabsFreedOverBound + "}";
    }

    /** Slabs are interchangeable when their size, alignment and huge-page setting match. */
    private record Shape(long rawBytes, int pageSize, boolean hugePages) {
    }
}
