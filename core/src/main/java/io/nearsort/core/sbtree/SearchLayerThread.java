package io.nearsort.core.sbtree;

import io.nearsort.core.memory.PageArena;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The dedicated thread of SB-Tree §III-A and §IV-C: it inserts the fences of new data blocks into the
 * {@link SearchLayer}, asynchronously, so that conversions and splits never wait for the search layer. Until it
 * has, those blocks are reached by walking the data layer from the block the search layer finds ("even if the
 * search layer points to a neighboring node", §IV-C); {@code searchLayerLag} counts them.
 *
 * <p>It also does the index's other background work: it unlinks data blocks emptied by deletes (the paper does
 * not delete), frees retired blocks once no reader can hold them ({@link EpochReclamation}), and drops the
 * contexts of threads that ended.
 *
 * <p>Requests come from any thread through a lock-free queue; the thread parks when there is nothing to do and
 * is unparked by the next request or retired batch: an idle index's thread parks without a timeout and costs no
 * CPU (only while retired blocks wait for readers to leave does it poll, every {@value #RECLAIM_PARK_MICROS} µs).
 * It is started once {@value #START_AFTER} pieces of work (requests or retired batches) are pending, so that an
 * index that never grows past its first blocks (a small map, a test) costs no thread: until then its search
 * layer lags by at most that many blocks, which walks cover.
 * {@link #stop()} ends and joins it; {@code SBTree.close()} calls it, so no thread outlives its index. If the
 * thread fails, the failure is kept and every later operation of the index throws it ({@link #failure()}).
 */
final class SearchLayerThread implements Runnable {
    static final String NAME_PREFIX = "nearsort-sbtree-search-layer-";
    private static final long RECLAIM_PARK_MICROS = 200;
    private static final long RECLAIM_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(RECLAIM_PARK_MICROS);
    private static final long DROP_ENDED_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** Pending requests and retired batches that start the thread. */
    static final int START_AFTER = 8;

    private static final long INDEX = 1;
    private static final long UNLINK = 2;

    /** What the thread asks of the data layer. */
    interface DataLayerMaintenance {
        /** Unlinks {@code block} if it is still an empty data block that may leave the data layer. */
        void unlinkIfEmpty(long block);
    }

    private final SearchLayer searchLayer;
    private final EpochReclamation reclamation;
    private final ContextRegistry registry;
    private final PageArena arena;
    private final ConcurrentLinkedQueue<long[]> requests = new ConcurrentLinkedQueue<>();
    private final String name;
    /** Created when started: an index that never starts its thread does not pay for one. */
    private volatile Thread thread;
    private DataLayerMaintenance maintenance;
    private volatile boolean parked;
    private volatile boolean started;
    private final java.util.concurrent.atomic.AtomicInteger pendingBeforeStart = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean stopping;
    /** Set by tests to hold the search layer back (a lagging search layer on demand). */
    private volatile boolean paused;
    private volatile Throwable failure;
    private volatile long blocksIndexed;
    private volatile long blocksUnlinked;
    /** Requests taken from the queue and not yet applied. */
    private volatile int applying;

    SearchLayerThread(final SearchLayer searchLayer, final EpochReclamation reclamation,
                      final ContextRegistry registry, final PageArena arena, final long indexNumber) {
        this.searchLayer = searchLayer;
        this.reclamation = reclamation;
        this.registry = registry;
        this.arena = arena;
        this.name = NAME_PREFIX + indexNumber;
    }

    /** Attaches the data layer; the thread starts once work is pending ({@link #START_AFTER}). */
    void attach(final DataLayerMaintenance dataLayer) {
        this.maintenance = dataLayer;
    }

    /**
     * Counts a piece of work (a request, a retired batch) and starts the thread once enough are pending; wakes it
     * when it runs (an idle thread parks without a timeout).
     */
    void noteWork() {
        if (!started) {
            if (pendingBeforeStart.incrementAndGet() >= START_AFTER) {
                start();
            }
        } else {
            wake();
        }
    }

    /** Starts the thread now, unless it runs or was stopped. */
    synchronized void start() {
        if (!started && !stopping) {
            final Thread t = new Thread(this, name);
            t.setDaemon(true);
            thread = t;
            started = true;
            t.start();
        }
    }

    boolean isStarted() {
        return started;
    }

    /** Asks for data blocks to be indexed: {@code fencesAndBlocks} alternates low fence and block address. */
    void index(final long[] fencesAndBlocks, final int n) {
        final long[] request = new long[2 * n + 1];
        request[0] = INDEX;
        System.arraycopy(fencesAndBlocks, 0, request, 1, 2 * n);
        submit(request);
    }

    /** Asks for an emptied data block to be unlinked. */
    void unlink(final long block) {
        submit(new long[] {UNLINK, block});
    }

    private void submit(final long[] request) {
        requests.offer(request);
        if (parked) {
            LockSupport.unpark(thread);
        } else if (!started) {
            noteWork();
        }
    }

    /** Wakes the thread to reclaim retired blocks soon. */
    void wake() {
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public void run() {
        long lastDrop = System.nanoTime();
        try {
            while (!stopping) {
                if (paused) {
                    LockSupport.parkNanos(this, RECLAIM_PARK_NANOS);
                    continue;
                }
                boolean worked = false;
                while (true) {
                    applying = 1;
                    final long[] request = requests.poll();
                    if (request == null) {
                        applying = 0;
                        break;
                    }
                    apply(request);
                    worked = true;
                }
                final boolean waiting = reclamation.reclaim(registry, arena);
                final long now = System.nanoTime();
                if (now - lastDrop > DROP_ENDED_EVERY_NANOS) {
                    registry.dropEnded();
                    lastDrop = now;
                }
                if (!worked) {
                    // parked is set before the queues are checked, and submitters enqueue before they read it:
                    // either we see their work or they see parked and unpark us.
                    parked = true;
                    if (requests.isEmpty() && !reclamation.hasRetired() && !stopping) {
                        if (waiting) {
                            LockSupport.parkNanos(this, RECLAIM_PARK_NANOS); // readers leave without telling us
                        } else {
                            LockSupport.park(this); // idle: no wake-ups until the next request or retirement
                        }
                    }
                    parked = false;
                }
            }
        } catch (final Throwable t) {
            failure = t;
        }
    }

    private void apply(final long[] request) {
        if (request[0] == INDEX) {
            for (int i = 1; i < request.length; i += 2) {
                searchLayer.insert(request[i], request[i + 1]);
            }
            blocksIndexed += (request.length - 1) / 2;
        } else {
            maintenance.unlinkIfEmpty(request[1]);
        }
    }

    /** Called by the data layer when it unlinked a block on this thread's request. */
    void countUnlinked() {
        blocksUnlinked++;
    }

    /** Stops the thread and waits for it to end. */
    void stop() {
        synchronized (this) {
            stopping = true;
            if (!started) {
                return;
            }
        }
        final Thread t = thread;
        LockSupport.unpark(t);
        boolean interrupted = false;
        while (t.isAlive()) {
            try {
                t.join();
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Holds the thread back until {@link #resume()}: requests queue up (tests of a lagging search layer). */
    void pause() {
        paused = true;
    }

    void resume() {
        paused = false;
        final Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /**
     * Whether every request submitted so far has been applied (false while work waits for the start). The queue
     * is read first: the thread sets {@code applying} before it polls, so once a request has left the queue,
     * {@code applying} reads 0 only after the thread applied it. (The other order answered idle when the thread
     * took the last request between the two reads.)
     */
    boolean isIdle() {
        return requests.isEmpty() && applying == 0;
    }

    boolean isAlive() {
        final Thread t = thread;
        return t != null && t.isAlive();
    }

    /** The thread, or null before it started. */
    Thread thread() {
        return thread;
    }

    String name() {
        return name;
    }

    Throwable failure() {
        return failure;
    }

    long blocksIndexed() {
        return blocksIndexed;
    }

    long blocksUnlinked() {
        return blocksUnlinked;
    }

    boolean isCurrentThread() {
        return Thread.currentThread() == thread;
    }
}
