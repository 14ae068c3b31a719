package io.nearsort.core.sbtree;

import io.nearsort.core.memory.PageArena;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Epoch-based reclamation of blocks that left the index while readers may still hold them: per-thread blocks and
 * segmented blocks after a conversion, data blocks unlinked after deletes, search blocks replaced by
 * copy-on-write. The paper does not say how its C++ code frees them; optimistic readers of a concurrent index
 * need a rule, and the ROWEX work it builds on [31] uses epochs.
 *
 * <p>Every operation that reads blocks runs between {@link #enter} and {@link #exit}: the thread announces the
 * global epoch it saw in its {@link ThreadContext} (a volatile store, ordered before its reads). A retired block
 * is tagged with the global epoch at retirement, after it was unlinked; the search-layer thread advances the
 * epoch when every thread inside an operation has announced the current one, and frees blocks retired two epochs
 * ago: every thread that could have reached them has left since. The in-order insert path writes only its own
 * per-thread block, which the reservation word protects instead ({@link ThreadContext}), so it announces nothing.
 *
 * <p>Thread-safe: any thread retires; one thread (the search-layer thread) reclaims.
 */
final class EpochReclamation {
    private volatile long globalEpoch = 1;
    private final ConcurrentLinkedQueue<long[]> retired = new ConcurrentLinkedQueue<>();
    /** Batches drained from {@link #retired}, oldest first: {epoch, block, block, ...}. Reclaimer only. */
    private final ArrayDeque<long[]> limbo = new ArrayDeque<>();
    private volatile long blocksInLimbo;
    private volatile long blocksFreed;

    /** Enters an operation (nested calls only count). */
    void enter(final ThreadContext context) {
        if (context.epochDepth++ == 0) {
            context.announceEpoch(globalEpoch);
        }
    }

    /** Leaves an operation entered with {@link #enter}. */
    void exit(final ThreadContext context) {
        if (--context.epochDepth == 0) {
            context.leaveEpoch();
        }
    }

    /**
     * Retires blocks that no block or search entry points to any more; they are freed once no thread can hold
     * them. {@code batch[0]} is overwritten with the epoch; the blocks follow.
     */
    void retire(final long[] batch) {
        if (batch.length > 1) {
            batch[0] = globalEpoch;
            retired.offer(batch);
        }
    }

    /** Retires one block. */
    void retire(final long block) {
        retire(new long[] {0L, block});
    }

    /**
     * Advances the epoch if every thread inside an operation has seen the current one, then frees what was
     * retired two epochs ago. Reclaimer thread only.
     *
     * @return whether blocks still wait for a later epoch
     */
    boolean reclaim(final ContextRegistry registry, final PageArena arena) {
        for (long[] batch; (batch = retired.poll()) != null; ) {
            limbo.addLast(batch);
            blocksInLimbo += batch.length - 1;
        }
        if (limbo.isEmpty()) {
            return false;
        }
        final long epoch = globalEpoch;
        boolean quiescent = true;
        for (final ThreadContext context : registry.snapshot()) {
            final long seen = context.epoch();
            if (seen != 0 && seen != epoch) {
                quiescent = false;
                break;
            }
        }
        if (quiescent) {
            globalEpoch = epoch + 1;
        }
        final long safe = globalEpoch - 2;
        while (!limbo.isEmpty() && limbo.peekFirst()[0] <= safe) {
            final long[] batch = limbo.pollFirst();
            for (int i = 1; i < batch.length; i++) {
                arena.free(batch[i]);
            }
            blocksInLimbo -= batch.length - 1;
            blocksFreed += batch.length - 1;
        }
        return !limbo.isEmpty();
    }

    /** Whether batches were retired that the reclaimer has not taken yet. */
    boolean hasRetired() {
        return !retired.isEmpty();
    }

    /** Blocks retired and waiting for their epoch (batches not yet drained by the reclaimer excluded). */
    long blocksInLimbo() {
        return blocksInLimbo;
    }

    long blocksFreed() {
        return blocksFreed;
    }

    long globalEpoch() {
        return globalEpoch;
    }
}
