package io.nearsort.ldi.projection;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Streaming cursors against a brute-force scan, with windows small enough that every scan takes many passes and
 * wide (non-compacted) buckets are re-read: the rows, their order, the memory bound, the snapshot.
 */
class RowCursorTest {
    @TempDir
    Path dir;

    private final StoreOracle oracle = new StoreOracle();

    @Test
    void smallWindowsStreamExactlyTheRowsInOrder() throws IOException {
        for (int window : new int[] {1, 7, 300}) {
            final Path d = dir.resolve("w" + window);
            final ColumnStoreOptions o = ColumnStoreTest.OPTIONS.toBuilder().cursorWindow(window).maintenance(0)
                    .build();
            final StoreOracle rows = new StoreOracle();
            final SplittableRandom rnd = new SplittableRandom(31 + window);
            try (ColumnStore store = ColumnStore.open(d, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, o)) {
                rows.appendBatch(store, 6000, rnd);
                rows.checkScans(store, rnd, window == 1 ? 3 : 8);  // buckets on disk, queued and buffered
                store.flush();
                rows.appendRows(store, 500, rnd);
                rows.checkScans(store, rnd, window == 1 ? 3 : 8);
                try (RowCursor c = store.scan("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "id")) {
                    int n = 0;
                    while (c.next()) {
                        n++;
                    }
                    assertEquals(rows.rows.size(), n);
                    assertTrue(c.peakRows() <= 2 * window, "held " + c.peakRows() + " rows, window " + window);
                    assertTrue(c.passes() >= rows.rows.size() / window, c.toString());
                }
            }
        }
    }

    @Test
    void aCursorIsASnapshotAndKeepsItsSegments() throws IOException {
        final ColumnStoreOptions o = ColumnStoreTest.OPTIONS.toBuilder().cursorWindow(50).maintenance(0)
                .segmentBytes(16 * 1024).retainedCommits(1).reclamation(0).build();
        final SplittableRandom rnd = new SplittableRandom(32);
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, o)) {
            oracle.appendRows(store, 8000, rnd);
            store.flush();
            final long lo = 1000;
            final long hi = 5000;
            final List<String> expected = oracle.expectedById(lo, hi);
            final List<String> got = new ArrayList<>();
            try (RowCursor c = store.scan("by_id", lo, hi, "id", "note")) {
                for (int i = 0; i < 100 && c.next(); i++) {
                    got.add(c.getLong(0) + "/" + c.rowId() + "/" + c.getString(1));
                }
                // Meanwhile: more rows, maintenance of every bucket, reclamation of every segment, commits.
                oracle.appendRows(store, 3000, rnd);
                store.maintain("by_id");
                store.reclaim("by_id", 0);
                store.flush();
                store.flush();
                final long files = store.stats("by_id").segments();
                while (c.next()) {
                    got.add(c.getLong(0) + "/" + c.rowId() + "/" + c.getString(1));
                }
                assertEquals(expected, got, "the cursor sees the rows of when it was opened");
                assertFalse(c.next());
                store.flush();
                assertTrue(store.stats("by_id").segments() < files, "segments the cursor read are deleted once it"
                        + " is done: " + files + " -> " + store.stats("by_id").segments());
            }
            oracle.checkScans(store, rnd, 5);
        }
    }

    @Test
    void cursorsFailClearlyWhenMisused() throws IOException {
        final ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                ColumnStoreTest.OPTIONS);
        oracle.appendRows(store, 100, new SplittableRandom(33));
        final RowCursor c = store.scan("by_id", 0L, 50L, "id", "note");
        assertThrows(IllegalStateException.class, c::rowId, "before next()");
        assertTrue(c.next());
        assertThrows(IllegalArgumentException.class, () -> c.getDouble(0));
        assertThrows(IllegalArgumentException.class, () -> c.getString(0));
        assertThrows(IllegalArgumentException.class, () -> c.getLong(1));
        assertThrows(IllegalArgumentException.class, () -> c.getLong(2));
        assertThrows(IllegalArgumentException.class, () -> c.getLong("amount"));
        assertEquals(c.getLong(0), c.get(0));
        assertThrows(IllegalArgumentException.class, () -> store.scan("by_id", 0L, 1L, "amount"));
        assertThrows(IllegalArgumentException.class, () -> store.scan("by_id", 0.0, 1.0, "id"));
        assertThrows(IllegalArgumentException.class, () -> store.scan("by_distance", 0L, 1L, "distance"));
        final RowCursor open = store.scan("by_id", 0L, 50L, "id");
        store.close();
        final IllegalStateException e = assertThrows(IllegalStateException.class, c::next);
        assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("closed"), e.getMessage());
        c.close();
        assertThrows(IllegalStateException.class, c::next);
        open.close();
    }
}
