package io.nearsort.core.sbtree;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;

/**
 * What one thread keeps in one index: its current per-thread data block and the reservation word that guards
 * it, its epoch for {@link EpochReclamation}, its statistics, and scratch arrays. Created at a thread's first
 * call and registered with the index ({@link ContextRegistry}); other threads read it to seal blocks, to advance
 * epochs and to sum statistics.
 *
 * <h2>The reservation word</h2>
 * Which entry of its per-thread block the owner may write next is not decided in the block but in
 * {@link #word}, on the heap:
 * <pre>
 *   bit 63: sealed (by a conversion, §IV-B)   bit 62: closed (by close())   bits 32..61: generation of the
 *   block it refers to   bits 0..31: entries reserved in it
 * </pre>
 * The owner reserves entry {@code n} with a compare-and-set from an unsealed word with count {@code n}, then
 * writes and publishes the entry. A conversion seals the word with a compare-and-set of the same word, so that
 * afterwards no entry can be reserved, and waits until the block's published count reaches the word's count;
 * {@code close()} does the same with the closed bit. Because the owner touches a block only after a successful
 * reservation, a block is never written after its segmented block was sealed or the index closed, however the
 * owner was scheduled. The compare-and-set is on the owner's own cache line (other threads write it once per
 * conversion), so it costs an uncontended atomic, the price of the paper's version check on this path.
 */
final class ThreadContext extends ThreadContextHotFields {
    static final long SEALED = 1L << 63;
    static final long CLOSED = 1L << 62;
    static final long COUNT_MASK = 0xFFFF_FFFFL;
    static final int GENERATION_MASK = (1 << 30) - 1;

    private static final VarHandle WORD;
    private static final VarHandle EPOCH;
    private static final VarHandle DATA_ENTRIES;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            WORD = lookup.findVarHandle(ThreadContextHotFields.class, "word", long.class);
            EPOCH = lookup.findVarHandle(ThreadContextHotFields.class, "epoch", long.class);
            DATA_ENTRIES = lookup.findVarHandle(ThreadContextHotFields.class, "dataEntries", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int id;
    private final WeakReference<Thread> thread;
    // Padding after the hot fields (the superclass pads before them).
    @SuppressWarnings("unused")
    private long q0, q1, q2, q3, q4, q5, q6, q7;

    ThreadContext(final int id, final Thread thread) {
        this.id = id;
        this.thread = new WeakReference<>(thread);
    }

    /** Whether the owner thread has ended (or was collected): it will never write again. */
    boolean ownerGone() {
        final Thread t = thread.get();
        return t == null || !t.isAlive();
    }

    Thread owner() {
        return thread.get();
    }

    // ------------------------------------------------------------------ reservation word

    long word() {
        return (long) WORD.getVolatile(this);
    }

    /** The owner's own read of its word: only it changes the count, others only set bits it will CAS against. */
    long wordPlain() {
        return (long) WORD.get(this);
    }

    boolean casWord(final long expected, final long update) {
        return WORD.compareAndSet(this, expected, update);
    }

    static int count(final long word) {
        return (int) (word & COUNT_MASK);
    }

    static int generation(final long word) {
        return (int) (word >>> 32) & GENERATION_MASK;
    }

    static long word(final int generation, final int count) {
        return ((long) (generation & GENERATION_MASK) << 32) | count;
    }

    static boolean isBlocked(final long word) {
        return (word & (SEALED | CLOSED)) != 0;
    }

    /**
     * Sets {@code bit} ({@link #SEALED} or {@link #CLOSED}) if the word still refers to {@code generation}.
     *
     * @return the number of entries reserved in the block of {@code generation}, final from now on, or -1 when
     *         the owner had moved on to another generation (then that block is complete: it was full or sealed)
     */
    int seal(final int generation, final long bit) {
        while (true) {
            final long w = word();
            if (generation(w) != generation) {
                return -1;
            }
            if ((w & bit) != 0 || casWord(w, w | bit)) {
                return count(w);
            }
        }
    }

    // ------------------------------------------------------------------ epoch

    long epoch() {
        return (long) EPOCH.getVolatile(this);
    }

    void announceEpoch(final long value) {
        EPOCH.setVolatile(this, value);
    }

    void leaveEpoch() {
        EPOCH.setRelease(this, 0L);
    }

    // ------------------------------------------------------------------ statistics

    /** Adds to the entries this thread moved into or out of data blocks (read by {@code size()}). */
    void addDataEntries(final long delta) {
        DATA_ENTRIES.setRelease(this, (long) DATA_ENTRIES.get(this) + delta);
    }

    long dataEntries() {
        return (long) DATA_ENTRIES.getAcquire(this);
    }

    /**
     * Adds {@code other}'s statistics to this context's: {@code stats()} sums the live contexts this way, and the
     * registry folds the contexts of ended threads into its retired total.
     */
    void addStatistics(final ThreadContext other) {
        addDataEntries(other.dataEntries());
        shortcutInserts += other.shortcutInserts;
        shortcutRemoves += other.shortcutRemoves;
        delayedInserts += other.delayedInserts;
        delayedUpdates += other.delayedUpdates;
        removes += other.removes;
        walkSteps += other.walkSteps;
        searchLayerRestarts += other.searchLayerRestarts;
        blockSplits += other.blockSplits;
        ascendingSplits += other.ascendingSplits;
        conversions += other.conversions;
        convertedEntries += other.convertedEntries;
        blocksCreated += other.blocksCreated;
        conversionWaits += other.conversionWaits;
    }
}
