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
 * <p>Reads alone. Two tree writes run beside marked reads. A flush cycle's run on its way to the tree is set up
 * under revocation, so a read knows of it before it looks at the tree ({@code SortednessAwareIndex.emitting}) and
 * then reads the tree with its version checks. A sorted batch past the empty buffer
 * ({@code SortednessAwareIndex.appendBatch}) gives no such warning, and the checks on every read were there for
 * it alone: a read of a single writer's index paid them while no tree write ran at all. Now the writer
 * {@link #announceTreeWrite announces} such a write and waits for the reads that read the tree
 * {@link #readsAlone alone}, and a read asks before each tree read whether it still may. Dekker again: a read
 * marks its slot {@code ALONE} at {@link #enter}, then reads {@link #treeWrite}; the writer sets
 * {@link #treeWrite}, then waits while any slot is {@code ALONE}. A read that sees the announcement moves its
 * slot to {@code BESIDE} (a release store, after every tree read it made alone) and reads with the checks from
 * then on, so the writer waits for one lookup at most, not for a whole batch of lookups. The writer's
 * {@link #endTreeWrite} (a volatile store after the tree write) happens-before a read that finds no announcement
 * after it; a read that found none before the announcement is one the writer waits for.
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

    /** {@link Slot#inside}: no read of the slot's thread is inside. */
    private static final int OUT = 0;
    /** {@link Slot#inside}: a read is inside and may read the tree without its version checks. */
    private static final int ALONE = 1;
    /** {@link Slot#inside}: a read is inside and has seen {@link #treeWrite}: it reads the tree with the checks. */
    private static final int BESIDE = 2;

    /** Spins a writer waits for the reads inside before it yields, then parks between looks. */
    private static final int SPINS = 1_000;
    private static final int YIELDS = 100;

    private final SwareCounters counters;
    private final PerThread<Slot> slot = new PerThread<>(this::register);
    /** Every live reader's slot; replaced under {@code this}, never changed in place. */
    private volatile Slot[] slots = new Slot[0];
    private volatile boolean revoked;
    /** Whether a tree write runs beside marked reads ({@link #announceTreeWrite}); at most one at a time. */
    private volatile boolean treeWrite;

    /**
     * Enters a read: returns the slot to pass to {@link #exit}, or null when a writer has revoked the fast path or
     * this thread is inside already (the caller then reads under the shared lock and must not call {@link #exit}).
     */
    Slot enter() {
        final Slot mine = mine();
        if (mine.inside != 0) {
            return null; // a read from inside this thread's read: the outer one leaves the slot
        }
        INSIDE.setVolatile(mine, ALONE);
        if (revoked) {
            INSIDE.setRelease(mine, OUT);
            return null;
        }
        return mine;
    }

    /** This thread's slot, registered at its first call. */
    Slot mine() {
        return slot.get();
    }

    /**
     * Whether the read inside {@code mine} may read the tree now without its version checks, asked before each
     * tree read: true until a tree write beside reads is announced, false for the rest of the read after that.
     */
    boolean readsAlone(final Slot mine) {
        if ((int) INSIDE.get(mine) != ALONE) {
            return false; // a plain load of the thread's own mark
        }
        if (treeWrite) {
            INSIDE.setRelease(mine, BESIDE); // after every tree read this read made alone
            return false;
        }
        return true;
    }

    /** Leaves the read {@link #enter} let in. */
    void exit(final Slot mine) {
        INSIDE.setRelease(mine, OUT);
    }

    /**
     * Announces a tree write beside marked reads and waits until no read reads the tree {@link #readsAlone alone}:
     * called by the writer, who alone writes the tree, before it changes anything such a read may read; the reads
     * that go on beside the write read the tree with its version checks. {@link #endTreeWrite} ends it. A read
     * that reads alone must not wait for anything the announcing writer holds (the tree's lock): it would never
     * leave.
     */
    void announceTreeWrite() {
        treeWrite = true;
        for (final Slot s : slots) {
            awaitRead(s, true);
        }
    }

    /** Ends what {@link #announceTreeWrite} announced; called after the tree write, every change of it made. */
    void endTreeWrite() {
        treeWrite = false;
    }

    /**
     * Closes the fast path and waits until no read is inside it; called by the writer holding the exclusive lock,
     * before it changes anything those reads may read.
     */
    void revoke() {
        revoked = true;
        for (final Slot s : slots) {
            awaitRead(s, false);
        }
    }

    /**
     * Waits until the read inside slot {@code s} has left, or with {@code aloneOnly} until it no longer reads the
     * tree alone (it left, or it saw the announcement).
     */
    private static void awaitRead(final Slot s, final boolean aloneOnly) {
        for (int waits = 0; waitsFor(s, aloneOnly); waits++) {
            if (waits < SPINS) {
                Thread.onSpinWait();
            } else if (waits < SPINS + YIELDS) {
                Thread.yield(); // a reader inside may have lost its processor
            } else {
                LockSupport.parkNanos(10_000L);
            }
        }
    }

    private static boolean waitsFor(final Slot s, final boolean aloneOnly) {
        final int inside = (int) INSIDE.getVolatile(s);
        return aloneOnly ? inside == ALONE : inside != OUT;
    }

    /**
     * {@link #revoke} if no read is inside: returns false, leaving the fast path open, when one is (for a writer
     * that must not wait).
     */
    boolean tryRevoke() {
        revoked = true;
        for (final Slot s : slots) {
            if ((int) INSIDE.getVolatile(s) != OUT) {
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
        /**
         * {@code OUT}, {@code ALONE} or {@code BESIDE}: whether the thread is inside a read, and how it reads the
         * tree; written by it, read by writers.
         */
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
