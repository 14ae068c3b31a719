package io.nearsort.core.sbtree;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link ThreadContext}s of one index: registered at a thread's first call, looked up by id when a
 * conversion seals a per-thread block, scanned by {@link EpochReclamation} and {@code close()}, and dropped by
 * the search-layer thread once their thread has ended (their statistics are kept in {@link #retired}).
 *
 * <p>Registration is rare (once per thread and index) and takes a lock; readers of {@link #snapshot()} get an
 * immutable array without one.
 */
final class ContextRegistry {
    private final Object lock = new Object();
    private final ConcurrentHashMap<Integer, ThreadContext> byId = new ConcurrentHashMap<>();
    private volatile ThreadContext[] snapshot = new ThreadContext[0];
    private int nextId = 1;
    private boolean closed;
    /** Statistics of dropped contexts, summed by {@link ThreadContext#addStatistics} (guarded by lock). */
    final ThreadContext retired = new ThreadContext(0, null);

    /**
     * A new context for {@code thread}.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    ThreadContext register(final Thread thread) {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("SBTree is closed");
            }
            int id = nextId++;
            if (id == 0) {
                id = nextId++;
            }
            final ThreadContext context = new ThreadContext(id, thread);
            byId.put(id, context);
            final ThreadContext[] current = snapshot;
            final ThreadContext[] next = Arrays.copyOf(current, current.length + 1);
            next[current.length] = context;
            snapshot = next;
            return context;
        }
    }

    /** No registration succeeds afterwards; returns the contexts registered until now. */
    ThreadContext[] close() {
        synchronized (lock) {
            closed = true;
            return snapshot;
        }
    }

    /** The context with {@code id}, or null when its thread ended and it was dropped. */
    ThreadContext byId(final int id) {
        return byId.get(id);
    }

    /** Every registered context. */
    ThreadContext[] snapshot() {
        return snapshot;
    }

    /**
     * Drops the contexts of threads that ended and are outside every operation, keeping their statistics.
     * Called by the search-layer thread only.
     */
    void dropEnded() {
        final ThreadContext[] current = snapshot;
        int ended = 0;
        for (final ThreadContext context : current) {
            if (context.ownerGone() && context.epoch() == 0) {
                ended++;
            }
        }
        if (ended == 0) {
            return;
        }
        synchronized (lock) {
            final ThreadContext[] latest = snapshot;
            final ThreadContext[] kept = new ThreadContext[latest.length];
            int n = 0;
            for (final ThreadContext context : latest) {
                if (context.ownerGone() && context.epoch() == 0) {
                    byId.remove(context.id);
                    retired.addStatistics(context);
                } else {
                    kept[n++] = context;
                }
            }
            snapshot = Arrays.copyOf(kept, n);
        }
    }

    /** Runs {@code action} on the retired statistics under the lock (they change when contexts are dropped). */
    void withRetired(final java.util.function.Consumer<ThreadContext> action) {
        synchronized (lock) {
            action.accept(retired);
        }
    }
}
