package io.nearsort.core.sbtree;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Orders writes of one key that land in different per-thread blocks of a segmented block, so that the latest
 * write wins as it does everywhere else in the index. The paper's keys are unique time stamps and it leaves this
 * case out; a map that upserts must not.
 *
 * <p>Keys are spread over {@value #STRIPES} stripes by their low bits. A stripe holds the id of the thread that
 * last wrote a key of the stripe and a counter. A thread that owns the stripe stamps its entry with the
 * counter; another thread first takes the stripe over with a compare-and-set that increments the counter. Two
 * writes of one key therefore carry stamps in the order of the stripe's operations: a write that returned before
 * another began has the smaller stamp, or, from the same thread, the same stamp and an earlier position. Readers
 * and the conversion keep, of all copies of a key, the one with the largest stamp (ties: the later position),
 * which makes point reads linearizable.
 *
 * <p>A single writer only reads its stripes (they stay in its cache); writers whose keys share no low bits
 * (the paper's sensor ids in the low bytes, split among threads) rarely take a stripe over. Stamps are compared
 * within one segmented block only, whose entries are far fewer than 2<sup>30</sup>, so 31 bits and wrap-around
 * comparison suffice. Thread-safe.
 */
final class WriteStamps {
    static final int STRIPES = 1024;
    private static final int MASK = STRIPES - 1;
    private static final long COUNTER_MASK = 0xFFFF_FFFFL;
    private static final int STAMP_MASK = 0x7FFF_FFFF;
    private static final VarHandle STRIPE = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] stripes = new long[STRIPES];

    /**
     * The stamp of a write of {@code key} by the thread with id {@code owner} (ids start at 1), in [0, 2^31).
     */
    int stamp(final int owner, final long key) {
        final int i = (int) key & MASK;
        while (true) {
            final long stripe = (long) STRIPE.getVolatile(stripes, i);
            if ((int) (stripe >>> 32) == owner) {
                return (int) stripe & STAMP_MASK;
            }
            final long taken = ((long) owner << 32) | ((stripe + 1) & COUNTER_MASK);
            if (STRIPE.compareAndSet(stripes, i, stripe, taken)) {
                return (int) taken & STAMP_MASK;
            }
        }
    }

    /**
     * Whether stored stamp {@code a} ({@code stamp << 1 | tombstone}) is newer than {@code b}: a strictly larger
     * stamp in wrap-around order.
     */
    static boolean isNewer(final int a, final int b) {
        final int difference = ((a >>> 1) - (b >>> 1)) & STAMP_MASK;
        return difference != 0 && difference < (1 << 30);
    }

    /** Whether stored stamps {@code a} and {@code b} carry the same stamp (then the later position wins). */
    static boolean isSame(final int a, final int b) {
        return (a >>> 1) == (b >>> 1);
    }
}
