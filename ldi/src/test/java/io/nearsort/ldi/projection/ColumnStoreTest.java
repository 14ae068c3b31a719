package io.nearsort.ldi.projection;

import io.nearsort.core.CorruptFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The LDI column store against a brute-force scan of the appended rows: live, after flush, after reopen. */
class ColumnStoreTest {
    static final Schema SCHEMA = StoreOracle.SCHEMA;
    static final List<Projection> PROJECTIONS = StoreOracle.PROJECTIONS;
    static final ColumnStoreOptions OPTIONS = ColumnStoreOptions.builder().buckets(32, 512)
            .training(1000, 16, 2048).readers(3, 2.0, 8).build();

    @TempDir
    Path dir;

    private final StoreOracle oracle = new StoreOracle();
    private final List<Object[]> rows = oracle.rows;

    private void appendRows(final ColumnStore store, final int n, final SplittableRandom rnd) {
        oracle.appendRows(store, n, rnd);
    }

    private void checkQueries(final ColumnStore store, final SplittableRandom rnd, final int queries)
            throws IOException {
        oracle.checkQueries(store, rnd, queries);
    }

    @Test
    void queriesMatchBruteForceLiveAfterFlushAndAfterReopen() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(5);
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, OPTIONS)) {
            appendRows(store, 600, rnd);
            checkQueries(store, rnd, 30);       // still in the training prefix: served from memory
            appendRows(store, 15_000, rnd);
            checkQueries(store, rnd, 60);       // buckets on disk, in flight and in the buffer
            store.flush();
            checkQueries(store, rnd, 30);
            assertTrue(store.buckets("by_id") >= 15_600 / 32);
            assertTrue(store.ioStats().bucketRequests() > 0);
            assertTrue(store.ioStats().writePhases() > 0);
        }
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, OPTIONS)) {
            assertEquals(rows.size(), store.rows());
            checkQueries(store, rnd, 60);
            appendRows(store, 3000, rnd);       // row ids continue after reopening
            checkQueries(store, rnd, 30);
        }
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, OPTIONS)) {
            assertEquals(rows.size(), store.rows());
            checkQueries(store, rnd, 30);
        }
    }

    @Test
    void maintenanceSortMergesNonCompactedBucketsAndLosesNoRow() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(11);
        final ColumnStoreOptions onDemand = OPTIONS.toBuilder().maintenance(0).build();
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, onDemand)) {
            appendRows(store, 12_000, rnd);
            store.flush();
            final ProjectionStats before = store.stats("by_distance");
            assertTrue(before.nonCompacted() >= 2, "the skewed key makes non-compacted buckets: " + before);
            final MaintenanceReport r = store.maintain("by_distance");
            assertEquals(before.nonCompacted(), r.bucketsMerged());
            assertTrue(r.bucketsWritten() > 0 && r.rowsRewritten() > 0);
            assertTrue(r.arbAfter() > r.arbBefore(), r.toString());
            assertEquals(r.arbAfter(), store.arb("by_distance"), 1e-12);
            final ProjectionStats after = store.stats("by_distance");
            assertEquals(0, after.nonCompacted());
            assertEquals(before.buckets() - r.bucketsMerged() + r.bucketsWritten(), after.buckets());
            assertTrue(after.deadBytes() > 0);
            checkQueries(store, rnd, 40);
            appendRows(store, 2000, rnd);
            checkQueries(store, rnd, 20);
            store.flush();
            final MaintenanceReport byId = store.maintain("by_id");
            // A single non-compacted bucket has nothing to merge with and stays.
            assertTrue(store.stats("by_id").nonCompacted() <= 1, byId.toString());
            assertEquals(byId.arbAfter(), store.arb("by_id"), 1e-12);
            checkQueries(store, rnd, 20);
        }
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, onDemand)) {
            assertEquals(rows.size(), store.rows());
            assertEquals(0, store.stats("by_distance").indexBuilds(), "the IB-tree file matches the directory");
            checkQueries(store, rnd, 40);
        }
    }

    @Test
    void backgroundMaintenanceRunsDuringIngest() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(12);
        final ColumnStoreOptions background = OPTIONS.toBuilder().maintenance(4).build();
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, background)) {
            appendRows(store, 12_000, rnd);
            checkQueries(store, rnd, 20);
            store.flush();
            final ProjectionStats s = store.stats("by_distance");
            assertTrue(s.maintenanceRuns() > 0 && s.bucketsMerged() >= 2 * s.maintenanceRuns(), s.toString());
            checkQueries(store, rnd, 20);
        }
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, background)) {
            checkQueries(store, rnd, 20);
        }
    }

    @Test
    void theOnDiskIbTreeIsRebuiltWhenStaleAndReportedWhenCorrupt() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(13);
        final ColumnStoreOptions small = OPTIONS.toBuilder().index(1, 2).build();
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, small)) {
            appendRows(store, 8000, rnd);
        }
        final Path index = dir.resolve("by_id.ibt");
        final Path saved = dir.resolve("saved.ibt");
        Files.copy(index, saved);
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, small)) {
            appendRows(store, 2000, rnd);
        }
        Files.copy(saved, index, java.nio.file.StandardCopyOption.REPLACE_EXISTING); // built from an older directory
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, small)) {
            assertEquals(1, store.stats("by_id").indexBuilds());
            checkQueries(store, rnd, 30);
            assertTrue(store.stats("by_id").indexNodeReads() > 2, "nodes are read from disk through a small cache");
        }
        Files.delete(index);
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, small)) {
            assertEquals(1, store.stats("by_id").indexBuilds());
            checkQueries(store, rnd, 10);
        }
        try (RandomAccessFile f = new RandomAccessFile(index.toFile(), "rw")) {
            f.seek(4096 + 100);
            final int b = f.read();
            f.seek(4096 + 100);
            f.write(b ^ 1);
        }
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, small)) {
            final CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> store.query("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "id"));
            assertTrue(e.getMessage().contains("by_id.ibt"), e.getMessage());
        }
    }

    @Test
    void corruptionIsReportedNotReturned() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(9);
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, OPTIONS)) {
            appendRows(store, 4000, rnd);
        }
        final Path data = io.nearsort.ldi.io.Segments.path(dir, "by_id", 0);
        final long size = Files.size(data);
        try (RandomAccessFile f = new RandomAccessFile(data.toFile(), "rw")) {
            final long at = size / 2;
            f.seek(at);
            final int b = f.read();
            f.seek(at);
            f.write(b ^ 0x10);
        }
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, OPTIONS)) {
            final CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> store.query("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "id"));
            assertTrue(e.getMessage().contains("by_id.000000.seg"), e.getMessage());
            // The other projection's file is intact.
            assertEquals(4000, store.query("by_distance", -10.0, 1000.0, "amount").size());
        }
        try (RandomAccessFile f = new RandomAccessFile(data.toFile(), "rw")) {
            f.setLength(size - 100);
        }
        final CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> ColumnStore.open(dir, SCHEMA, PROJECTIONS, OPTIONS));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void badInputIsRejectedWithClearMessages() throws IOException {
        assertThrows(IllegalArgumentException.class, () -> ColumnStore.open(dir, SCHEMA,
                List.of(Projection.of("a", "id", "id", "note"), Projection.of("b", "amount", "amount", "note"))));
        assertThrows(IllegalArgumentException.class, () -> ColumnStore.open(dir, SCHEMA,
                List.of(Projection.of("a", "note", "note"))));
        assertThrows(IllegalArgumentException.class, () -> Projection.of("a", "id", "note"));
        try (ColumnStore store = ColumnStore.open(dir, SCHEMA, PROJECTIONS, OPTIONS)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> store.append(1L, "x", 1.0, "TOOLONG", 5L));
            assertTrue(e.getMessage().contains("flag"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> store.append(1L, "x", "1.0", "Y", 5L));
            assertTrue(e.getMessage().contains("distance"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.append(1L, "x", Double.NaN, "Y", 5L));
            assertThrows(IllegalArgumentException.class, () -> store.append(1L, null, 1.0, "Y", 5L));
            assertThrows(IllegalArgumentException.class, () -> store.append(1L));
            assertThrows(IllegalArgumentException.class, () -> store.query("by_id", 0.0, 1.0, "id"));
            assertThrows(IllegalArgumentException.class, () -> store.query("by_id", 0L, 1L, "amount"));
            assertThrows(IllegalArgumentException.class, () -> store.query("nope", 0L, 1L, "id"));
            assertThrows(IllegalArgumentException.class, () -> store.aggregate("by_id", 0L, 1L, "note"));
            assertEquals(0, store.rows());
            store.append(7L, "x", 1.0, "Y", 5L);
        }
        final Schema other = Schema.of(Column.longColumn("id"), Column.longColumn("note"),
                Column.doubleColumn("distance"), Column.fixedString("flag", 3), Column.longColumn("amount"));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ColumnStore.open(dir, other, PROJECTIONS, OPTIONS));
        assertTrue(e.getMessage().contains("store.manifest") && e.getMessage().contains(dir.toString())
                && e.getMessage().contains("note:LONG"), e.getMessage());
        final ColumnStore closed = ColumnStore.open(dir, SCHEMA, PROJECTIONS, OPTIONS);
        closed.close();
        assertThrows(IllegalStateException.class, () -> closed.append(1L, "x", 1.0, "Y", 5L));
    }
}
