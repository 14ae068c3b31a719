package io.nearsort.ldi.projection;

import io.nearsort.ldi.io.StoreLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lock, the memory budget, opening by directory alone, and the errors that name the store. */
class StoreOperationsTest {
    @TempDir
    Path dir;

    private final StoreOracle oracle = new StoreOracle();

    @Test
    void oneOpenAtATime() throws IOException {
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS)) {
            final StoreLock.StoreLockedException e = assertThrows(StoreLock.StoreLockedException.class,
                    () -> ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS));
            assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("store.lock"),
                    e.getMessage());
            assertThrows(StoreLock.StoreLockedException.class, () -> ColumnStore.open(dir));
            store.append(1L, "a", 1.0, "Y", 1L);
        }
        try (ColumnStore store = ColumnStore.open(dir)) {
            assertEquals(1, store.rows(), "reopened by directory alone, with the stored schema");
            assertEquals(StoreOracle.SCHEMA.columns(), store.layout().schema().columns());
        }
    }

    @Test
    void openWhenReleasedWaitsForTheOwnerToCloseUpToItsTimeout() throws Exception {
        final ColumnStore owner = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS);
        final long start = System.nanoTime();
        assertThrows(StoreLock.StoreLockedException.class, () -> ColumnStore.openWhenReleased(300,
                () -> ColumnStore.open(dir)));
        assertTrue(System.nanoTime() - start >= 300_000_000L, "waited the timeout before giving up");
        final Thread closer = new Thread(() -> {
            try {
                Thread.sleep(300);
                owner.close();
            } catch (InterruptedException | IOException e) {
                throw new IllegalStateException(e);
            }
        });
        closer.start();
        try (ColumnStore next = ColumnStore.openWhenReleased(30_000, () -> ColumnStore.open(dir))) {
            assertEquals(0, next.rows(), "opened once the owner closed");
        } finally {
            closer.join();
        }
        assertThrows(IllegalArgumentException.class, () -> ColumnStore.openWhenReleased(-1,
                () -> ColumnStore.open(dir)));
    }

    @Test
    void openingWhatIsNotAStoreFailsNamingIt() throws IOException {
        final NoSuchFileException e = assertThrows(NoSuchFileException.class,
                () -> ColumnStore.open(dir.resolve("nothing")));
        assertTrue(e.getMessage().contains("nothing"), e.getMessage());
        Files.writeString(dir.resolve("by_id.ldi"), "old");
        final IllegalArgumentException old = assertThrows(IllegalArgumentException.class,
                () -> ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS));
        assertTrue(old.getMessage().contains("by_id.ldi") && old.getMessage().contains("earlier format"),
                old.getMessage());
        Files.delete(dir.resolve("by_id.ldi"));
        Files.writeString(dir.resolve("by_id.000003.seg"), "orphan");
        final IllegalArgumentException orphan = assertThrows(IllegalArgumentException.class,
                () -> ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS));
        assertTrue(orphan.getMessage().contains("no store.manifest"), orphan.getMessage());
    }

    @Test
    void theMemoryBudgetIsCheckedAtOpenAndEnforcedWithAClearError() throws IOException {
        final ColumnStoreOptions tiny = ColumnStoreTest.OPTIONS.toBuilder().memoryBudget(10_000).build();
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, tiny));
        assertTrue(e.getMessage().contains("memoryBudget") && e.getMessage().contains("10000"), e.getMessage());
        assertTrue(Files.notExists(dir.resolve("store.manifest")), "nothing was created");

        final ColumnStoreOptions small = ColumnStoreTest.OPTIONS.toBuilder().memoryBudget(4 << 20).build();
        final SplittableRandom rnd = new SplittableRandom(71);
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, small)) {
            oracle.appendRows(store, 2000, rnd);
            store.flush();
            final String huge = "x".repeat(1 << 20);
            final MemoryBudgetExceededException over = assertThrows(MemoryBudgetExceededException.class, () -> {
                for (int i = 0; i < 100; i++) {
                    store.append(5L, huge, 1.0, "Y", 1L);
                }
            });
            assertTrue(over.getMessage().contains(dir.toString()) && over.getMessage().contains("memory budget"),
                    over.getMessage());
            final long rows = store.rows();
            assertTrue(rows > 2000 && rows < 2100);
            assertTrue(store.stats().memoryBytes() <= store.stats().memoryBudget());
            store.flush(); // the rows that fitted are committed; the store stays usable
            for (long i = 2000; i < rows; i++) {
                oracle.rows.add(new Object[] {5L, huge, 1.0, "Y", 1L});
            }
            oracle.appendRows(store, 100, rnd);
            oracle.checkQueries(store, rnd, 5);
        }
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                ColumnStoreTest.OPTIONS.toBuilder().cursorWindow(1 << 20).memoryBudget(8 << 20).build())) {
            final MemoryBudgetExceededException cursor = assertThrows(MemoryBudgetExceededException.class,
                    () -> store.scan("by_id", 0L, 10L, "id", "note"));
            assertTrue(cursor.getMessage().contains("cursorWindowRows"), cursor.getMessage());
            assertEquals(0, store.stats().memoryBytes(), "nothing stays reserved by a refused cursor");
        }
    }
}
