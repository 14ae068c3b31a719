package io.nearsort.core.memory;

import io.nearsort.core.Indexes;
import io.nearsort.core.LongIndex;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlabPoolTest {
    private static final int PAGE = 4096;
    /** The first slab of an arena: 16 pages, plus one page of alignment slack. */
    private static final long FIRST_SLAB_RAW = 17L * PAGE;

    @Test
    void aClosedArenasSlabsGoToTheNextArena() {
        final SlabPool pool = SlabPool.create(64L << 20);
        final long first;
        try (PageArena arena = PageArena.builder().slabPool(pool).hugePages(false).build()) {
            first = arena.allocate();
            new UnsafeBuffer(first, PAGE).putLong(0, 42);
        }
        assertEquals(1, pool.slabsPooled());
        assertEquals(FIRST_SLAB_RAW, pool.bytesPooled());
        assertEquals(0, pool.hits());
        assertEquals(1, pool.misses());
        try (PageArena arena = PageArena.builder().slabPool(pool).hugePages(false).build()) {
            assertEquals(first, arena.allocate(), "the same slab, carved from its start again");
            assertEquals(FIRST_SLAB_RAW, arena.bytesAllocated());
            assertEquals(0, pool.bytesPooled());
            assertEquals(1, pool.hits());
            assertEquals(FIRST_SLAB_RAW, pool.bytesReused());
        }
        pool.clear();
        assertEquals(0, pool.bytesPooled());
        assertEquals(0, pool.slabsPooled());
    }

    @Test
    void aClosedArenaHoldsNothingAndFailsClearly() {
        final SlabPool pool = SlabPool.create(64L << 20);
        final PageArena arena = PageArena.builder().slabPool(pool).build();
        for (int i = 0; i < 100; i++) {
            arena.allocate();
        }
        arena.close();
        assertEquals(0, arena.bytesAllocated());
        assertEquals(0, arena.pagesInUse());
        assertTrue(pool.bytesPooled() > 0);
        assertThrows(IllegalStateException.class, arena::allocate);
        pool.clear();
    }

    @Test
    void slabsOfAnotherShapeAreNotHandedOut() {
        final SlabPool pool = SlabPool.create(64L << 20);
        try (PageArena arena = PageArena.builder().slabPool(pool).hugePages(false).build()) {
            arena.allocate();
        }
        try (PageArena arena = PageArena.builder().pageSize(8192).slabPool(pool).hugePages(false).build()) {
            arena.allocate();
        }
        try (PageArena arena = PageArena.builder().slabPool(pool).hugePages(true).build()) {
            arena.allocate();
        }
        assertEquals(0, pool.hits(), "page size and huge-page setting must match");
        assertEquals(3, pool.slabsPooled());
        pool.clear();
    }

    @Test
    void theBoundIsNeverExceeded() {
        final SlabPool pool = SlabPool.create(FIRST_SLAB_RAW * 2);
        final List<PageArena> arenas = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            final PageArena arena = PageArena.builder().slabPool(pool).hugePages(false).build();
            arena.allocate();
            arenas.add(arena);
        }
        for (final PageArena arena : arenas) {
            arena.close();
            assertTrue(pool.bytesPooled() <= pool.maxBytes());
        }
        assertEquals(2, pool.slabsPooled());
        assertEquals(3, pool.slabsFreedOverBound());
        // A second slab (32 pages) does not fit after the first: it is freed.
        try (PageArena arena = PageArena.builder().slabPool(pool).hugePages(false).build()) {
            for (int i = 0; i < 40; i++) {
                arena.allocate();
            }
        }
        assertTrue(pool.bytesPooled() <= pool.maxBytes());
        pool.clear();
    }

    @Test
    void aDisabledPoolKeepsNothing() {
        final SlabPool pool = SlabPool.disabled();
        assertSame(pool, SlabPool.create(0));
        try (PageArena arena = PageArena.builder().slabPool(pool).build()) {
            arena.allocate();
        }
        assertEquals(0, pool.bytesPooled());
        assertEquals(0, pool.slabsFreedOverBound(), "nothing is freed 'over the bound' when pooling is off");
    }

    @Test
    void badBoundsAreRejectedNamingTheParameterOrProperty() {
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> SlabPool.create(-1));
        assertTrue(negative.getMessage().contains("maxBytes"), negative.getMessage());
        for (final String bad : new String[] {"-5", "lots", "1.5", ""}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SlabPool.maxBytesFromProperty(bad));
            assertTrue(e.getMessage().contains(SlabPool.MAX_BYTES_PROPERTY), e.getMessage());
        }
        assertEquals(SlabPool.DEFAULT_MAX_BYTES, SlabPool.maxBytesFromProperty(null));
        assertEquals(0, SlabPool.maxBytesFromProperty("0"));
        assertEquals(1L << 30, SlabPool.maxBytesFromProperty(" 1073741824 "));
        assertThrows(IllegalArgumentException.class, () -> PageArena.builder().slabPool(null));
        assertThrows(IllegalArgumentException.class, () -> Indexes.bPlusTree().slabPool(null));
        assertThrows(IllegalArgumentException.class, () -> Indexes.saBPlusTree().slabPool(null));
    }

    @Test
    void arenasOnManyThreadsNeverShareASlab() throws InterruptedException {
        final SlabPool pool = SlabPool.create(256L << 20);
        final Set<Long> live = ConcurrentHashMap.newKeySet();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            final int seed = t;
            threads.add(new Thread(() -> {
                final SplittableRandom random = new SplittableRandom(seed);
                try {
                    for (int round = 0; round < 200; round++) {
                        try (PageArena arena = PageArena.builder().slabPool(pool).hugePages(false).build()) {
                            final int pages = 1 + random.nextInt(100);
                            final List<Long> mine = new ArrayList<>();
                            for (int p = 0; p < pages; p++) {
                                final long page = arena.allocate();
                                if (!live.add(page)) {
                                    throw new AssertionError("page 0x" + Long.toHexString(page) + " is live twice");
                                }
                                new UnsafeBuffer(page, PAGE).putLong(0, seed);
                                mine.add(page);
                            }
                            for (final long page : mine) {
                                assertEquals(seed, new UnsafeBuffer(page, PAGE).getLong(0));
                                live.remove(page);
                            }
                        }
                    }
                } catch (final Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (final Thread thread : threads) {
            thread.join();
        }
        assertNull(failure.get());
        assertTrue(pool.hits() > 0);
        assertTrue(pool.bytesPooled() <= pool.maxBytes());
        pool.clear();
        assertEquals(0, pool.bytesPooled());
    }

    @Test
    void treesRebuiltOnRecycledSlabsHoldExactlyTheirOwnEntries() {
        final SlabPool pool = SlabPool.create(256L << 20);
        final SplittableRandom random = new SplittableRandom(5);
        for (int round = 0; round < 4; round++) {
            final TreeMap<Long, Long> oracle = new TreeMap<>();
            try (LongIndex index = round % 2 == 0
                    ? Indexes.bPlusTree().slabPool(pool).build()
                    : Indexes.saBPlusTree().bufferCapacity(500).slabPool(pool).build()) {
                for (int i = 0; i < 50_000; i++) {
                    final long key = random.nextLong(100_000) - 50_000;
                    final long value = random.nextLong();
                    index.put(key, value);
                    oracle.put(key, value);
                }
                assertEquals(oracle.size(), index.size());
                oracle.forEach((key, value) -> assertEquals(value, index.getOrDefault(key, ~value)));
                final long[] visited = {0};
                index.forEachInRange(Long.MIN_VALUE, Long.MAX_VALUE, (key, value) -> {
                    assertEquals(oracle.get(key), value);
                    visited[0]++;
                });
                assertEquals(oracle.size(), visited[0]);
            }
            if (round > 0) {
                assertTrue(pool.hits() > 0, "later trees reuse earlier trees' slabs");
            }
        }
        assertNotEquals(0, pool.bytesPooled());
        pool.clear();
    }
}
