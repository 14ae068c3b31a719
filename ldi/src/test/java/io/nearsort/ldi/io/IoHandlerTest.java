package io.nearsort.ldi.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The I/O handler's grouping by θ, its de-duplication of concurrent requests, and Eq. 9. */
class IoHandlerTest {
    @TempDir
    Path dir;

    private List<BucketLocation> writeBuckets(final RecordFile file, final int n) throws IOException {
        final List<BucketLocation> locs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final ByteBuffer payload = ByteBuffer.allocate(100);
            payload.putInt(0, i);
            locs.add(new BucketLocation(file.append(payload), 100));
        }
        return locs;
    }

    @Test
    void groupsCoLocatedBucketsWhenThetaSaysItPays() throws IOException {
        try (RecordFile file = RecordFile.open(dir.resolve("g.ldi"), "test");
             IoHandler cheapExtents = new IoHandler(1, 2.0, 8);
             IoHandler moderate = new IoHandler(1, 4.0, 8);
             IoHandler costlyExtents = new IoHandler(1, 8.0, 8)) {
            final List<BucketLocation> all = writeBuckets(file, 40);
            // Buckets 0-3 adjacent, then every other bucket from 10 to 18, then 30 alone.
            final List<BucketLocation> wanted = new ArrayList<>(all.subList(0, 4));
            for (int i = 10; i <= 18; i += 2) {
                wanted.add(all.get(i));
            }
            wanted.add(all.get(30));
            // θ = 2 for 8 buckets: an extent of s bucket sizes costs 1 + (s-1)/7 reads, so the whole span of
            // 31 buckets (5.3 reads) beats 10 single reads.
            assertEquals(List.of(10), sizes(cheapExtents.group(wanted)));
            // θ = 4: 1 + (s-1)·3/7; bucket 10 would cost 5.3 for 5 wanted, so a new group starts there.
            assertEquals(List.of(4, 5, 1), sizes(moderate.group(wanted)));
            // θ = 8: an extent costs as much as reading its buckets one by one, so only adjacent ones group.
            assertEquals(List.of(4, 1, 1, 1, 1, 1, 1), sizes(costlyExtents.group(wanted)));

            assertPayloads(all, wanted, moderate.read(file, wanted));
            final IoStats s = moderate.stats();
            assertEquals(10, s.bucketRequests());
            assertEquals(2, s.extentReads());
            assertEquals(9, s.bucketsInExtents());
            assertEquals(1, s.singleReads());
            assertEquals(4 * 108 + 9 * 108 + 108, s.bytesRead()); // the extent 10-18 includes 4 extraneous buckets
        }
    }

    @Test
    void aRequestForBucketsAlreadyInFlightJoinsThatRead() throws Exception {
        final CountDownLatch firstReadStarted = new CountDownLatch(1);
        final CountDownLatch releaseFirstRead = new CountDownLatch(1);
        final AtomicBoolean held = new AtomicBoolean();
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try (RecordFile file = RecordFile.open(dir.resolve("d.ldi"), "test");
             IoHandler io = new IoHandler(1, 2.0, 8, group -> {
                 if (held.compareAndSet(false, true)) {
                     firstReadStarted.countDown();
                     awaitOrFail(releaseFirstRead);
                 }
             })) {
            final List<BucketLocation> all = writeBuckets(file, 200);
            final Future<Map<BucketLocation, ByteBuffer>> first = pool.submit(() -> io.read(file, all));
            awaitOrFail(firstReadStarted); // all 200 buckets are in flight, their read is held
            final List<BucketLocation> middle = all.subList(50, 150);
            final Future<Map<BucketLocation, ByteBuffer>> second = pool.submit(() -> io.read(file, middle));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (io.stats().deduplicated() < middle.size()) {
                assertTrue(System.nanoTime() < deadline, "the second query did not join the reads in flight");
                Thread.sleep(1);
            }
            assertFalse(second.isDone(), "the second query waits for the read it joined");
            releaseFirstRead.countDown();
            assertPayloads(all, all, first.get(60, TimeUnit.SECONDS));
            assertPayloads(all, middle, second.get(60, TimeUnit.SECONDS));
            final IoStats s = io.stats();
            assertEquals(300, s.bucketRequests());
            assertEquals(100, s.deduplicated());
            assertEquals(1, s.extentReads()); // θ = 2: the 200 adjacent buckets are one extent, read once
            assertEquals(200, s.bucketsInExtents());
            assertEquals(0, s.singleReads());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentReadersAllGetVerifiedPayloadsAndEveryRequestIsAccountedFor() throws Exception {
        try (RecordFile file = RecordFile.open(dir.resolve("c.ldi"), "test");
             IoHandler io = new IoHandler(4, 4.0, 8)) {
            final List<BucketLocation> all = writeBuckets(file, 200);
            final ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                final CountDownLatch start = new CountDownLatch(1);
                final List<Future<Map<BucketLocation, ByteBuffer>>> results = new ArrayList<>();
                final List<List<BucketLocation>> wantedBy = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    final List<BucketLocation> wanted = new ArrayList<>();
                    for (int i = t % 3; i < all.size(); i += 1 + t % 3) {
                        wanted.add(all.get(i));
                    }
                    wantedBy.add(wanted);
                    results.add(pool.submit(() -> {
                        start.await();
                        return io.read(file, wanted);
                    }));
                }
                start.countDown();
                long served = 0;
                for (int t = 0; t < results.size(); t++) {
                    assertPayloads(all, wantedBy.get(t), results.get(t).get(60, TimeUnit.SECONDS));
                    served += wantedBy.get(t).size();
                }
                final IoStats s = io.stats();
                assertEquals(served, s.bucketRequests());
                assertEquals(s.bucketRequests(), s.deduplicated() + s.singleReads() + s.bucketsInExtents());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** {@code read} holds every wanted bucket, and each payload starts with its index in {@code all}, as written. */
    private static void assertPayloads(final List<BucketLocation> all, final List<BucketLocation> wanted,
                                       final Map<BucketLocation, ByteBuffer> read) {
        assertEquals(new HashSet<>(wanted), read.keySet());
        for (Map.Entry<BucketLocation, ByteBuffer> e : read.entrySet()) {
            assertEquals(all.indexOf(e.getKey()), e.getValue().getInt(0));
        }
    }

    private static void awaitOrFail(final CountDownLatch latch) {
        try {
            assertTrue(latch.await(60, TimeUnit.SECONDS), "timed out waiting for the other reader");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    @Test
    void equationNineAndValidation() {
        assertEquals(32, IoHandler.threadsFor(4, 2, 2, 2, 1.0));
        assertEquals(10, IoHandler.threadsFor(4, 2, 2, 2, 3.0));
        assertEquals(1, IoHandler.threadsFor(1, 1, 1, 1, 4.0));
        assertThrows(IllegalArgumentException.class, () -> IoHandler.threadsFor(0, 1, 1, 1, 1.0));
        assertThrows(IllegalArgumentException.class, () -> new IoHandler(0, 2.0, 8));
        assertThrows(IllegalArgumentException.class, () -> new IoHandler(1, 0.5, 8));
        assertThrows(IllegalArgumentException.class, () -> new IoHandler(1, 2.0, 1));
    }

    @Test
    void thetaCalibrationMeasuresAtLeastOne() throws IOException {
        final double theta = ThetaCalibration.measure(dir, 4096, 8);
        assertTrue(theta >= 1.0 && theta < 1000, "θ = " + theta);
    }

    private static List<Integer> sizes(final List<List<BucketLocation>> groups) {
        final List<Integer> out = new ArrayList<>();
        groups.forEach(g -> out.add(g.size()));
        return out;
    }
}
