package io.nearsort.ldi.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

/**
 * LDI's I/O handler (§4.2).
 * <ul>
 *   <li><b>Reads and writes never mix</b>: bucket writes run in exclusive write phases, queries in shared read
 *       phases ({@link #writePhase}, {@link #read}).</li>
 *   <li><b>Concurrent requests for the same bucket are de-duplicated</b>: a query asking for a bucket another
 *       query is reading joins that read.</li>
 *   <li><b>Co-located buckets are grouped</b> and read as one extent, extraneous bytes included, when Eq. 8's θ
 *       says it pays: with θ = T(group of g buckets) / T(one bucket) measured per device ({@link ThetaCalibration}),
 *       an extent spanning s bucket sizes costs about {@code 1 + (s − 1)·(θ − 1)/(g − 1)} bucket reads, and is
 *       read whole when that is at most the w wanted buckets it holds.</li>
 *   <li><b>N_thread readers</b> (Eq. 9, {@link #threadsFor}) issue the reads in parallel.</li>
 * </ul>
 */
public final class IoHandler implements AutoCloseable {
    private final ExecutorService readers;
    private final int threads;
    private final double theta;
    private final int thetaGroup;
    private final ReentrantReadWriteLock phases = new ReentrantReadWriteLock(true);
    private final ConcurrentHashMap<Key, CompletableFuture<ByteBuffer>> inFlight = new ConcurrentHashMap<>();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong deduplicated = new AtomicLong();
    private final AtomicLong singleReads = new AtomicLong();
    private final AtomicLong extentReads = new AtomicLong();
    private final AtomicLong bucketsInExtents = new AtomicLong();
    private final AtomicLong bytesRead = new AtomicLong();
    private final AtomicLong writePhases = new AtomicLong();
    /** Called with each group just before it is read; tests use it to hold a read in flight. */
    private final Consumer<List<BucketLocation>> beforeGroupRead;

    private record Key(RecordFile file, long offset) {
    }

    /**
     * Creates a handler whose reads are issued by {@code threads} readers: a pool of daemon threads, or the calling
     * thread alone when {@code threads} is 1.
     *
     * @param threads    reader threads, at least 1 (1 reads on the calling thread: the paper's plain LDI)
     * @param theta      θ of Eq. 8, at least 1
     * @param thetaGroup g, the buckets of the group θ was measured with, at least 2
     */
    public IoHandler(final int threads, final double theta, final int thetaGroup) {
        this(threads, theta, thetaGroup, group -> { });
    }

    IoHandler(final int threads, final double theta, final int thetaGroup,
              final Consumer<List<BucketLocation>> beforeGroupRead) {
        if (threads < 1) {
            throw new IllegalArgumentException("reader threads must be at least 1 (got: " + threads + ")");
        }
        if (!(theta >= 1.0) || Double.isInfinite(theta)) {
            throw new IllegalArgumentException("theta must be a finite number of at least 1 (got: " + theta + ")");
        }
        if (thetaGroup < 2) {
            throw new IllegalArgumentException("thetaGroup must be at least 2 buckets (got: " + thetaGroup + ")");
        }
        this.threads = threads;
        this.theta = theta;
        this.thetaGroup = thetaGroup;
        this.beforeGroupRead = beforeGroupRead;
        this.readers = threads == 1 ? null : Executors.newFixedThreadPool(threads, r -> {
            final Thread t = new Thread(r, "ldi-reader");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Eq. 9: N_thread = N_channel·N_chip·N_die·N_plane / λ, at least 1.
     *
     * @param channels N_channel, the device's channels, at least 1
     * @param chips    N_chip, chips per channel, at least 1
     * @param dies     N_die, dies per chip, at least 1
     * @param planes   N_plane, planes per die, at least 1
     * @param lambda   λ of Eq. 9, the divisor, greater than 0
     * @return the reader threads, the quotient rounded down, at least 1
     * @throws IllegalArgumentException when a count is below 1 or λ is not greater than 0
     */
    public static int threadsFor(final int channels, final int chips, final int dies, final int planes,
                                 final double lambda) {
        if (channels < 1 || chips < 1 || dies < 1 || planes < 1 || !(lambda > 0)) {
            throw new IllegalArgumentException("Eq. 9 needs positive channels, chips, dies, planes and λ (got: "
                    + channels + ", " + chips + ", " + dies + ", " + planes + ", " + lambda + ")");
        }
        return (int) Math.max(1, Math.floor((double) channels * chips * dies * planes / lambda));
    }

    /**
     * Runs {@code work} in an exclusive write phase: no read is in progress meanwhile.
     *
     * @param <T>  the type of the work's result
     * @param work the writes, run on the calling thread once the reads in progress have finished
     * @return what {@code work} returned
     * @throws IOException as {@code work} throws it
     */
    public <T> T writePhase(final IoWork<T> work) throws IOException {
        phases.writeLock().lock();
        try {
            writePhases.incrementAndGet();
            return work.run();
        } finally {
            phases.writeLock().unlock();
        }
    }

    /**
     * Work done inside a phase.
     *
     * @param <T> the type of the work's result
     */
    @FunctionalInterface
    public interface IoWork<T> {
        /**
         * Does the work.
         *
         * @return the work's result
         * @throws IOException when the work fails
         */
        T run() throws IOException;
    }

    /**
     * Reads the verified payloads of {@code wanted} buckets of {@code file}, in a shared read phase.
     *
     * @param file   the projection file the buckets lie in
     * @param wanted the buckets' locations in {@code file}, in any order; a location listed twice is read once
     * @return each wanted location mapped to its verified payload (a duplicate: its own position and limit)
     * @throws IOException when a read fails, a record is corrupt or the thread is interrupted while waiting
     */
    public Map<BucketLocation, ByteBuffer> read(final RecordFile file, final List<BucketLocation> wanted)
            throws IOException {
        phases.readLock().lock();
        try {
            return readInPhase(file, wanted);
        } finally {
            phases.readLock().unlock();
        }
    }

    private Map<BucketLocation, ByteBuffer> readInPhase(final RecordFile file, final List<BucketLocation> wanted)
            throws IOException {
        requests.addAndGet(wanted.size());
        final Map<BucketLocation, CompletableFuture<ByteBuffer>> futures = new HashMap<>();
        final List<BucketLocation> mine = new ArrayList<>();
        final List<CompletableFuture<ByteBuffer>> mineFutures = new ArrayList<>();
        for (BucketLocation loc : wanted) {
            if (futures.containsKey(loc)) {
                continue;
            }
            final CompletableFuture<ByteBuffer> created = new CompletableFuture<>();
            final CompletableFuture<ByteBuffer> existing = inFlight.putIfAbsent(new Key(file, loc.offset()), created);
            if (existing != null) {
                deduplicated.incrementAndGet();
                futures.put(loc, existing);
            } else {
                futures.put(loc, created);
                mine.add(loc);
                mineFutures.add(created);
            }
        }
        final List<Runnable> tasks = new ArrayList<>();
        for (List<BucketLocation> group : group(mine)) {
            tasks.add(() -> readGroup(file, group, futures));
        }
        if (readers == null || tasks.size() == 1) {
            tasks.forEach(Runnable::run);
        } else {
            final List<CompletableFuture<Void>> running = new ArrayList<>();
            for (Runnable t : tasks) {
                running.add(CompletableFuture.runAsync(t, readers));
            }
            CompletableFuture.allOf(running.toArray(new CompletableFuture<?>[0])).exceptionally(e -> null).join();
        }
        final Map<BucketLocation, ByteBuffer> out = new HashMap<>();
        try {
            for (Map.Entry<BucketLocation, CompletableFuture<ByteBuffer>> e : futures.entrySet()) {
                out.put(e.getKey(), e.getValue().get().duplicate());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading buckets of " + file.path(), e);
        } catch (ExecutionException e) {
            final Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException("reading buckets of " + file.path() + " failed", cause);
        } finally {
            for (BucketLocation loc : mine) {
                inFlight.remove(new Key(file, loc.offset()));
            }
        }
        return out;
    }

    /** Splits the wanted buckets (sorted by offset) into groups each read with one request. */
    List<List<BucketLocation>> group(final List<BucketLocation> wanted) {
        final List<BucketLocation> sorted = new ArrayList<>(wanted);
        sorted.sort(Comparator.comparingLong(BucketLocation::offset));
        final double perBucket = (theta - 1.0) / (thetaGroup - 1);
        final List<List<BucketLocation>> groups = new ArrayList<>();
        List<BucketLocation> current = new ArrayList<>();
        long wantedBytes = 0;
        for (BucketLocation loc : sorted) {
            if (!current.isEmpty()) {
                final long start = current.get(0).offset();
                final long span = loc.end() - start;
                final double averageBucket = (double) (wantedBytes + loc.recordBytes()) / (current.size() + 1);
                final double sizes = span / averageBucket;
                if (1.0 + (sizes - 1.0) * perBucket > current.size() + 1) {
                    groups.add(current);
                    current = new ArrayList<>();
                    wantedBytes = 0;
                }
            }
            current.add(loc);
            wantedBytes += loc.recordBytes();
        }
        if (!current.isEmpty()) {
            groups.add(current);
        }
        return groups;
    }

    private void readGroup(final RecordFile file, final List<BucketLocation> group,
                           final Map<BucketLocation, CompletableFuture<ByteBuffer>> futures) {
        try {
            beforeGroupRead.accept(group);
            if (group.size() == 1) {
                final BucketLocation loc = group.get(0);
                final ByteBuffer payload = file.read(loc.offset(), loc.length());
                singleReads.incrementAndGet();
                bytesRead.addAndGet(loc.recordBytes());
                futures.get(loc).complete(payload);
                return;
            }
            final long start = group.get(0).offset();
            final long end = group.get(group.size() - 1).end();
            final ByteBuffer extent = file.readExtent(start, Math.toIntExact(end - start));
            extentReads.incrementAndGet();
            bucketsInExtents.addAndGet(group.size());
            bytesRead.addAndGet(end - start);
            for (BucketLocation loc : group) {
                futures.get(loc).complete(file.verify(extent, (int) (loc.offset() - start), loc.offset()));
            }
        } catch (IOException | RuntimeException e) {
            for (BucketLocation loc : group) {
                futures.get(loc).completeExceptionally(e);
            }
        }
    }

    /**
     * Reader threads.
     *
     * @return the reader threads, at least 1
     */
    public int threads() {
        return threads;
    }

    /**
     * θ in use.
     *
     * @return θ of Eq. 8 that reads are grouped by, at least 1
     */
    public double theta() {
        return theta;
    }

    /**
     * Counters so far.
     *
     * @return a snapshot of the counters since this handler was made
     */
    public IoStats stats() {
        return new IoStats(requests.get(), deduplicated.get(), singleReads.get(), extentReads.get(),
                bucketsInExtents.get(), bytesRead.get(), writePhases.get());
    }

    @Override
    public void close() {
        if (readers != null) {
            readers.shutdownNow();
        }
    }
}
