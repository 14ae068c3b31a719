package io.nearsort.core.memory;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PageArenaTest {

    @Test
    void pagesAreAlignedDistinctWritableAndCounted() {
        try (PageArena arena = PageArena.ofPageSize(1024)) {
            assertEquals(0, arena.bytesAllocated(), "slabs are allocated lazily");
            final Set<Long> pages = new HashSet<>();
            final UnsafeBuffer flyweight = new UnsafeBuffer();
            for (int i = 0; i < 1000; i++) {
                final long page = arena.allocate();
                assertNotEquals(0L, page);
                assertEquals(0, page % 1024, "page-aligned");
                assertTrue(pages.add(page), "distinct");
                arena.wrap(flyweight, page).putLong(1016, i);
            }
            assertEquals(1000, arena.pagesInUse());
            assertEquals(1000L * 1024, arena.bytesInUse());
            assertTrue(arena.bytesAllocated() >= arena.bytesInUse());
            int i = 0;
            for (final long page : pages) {
                assertTrue(arena.wrap(flyweight, page).getLong(1016) < 1000);
                i++;
            }
            assertEquals(1000, i);
        }
    }

    @Test
    void slabsGrowGeometricallyFromASmallFirstSlab() {
        try (PageArena arena = PageArena.builder().pageSize(4096).maxSlabBytes(1 << 20).build()) {
            arena.allocate();
            final long first = arena.bytesAllocated();
            assertTrue(first <= 16 * 4096 + 4096, "first slab is small: " + first);
            for (int i = 0; i < 2000; i++) {
                arena.allocate();
            }
            assertTrue(arena.bytesAllocated() < 2 * 2001L * 4096 + (1 << 20), "bounded slab growth");
        }
    }

    @Test
    void freedPagesAreReusedBeforeNewOnesAreCarved() {
        try (PageArena arena = PageArena.ofPageSize(512)) {
            final List<Long> pages = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                pages.add(arena.allocate());
            }
            final long allocated = arena.bytesAllocated();
            for (final long page : pages) {
                arena.free(page);
            }
            assertEquals(0, arena.bytesInUse());
            final Set<Long> reused = new HashSet<>();
            for (int i = 0; i < 100; i++) {
                reused.add(arena.allocate());
            }
            assertEquals(new HashSet<>(pages), reused);
            assertEquals(allocated, arena.bytesAllocated());
        }
    }

    @Test
    void closeFreesEverySlabAndLaterCallsFail() {
        final PageArena arena = PageArena.ofPageSize(4096);
        final long page = arena.allocate();
        for (int i = 0; i < 100; i++) {
            arena.allocate();
        }
        arena.close();
        arena.close();
        assertTrue(arena.isClosed());
        assertEquals(0, arena.bytesAllocated());
        assertEquals(0, arena.bytesInUse());
        assertEquals(0, arena.pagesInUse());
        final IllegalStateException e = assertThrows(IllegalStateException.class, arena::allocate);
        assertTrue(e.getMessage().contains("closed"));
        assertThrows(IllegalStateException.class, () -> arena.free(page));
    }

    @Test
    void doubleFreeAndForeignAddressesAreRejectedWithChecksOn() {
        assertTrue(MemoryChecks.ENABLED, "the test build runs with -Dnearsort.checks=true");
        try (PageArena arena = PageArena.ofPageSize(512)) {
            final long page = arena.allocate();
            arena.free(page);
            assertThrows(IllegalArgumentException.class, () -> arena.free(page));
            final long foreign = UnsafeApi.allocateMemory(512);
            try {
                final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> arena.free(foreign));
                assertTrue(e.getMessage().contains("page"), e.getMessage());
            } finally {
                UnsafeApi.freeMemory(foreign);
            }
            assertEquals(0, arena.pagesInUse(), "rejected frees change nothing");
        }
    }

    @Test
    void builderValidatesNamingTheParameter() {
        for (final int bad : new int[] {0, 256, 511, 513, 3000, 1 << 21}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> PageArena.builder().pageSize(bad));
            assertTrue(e.getMessage().contains("pageSize") && e.getMessage().contains("got: " + bad));
            assertFalse(PageArena.isValidPageSize(bad), "isValidPageSize(" + bad + ")");
        }
        for (final int good : new int[] {512, 1024, 4096, 8192, 1 << 20}) {
            assertTrue(PageArena.isValidPageSize(good), "isValidPageSize(" + good + ")");
        }
        assertFalse(PageArena.isValidPageSize(-4096));
        assertEquals(8192, PageArena.checkPageSize("blockSize", 8192));
        final IllegalArgumentException named = assertThrows(IllegalArgumentException.class,
                () -> PageArena.checkPageSize("blockSize", 3000));
        assertEquals("blockSize must be a power of two in [512, 1048576] (got: 3000)", named.getMessage());
        assertFalse(PageArena.isValidPageSize(Integer.MIN_VALUE));
        assertThrows(IllegalArgumentException.class, () -> PageArena.builder().maxSlabBytes(100));
        assertThrows(IllegalArgumentException.class, () -> PageArena.builder().pageSize(8192).maxSlabBytes(4096)
                .build());
        assertThrows(IllegalArgumentException.class, () -> PageArena.builder().threadCacheCapacity(1));
        PageArena.builder().pageSize(512).build().close();
        PageArena.builder().pageSize(1 << 20).build().close();
    }

    @Test
    void concurrentArenaHandsOutEachPageToOneThreadAtATime() throws InterruptedException {
        final int threads = 4;
        final int rounds = 20_000;
        try (PageArena arena = PageArena.builder().pageSize(512).concurrent(true).threadCacheCapacity(16).build()) {
            assertTrue(arena.isConcurrent());
            final Set<Long> owned = ConcurrentHashMap.newKeySet();
            final List<Throwable> failures = new ArrayList<>();
            final CountDownLatch start = new CountDownLatch(1);
            final List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int id = t;
                final Thread worker = new Thread(() -> {
                    try {
                        start.await();
                        final List<Long> mine = new ArrayList<>();
                        final UnsafeBuffer flyweight = new UnsafeBuffer();
                        for (int i = 0; i < rounds; i++) {
                            if (mine.isEmpty() || (i * 31 + id) % 3 != 0) {
                                final long page = arena.allocate();
                                if (!owned.add(page)) {
                                    throw new AssertionError("page handed out twice: " + page);
                                }
                                arena.wrap(flyweight, page).putLong(8, id);
                                mine.add(page);
                            } else {
                                final long page = mine.remove(mine.size() - 1);
                                if (arena.wrap(flyweight, page).getLong(8) != id) {
                                    throw new AssertionError("page written by another thread");
                                }
                                owned.remove(page);
                                arena.free(page);
                            }
                        }
                        for (final long page : mine) {
                            owned.remove(page);
                            arena.free(page);
                        }
                    } catch (final Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                });
                workers.add(worker);
                worker.start();
            }
            start.countDown();
            for (final Thread worker : workers) {
                worker.join();
            }
            assertTrue(failures.isEmpty(), failures.toString());
            assertEquals(0, arena.pagesInUse());
            assertEquals(0, arena.bytesInUse());
            assertFalse(arena.isClosed());
        }
    }
}
