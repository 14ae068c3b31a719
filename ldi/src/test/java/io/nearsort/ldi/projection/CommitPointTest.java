package io.nearsort.ldi.projection;

import io.nearsort.ldi.commit.CommitPoint;
import io.nearsort.ldi.commit.ManifestDescriptor;
import io.nearsort.core.CorruptFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Commit points: metadata, reopen at the last and at earlier retained commits, roll-back, manifest rewrites. */
class CommitPointTest {
    static final ColumnStoreOptions OPTIONS = ColumnStoreTest.OPTIONS.toBuilder().retainedCommits(3).build();

    @TempDir
    Path dir;

    @TempDir
    Path saved;

    private final StoreOracle oracle = new StoreOracle();

    private ColumnStore open(final ColumnStoreOptions o) throws IOException {
        return ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, o);
    }

    /** The store holds exactly the oracle's first {@code rows} rows. */
    private void checkHolds(final ColumnStore store, final int rows, final SplittableRandom rnd) throws IOException {
        assertEquals(rows, store.rows());
        final StoreOracle prefix = new StoreOracle();
        prefix.rows.addAll(oracle.rows.subList(0, rows));
        assertEquals(rows, store.query("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "id").size());
        assertEquals(rows, store.aggregate("by_distance", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                "amount").count());
        prefix.checkQueries(store, rnd, 10);
    }

    @Test
    void metadataIsDurableWithTheRowsAndEveryRetainedCommitCanBeReopened() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(41);
        final List<CommitPoint> made = new ArrayList<>();
        try (ColumnStore store = open(OPTIONS)) {
            assertTrue(store.lastCommit().isEmpty());
            for (int c = 0; c < 5; c++) {
                oracle.appendBatch(store, 1500 + rnd.nextInt(1500), rnd);
                final CommitPoint p = store.flush(Map.of("orders-0", Long.toString(1000L * c), "checkpointId",
                        Integer.toString(c), "note", "é ü 🎉"));
                assertEquals(store.rows(), p.rows());
                assertEquals(c + 1, p.id());
                made.add(p);
                assertEquals(p, store.lastCommit().orElseThrow());
            }
            assertEquals(made.subList(2, 5), store.commits(), "three retained");
            oracle.appendRows(store, 777, rnd); // never committed: close would, so …
        }
        // … close committed them, carrying the last metadata over.
        try (ColumnStore store = open(OPTIONS)) {
            final CommitPoint last = store.lastCommit().orElseThrow();
            assertEquals(6, last.id());
            assertEquals(made.get(4).metadata(), last.metadata());
            checkHolds(store, oracle.rows.size(), rnd);
            made.add(last);
        }
        // Reopen at each retained commit, newest to oldest: each discards what came after.
        for (int c = 5; c >= 3; c--) {
            final CommitPoint target = made.get(c);
            try (ColumnStore store = open(OPTIONS.toBuilder().atCommit(target.id()).build())) {
                assertEquals(target, store.lastCommit().orElseThrow());
                checkHolds(store, (int) target.rows(), rnd);
            }
            try (ColumnStore store = open(OPTIONS)) {
                assertEquals(target.id(), store.lastCommit().orElseThrow().id(), "the roll-back is durable");
            }
        }
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> open(OPTIONS.toBuilder().atCommit(2).build()));
        assertTrue(e.getMessage().contains("commit 2") && e.getMessage().contains("retained")
                && e.getMessage().contains(dir.toString()), e.getMessage());
        // Committing after a roll-back: new ids, never reused; the rows continue from the commit's.
        oracle.rows.subList((int) made.get(3).rows(), oracle.rows.size()).clear();
        try (ColumnStore store = open(OPTIONS.toBuilder().commitOnClose(false).build())) {
            oracle.appendRows(store, 1000, rnd);
            final CommitPoint p = store.flush(Map.of("checkpointId", "9"));
            assertEquals(7, p.id(), "ids continue above the discarded ones");
            checkHolds(store, oracle.rows.size(), rnd);
            oracle.appendRows(store, 500, rnd); // not committed, and close does not commit
        }
        try (ColumnStore store = open(OPTIONS)) {
            assertEquals(7, store.lastCommit().orElseThrow().id());
            checkHolds(store, oracle.rows.size() - 500, rnd);
        }
    }

    @Test
    void metadataIsValidated() throws IOException {
        try (ColumnStore store = open(OPTIONS)) {
            final Map<String, String> nulls = new HashMap<>();
            nulls.put("a", null);
            assertThrows(IllegalArgumentException.class, () -> store.flush(nulls));
            assertThrows(IllegalArgumentException.class, () -> store.flush(null));
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> store.flush(Map.of("big", "x".repeat(CommitPoint.MAX_METADATA_BYTES))));
            assertTrue(e.getMessage().contains("65536"), e.getMessage());
            store.append(1L, "a", 1.0, "Y", 2L);
            assertEquals(1, store.flush(Map.of()).rows(), "a rejected flush leaves the store usable");
        }
        assertThrows(IllegalArgumentException.class, () -> ColumnStoreOptions.builder().retainedCommits(0).build());
        assertThrows(IllegalArgumentException.class, () -> ColumnStoreOptions.builder().atCommit(-2).build());
    }

    @Test
    void manyCommitsWithMaintenanceThenARollBack() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(42);
        final ColumnStoreOptions o = OPTIONS.toBuilder().buckets(8, 64).training(256, 0, 256).maintenance(8).build();
        long committed = 0;
        try (ColumnStore store = open(o)) {
            for (int c = 0; c < 150; c++) {
                oracle.appendRows(store, 40, rnd);
                store.flush(Map.of("c", Integer.toString(c)));
                committed = store.rows();
            }
            assertEquals(3, store.commits().size());
            assertTrue(store.stats("by_distance").maintenanceRuns() > 0, store.stats("by_distance") + " "
                    + store.ldiStats("by_distance"));
        }
        try (ColumnStore store = open(o.toBuilder().atCommit(148).build())) {
            assertEquals("147", store.lastCommit().orElseThrow().metadata().get("c"));
            assertEquals(committed - 80, store.rows());
        }
        try (ColumnStore store = open(o)) {
            oracle.rows.subList((int) store.rows(), oracle.rows.size()).clear();
            checkHolds(store, oracle.rows.size(), rnd);
        }
    }

    @Test
    void aCorruptManifestIsReportedAndATornSlotFallsBackToThePreviousCommit() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(43);
        try (ColumnStore store = open(OPTIONS)) {
            oracle.appendRows(store, 3000, rnd);
            store.flush(Map.of("k", "1"));
            oracle.appendRows(store, 3000, rnd);
            store.flush(Map.of("k", "2"));
        }
        final Path manifest = dir.resolve(ManifestDescriptor.FILE);
        final Path copy = saved;
        copyTree(dir, copy);
        final byte[] saved = Files.readAllBytes(manifest);
        // A torn write of the newest slot: that commit did not complete, the previous one is the last.
        flip(manifest, findNewestSlot(saved) + 10);
        try (ColumnStore store = open(OPTIONS.toBuilder().commitOnClose(false).build())) {
            assertEquals("1", store.lastCommit().orElseThrow().metadata().get("k"));
            checkHolds(store, 3000, rnd);
        }
        copyTree(copy, dir);
        // A flipped bit inside a committed record is corruption: reported, naming the file and position.
        flip(manifest, 3 * 4096 + 20);
        final CorruptFileException e = assertThrows(CorruptFileException.class, () -> open(OPTIONS));
        assertTrue(e.getMessage().contains("store.manifest") && e.getMessage().contains("byte 12288"),
                e.getMessage());
        copyTree(copy, dir);
        try (RandomAccessFile f = new RandomAccessFile(manifest.toFile(), "rw")) {
            f.setLength(saved.length - 30);
        }
        final CorruptFileException t = assertThrows(CorruptFileException.class, () -> open(OPTIONS));
        assertTrue(t.getMessage().contains("truncated"), t.getMessage());
        copyTree(copy, dir);
        // A crash while the manifest was being rewritten leaves a partial temporary file: ignored and removed.
        Files.write(dir.resolve(ManifestDescriptor.TEMP), java.util.Arrays.copyOf(saved, 5000));
        try (ColumnStore store = open(OPTIONS)) {
            assertEquals("2", store.lastCommit().orElseThrow().metadata().get("k"));
            checkHolds(store, 6000, rnd);
        }
        assertTrue(Files.notExists(dir.resolve(ManifestDescriptor.TEMP)));
    }

    /** Replaces {@code to}'s files with {@code from}'s. */
    static void copyTree(final Path from, final Path to) throws IOException {
        Files.createDirectories(to);
        try (var old = Files.list(to)) {
            for (Path f : (Iterable<Path>) old::iterator) {
                Files.delete(f);
            }
        }
        try (var files = Files.list(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }

    private static long findNewestSlot(final byte[] manifest) {
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(manifest).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        return b.getLong(4096 + 4) > b.getLong(8192 + 4) ? 4096 : 8192;
    }

    private static void flip(final Path file, final long at) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            final int b = f.read();
            f.seek(at);
            f.write(b ^ 0x40);
        }
    }
}
