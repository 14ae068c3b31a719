package io.nearsort.ldi.commit;

import io.nearsort.core.CorruptFileException;
import io.nearsort.ldi.io.BucketPointer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The manifest against a model: random commits of bucket additions and retirements in two projections, reopened
 * at the last and at every retained commit (on copies: a roll-back is destructive), through many rewrites.
 */
class ManifestTest {
    private static final int PROJECTIONS = 2;
    private static final byte[] LAYOUT = "a table".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @TempDir
    Path copies;

    /** What the model expects at one commit. */
    private record Expected(long id, long rows, Map<String, String> metadata, List<TreeMap<Long, BucketEntry>> live,
                            int[] active, long[] activeEnd) {
    }

    private static BucketEntry entry(final SplittableRandom rnd, final int segment, final long offset) {
        final long low = rnd.nextLong(1000);
        return new BucketEntry(BucketPointer.of(segment, offset), 1 + rnd.nextInt(5000), low, low + rnd.nextInt(100),
                1 + rnd.nextInt(1024), rnd.nextLong(1 << 30), rnd.nextBoolean());
    }

    private static void checkState(final Manifest m, final Expected e) {
        final List<ProjectionState> states = m.openedState();
        for (int p = 0; p < PROJECTIONS; p++) {
            final TreeMap<Long, BucketEntry> got = new TreeMap<>();
            states.get(p).live().forEach(b -> got.put(b.pointer(), b));
            assertEquals(e.live().get(p), got, "live buckets of projection " + p + " at commit " + e.id());
            assertEquals(e.active()[p], states.get(p).activeSegment());
            assertEquals(e.activeEnd()[p], states.get(p).activeEnd());
        }
        final CommitPoint last = m.lastCommit().orElseThrow();
        assertEquals(e.id(), last.id());
        assertEquals(e.rows(), last.rows());
        assertEquals(e.metadata(), last.metadata());
    }

    @Test
    void randomCommitsReopenAtEveryRetainedCommitThroughRewrites() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(51);
        final int retain = 4;
        final long rewriteBytes = 8192;
        final List<Expected> history = new ArrayList<>();
        final List<TreeMap<Long, BucketEntry>> live = new ArrayList<>();
        final long[] offsets = new long[PROJECTIONS];
        for (int p = 0; p < PROJECTIONS; p++) {
            live.add(new TreeMap<>());
        }
        Manifest m = Manifest.create(dir, LAYOUT, PROJECTIONS, retain, rewriteBytes);
        assertTrue(m.lastCommit().isEmpty());
        long bytesWritten = 0;
        for (int c = 1; c <= 300; c++) {
            final List<ProjectionCommit> changes = new ArrayList<>();
            final int[][] segments = new int[PROJECTIONS][];
            final int[] active = new int[PROJECTIONS];
            final long[] activeEnd = new long[PROJECTIONS];
            for (int q = 0; q < PROJECTIONS; q++) {
                final int p = q;
                final List<BucketEntry> added = new ArrayList<>();
                for (int i = rnd.nextInt(9); i > 0; i--) {
                    final int segment = (int) (offsets[p] / 100_000);
                    final BucketEntry e = entry(rnd, segment, offsets[p] % 100_000 + 40);
                    offsets[p] += 1000;
                    added.add(e);
                }
                final List<Long> pointers = new ArrayList<>(live.get(p).keySet());
                final TreeSet<Long> retired = new TreeSet<>();
                for (int i = rnd.nextInt(10); i > 0 && !pointers.isEmpty(); i--) {
                    retired.add(pointers.get(rnd.nextInt(pointers.size())));
                }
                added.forEach(e -> live.get(p).put(e.pointer(), e));
                retired.forEach(live.get(p)::remove);
                active[p] = (int) (offsets[p] / 100_000);
                activeEnd[p] = offsets[p] % 100_000 + 40;
                changes.add(new ProjectionCommit(added, retired.stream().mapToLong(Long::longValue).toArray(),
                        active[p], activeEnd[p], active[p] + 1));
                final TreeSet<Integer> s = new TreeSet<>();
                live.get(p).values().forEach(e -> s.add(e.segment()));
                s.add(active[p]);
                segments[p] = s.stream().mapToInt(Integer::intValue).toArray();
                bytesWritten += 41L * added.size() + 8L * retired.size();
            }
            final Map<String, String> metadata = Map.of("c", Integer.toString(c), "topic-" + (c % 3), "x".repeat(c));
            final CommitPoint point = m.commit(metadata, 10L * c, changes, segments);
            m.rewriteIfDue();
            assertEquals(c, point.id());
            final List<TreeMap<Long, BucketEntry>> copy = new ArrayList<>();
            live.forEach(l -> copy.add(new TreeMap<>(l)));
            history.add(new Expected(c, 10L * c, new TreeMap<>(metadata), copy, active, activeEnd));
            if (c % 37 == 0) {
                assertTrue(c < 100 || m.rewrites() > 0, "rewritten by now: " + m.bytes());
                m.close();
                m = Manifest.open(dir, PROJECTIONS, retain, -1, rewriteBytes);
                checkState(m, history.get(c - 1));
                final List<Long> ids = new ArrayList<>();
                m.commits().forEach(x -> ids.add(x.id()));
                assertEquals(List.of((long) c - 3, (long) c - 2, (long) c - 1, (long) c), ids);
                final TreeSet<Integer> union = new TreeSet<>();
                for (int k = c - 4; k < c; k++) {
                    for (int s : segmentsOf(history.get(k), 0)) {
                        union.add(s);
                    }
                }
                assertEquals(union, m.retainedSegments(0));
            }
        }
        m.close();
        assertTrue(Files.size(dir.resolve(ManifestDescriptor.FILE)) < bytesWritten / 2,
                "rewritten: " + Files.size(dir.resolve(ManifestDescriptor.FILE)) + " bytes for " + bytesWritten
                        + " written");
        // Every retained commit can be reopened (each on a copy); the one before is gone for good.
        for (int c = 297; c <= 300; c++) {
            copy(dir, copies);
            try (Manifest at = Manifest.open(copies, PROJECTIONS, retain, c, rewriteBytes)) {
                checkState(at, history.get(c - 1));
                assertEquals(c - 297 + 1, at.commits().size());
            }
            try (Manifest again = Manifest.open(copies, PROJECTIONS, retain, -1, rewriteBytes)) {
                checkState(again, history.get(c - 1));
            }
        }
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Manifest.open(dir, PROJECTIONS, retain, 296, rewriteBytes));
        assertTrue(e.getMessage().contains("[297, 298, 299, 300]"), e.getMessage());
        // Roll back to 298 and commit: the id is 301; 299 and 300 never come back, nor does 296.
        try (Manifest at = Manifest.open(dir, PROJECTIONS, retain, 298, rewriteBytes)) {
            checkState(at, history.get(297));
            final List<ProjectionCommit> none = new ArrayList<>();
            final int[][] segments = new int[PROJECTIONS][];
            for (int p = 0; p < PROJECTIONS; p++) {
                none.add(new ProjectionCommit(List.of(), new long[0], history.get(297).active()[p],
                        history.get(297).activeEnd()[p], history.get(297).active()[p] + 1));
                segments[p] = segmentsOf(history.get(297), p);
            }
            assertEquals(301, at.commit(Map.of(), 2980, none, segments).id());
        }
        try (Manifest reopened = Manifest.open(dir, PROJECTIONS, retain, -1, rewriteBytes)) {
            final List<Long> ids = new ArrayList<>();
            reopened.commits().forEach(x -> ids.add(x.id()));
            assertEquals(List.of(297L, 298L, 301L), ids);
        }
    }

    private static int[] segmentsOf(final Expected e, final int p) {
        final TreeSet<Integer> s = new TreeSet<>();
        e.live().get(p).values().forEach(b -> s.add(b.segment()));
        s.add(e.active()[p]);
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void copy(final Path from, final Path to) throws IOException {
        try (var old = Files.list(to)) {
            for (Path f : (Iterable<Path>) old::iterator) {
                Files.delete(f);
            }
        }
        Files.copy(from.resolve(ManifestDescriptor.FILE), to.resolve(ManifestDescriptor.FILE));
    }

    @Test
    void inconsistentCommitsAreRejectedAsCorruption() throws IOException {
        try (Manifest m = Manifest.create(dir, LAYOUT, 1, 2, 1 << 20)) {
            final Map<String, String> meta = new HashMap<>();
            m.commit(meta, 0, List.of(new ProjectionCommit(List.of(), new long[] {BucketPointer.of(0, 40)}, 0, 0, 0)),
                    new int[][] {{}});
        }
        final CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Manifest.open(dir, 1, 2, -1, 1 << 20));
        assertTrue(e.getMessage().contains("not live"), e.getMessage());
    }
}
