package io.nearsort.core.sware;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Where the point reads of a single-writer index announce themselves instead of taking the shared side of its
 * lock: a read indicator with a slot per reading thread, in the manner of BRAVO's visible readers (Dice and
 * Kogan, "BRAVO: Biased Locking for Reader-Writer Locks", USENIX ATC 2019). A read marks its thread's slot; a
 * writer about to reorganise what readers read (under the exclusive lock, which these reads do not take) first
 * {@link #revoke revokes} the fast path, so that new reads take the shared lock and queue behind it, and waits
 * until no slot is marked.
 *
 * <p>Why: the shared lock's two compare-and-sets on a word every reader and the writer touch cost a single-writer
 * index's point read about 90 ns on a 2-core Intel VM (10M keys, K=5%/L=5%, independent lookups: 357 ns a lookup,
 * against 246 ns with no guard at all). Marking a slot of the thread's own is a volatile store (a store and one
 * fence) and a release store: 253 ns. Shared, hashed slots would need an atomic add to enter and another to
 * leave: 263 ns on one counter field, 315-338 ns on an {@code AtomicLongArray}'s slots (docs/benchmarks.md).
 *
 * <p>Correctness is Dekker's: a read marks its slot, then reads {@link #revoked}; a writer sets {@link #revoked},
 * then reads the marks. All four are volatile accesses, so at least one side sees the other: either the read
 * sees the revocation and leaves (to take the lock), or the writer sees its mark and waits for {@link #exit},
 * whose release store orders the read's loads before the writer's changes. Everything the writer did before
 * {@link #restore} happens-before a read that finds the fast path open again. Reads do not nest on a thread:
 * {@link #enter} refuses (returns null) a thread already inside.
 *
 * <p>Memory: a slot (about 150 bytes, padded) per thread that ever read through the indicator, found through a
 * {@link PerThread}; slots of threads that have ended are dropped when a new thread registers (the
 * {@link PerThread}'s table may hold on to an ended {@code Thread} object until another thread takes its entry).
 * A registration and a revocation each scan every live reader's slot: cheap for a pool of reading threads,
 * costly with tens of thousands of live reading threads (virtual threads, say).
 */
final class ReadIndicator {
    private static final VarHandle INSIDE;

    static {
        try {
            INSIDE = MethodHandles.lookup().findVarHandle(Slot.class, "inside", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Spins a writer waits for the reads inside before it yields, then parks between looks. */
    private static final int SPINS = 1_000;
    private static final int YIELDS = 100;

    private final SwareCounters counters;
    private final PerThread<Slot> slot = new PerThread<>(this::register);
    /** Every live reader's slot; replaced under {@code this}, never changed in place. */
    private volatile Slot[] slots = new Slot[0];
    private volatile boolean revoked;

    /**
     * Enters a read: returns the slot to pass to {@link #exit}, or null when a writer has revoked the fast path or
     * this thread is inside already (the caller then reads under the shared lock and must not call {@link #exit}).
     */
    Slot enter() {
        final Slot mine = mine();
        if (mine.inside != 0) {
            return null; // a read from inside this thread's read: the outer one leaves the slot
        }
        INSIDE.setVolatile(mine, 1);
        if (revoked) {
            INSIDE.setRelease(mine, 0);
            return null;
        }
        return mine;
    }

    /** This thread's slot, registered at its first call. */
    Slot mine() {
        return slot.get();
    }

    /** Leaves the read {@link #enter} let in. */
    void exit(final Slot mine) {
        INSIDE.setRelease(mine, 0);
    }

    /**
     * Closes the fast path and waits until no read is inside it; called by the writer holding the exclusive lock,
     * before it changes anything those reads may read.
     */
    void revoke() {
        revoked = true;
        for (final Slot s : slots) {
            for (int waits = 0; (int) INSIDE.getVolatile(s) != 0; waits++) {
                if (waits < SPINS) {
                    Thread.onSpinWait();
                } else if (waits < SPINS + YIELDS) {
                    Thread.yield(); // a reader inside may have lost its processor
                } else {
                    LockSupport.parkNanos(10_000L);
                }
            }
        }
    }

    /**
     * {@link #revoke} if no read is inside: returns false, leaving the fast path open, when one is (for a writer
     * that must not wait).
     */
    boolean tryRevoke() {
        revoked = true;
        for (final Slot s : slots) {
            if ((int) INSIDE.getVolatile(s) != 0) {
                revoked = false;
                return false;
            }
        }
        return true;
    }

    /** Opens the fast path again; called by the writer before it releases the exclusive lock. */
    void restore() {
        revoked = false;
    }

    /** Slots registered: one per live thread that has read through this indicator (for tests). */
    int slotCount() {
        return slots.length;
    }

    /** @param counters where each reading thread's slot gets its read-path counts */
    ReadIndicator(final SwareCounters counters) {
        this.counters = counters;
    }

    private synchronized Slot register() {
        final Slot mine = new Slot(Thread.currentThread(), counters.reads());
        slots = PerThread.keepLive(slots, mine, ended -> { }); // an ended thread cannot be inside a read
        return mine;
    }

    /** One thread's mark, padded so that two threads' marks never share a cache line. */
    @SuppressWarnings("unused") // the padding
    static final class Slot implements PerThread.Owned {
        private long p01, p02, p03, p04, p05, p06, p07, p08;
        /** 1 while the thread is inside a read; written by it, read by writers. */
        private volatile int inside;
        private long q01, q02, q03, q04, q05, q06, q07, q08;
        /** The thread whose slot this is (kept until the slot is dropped, after the thread ended). */
        final Thread owner;
        /** The thread's read-path counts ({@link SwareCounters#reads}), at hand for its reads. */
        final SwareCounters.Reads reads;

        Slot(final Thread owner, final SwareCounters.Reads reads) {
            this.owner = owner;
            this.reads = reads;
        }

        @Override
        public Thread owner() {
            return owner;
        }
    }
}
