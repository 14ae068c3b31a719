package io.nearsort.ldi.projection;

import io.nearsort.ldi.io.Segments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Space reclamation: maintenance leaves dead bytes in sealed segments; reclamation copies their live buckets away,
 * and the segment files are deleted once no retained commit point refers to them — queries stay exact throughout.
 */
class ReclamationTest {
    @TempDir
    Path dir;

    private final StoreOracle oracle = new StoreOracle();

    private static long segmentBytes(final ColumnStore store) {
        long sum = 0;
        for (ProjectionStats s : store.stats().projections().values()) {
            sum += s.dataBytes();
        }
        return sum;
    }

    @Test
    void onDemandReclamationGivesTheSpaceBackAfterTheRetainedCommits() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(61);
        final ColumnStoreOptions o = ColumnStoreTest.OPTIONS.toBuilder().maintenance(0).reclamation(0)
                .segmentBytes(32 * 1024).retainedCommits(2).build();
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, o)) {
            oracle.appendRows(store, 15_000, rnd);
            store.flush(Map.of("c", "1"));
            assertEquals(0, store.stats().deadBytes());
            store.maintain("by_distance");
            store.flush(Map.of("c", "2"));
            final StoreStats afterMaintenance = store.stats();
            final ProjectionStats before = store.stats("by_distance");
            assertTrue(before.deadBytes() > 0 && before.segments() > 3, before.toString());
            assertEquals(afterMaintenance.deadBytes(), before.deadBytes() + store.stats("by_id").deadBytes());
            final long filesBefore = segmentBytes(store);

            final ReclaimReport r = store.reclaim("by_distance", 0.0);
            assertTrue(r.segments() > 0 && r.bucketsMoved() > 0, r.toString());
            oracle.checkQueries(store, rnd, 10);
            store.flush(Map.of("c", "3"));
            // Commit 2 still refers to the old segments: nothing is deleted yet.
            assertEquals(0, store.stats("by_distance").segmentsDeleted());
            store.flush(Map.of("c", "4"));
            final ProjectionStats after = store.stats("by_distance");
            assertTrue(after.segmentsDeleted() > 0 && after.bytesReclaimed() > 0, after.toString());
            assertTrue(after.deadBytes() < before.deadBytes() / 2, before + " -> " + after);
            assertTrue(segmentBytes(store) < filesBefore, filesBefore + " -> " + segmentBytes(store));
            assertEquals(after.segments(), Segments.list(dir, "by_distance").size());
            oracle.checkQueries(store, rnd, 20);
            oracle.checkScans(store, rnd, 4);
        }
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, o)) {
            assertEquals("4", store.lastCommit().orElseThrow().metadata().get("c"));
            oracle.checkQueries(store, rnd, 20);
        }
        // The commit before the last is retained: its segments are all still there.
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                o.toBuilder().atCommit(3).build())) {
            oracle.checkQueries(store, rnd, 20);
        }
    }

    @Test
    void backgroundReclamationKeepsALongIngestBounded() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(62);
        final ColumnStoreOptions o = ColumnStoreTest.OPTIONS.toBuilder().maintenance(4).reclamation(0.3)
                .segmentBytes(16 * 1024).retainedCommits(1).build();
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, o)) {
            for (int c = 0; c < 30; c++) {
                oracle.appendBatch(store, 800, rnd);
                store.flush(Map.of("c", Integer.toString(c)));
            }
            final ProjectionStats s = store.stats("by_distance");
            assertTrue(s.maintenanceRuns() > 0 && s.bucketsMoved() > 0 && s.segmentsDeleted() > 0, s.toString());
            final StoreStats all = store.stats();
            assertTrue(all.deadBytes() < all.liveBytes(), all.toString());
            oracle.checkQueries(store, rnd, 20);
            oracle.checkScans(store, rnd, 4);
        }
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, o)) {
            oracle.checkQueries(store, rnd, 20);
        }
    }
}
