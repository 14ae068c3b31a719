package io.nearsort.core.sware;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * An object per thread, found in a few loads: a small table indexed by a hash of the thread's id, in front of a
 * {@link ThreadLocal}. A {@code ThreadLocal.get()} cost a single-writer index's point read about 30 ns on a
 * 2-core Intel VM (10M keys, K=5%/L=5%: 275 against 244 ns a lookup, docs/benchmarks.md); the table, 3 loads
 * and a compare. Two threads whose ids hash alike take turns in one entry and go to the {@link ThreadLocal} on
 * every turn: slower, never wrong, since an entry is used only by the thread it names. Entries are plain
 * references, which never tear.
 *
 * @param <T> the per-thread object, which names its thread
 */
final class PerThread<T extends PerThread.Owned> {
    /** An object that belongs to one thread. */
    interface Owned {
        /** The thread this object belongs to. */
        Thread owner();
    }

    private static final int RECENT_BITS = 6;

    private final ThreadLocal<T> local;
    private final Object[] recent = new Object[1 << RECENT_BITS];

    /** @param create makes this thread's object, called once per thread on its first {@link #get} */
    PerThread(final Supplier<T> create) {
        this.local = ThreadLocal.withInitial(create);
    }

    /**
     * A registry's next array: the objects of {@code registered} whose threads are still alive, then {@code mine};
     * each dropped object goes to {@code ended}. Registries of per-thread objects call this when a thread
     * registers, so that ended threads' objects (and their {@code Thread}s) do not pile up in a long-lived index;
     * a thread's termination orders its last writes before {@code isAlive()} returns false (JLS 17.4.4).
     */
    static <T extends Owned> T[] keepLive(final T[] registered, final T mine, final Consumer<? super T> ended) {
        final T[] kept = Arrays.copyOf(registered, registered.length + 1);
        int k = 0;
        for (final T t : registered) {
            if (t.owner().isAlive()) {
                kept[k++] = t;
            } else {
                ended.accept(t);
            }
        }
        kept[k++] = mine;
        return Arrays.copyOf(kept, k);
    }

    /** This thread's object. */
    @SuppressWarnings("unchecked")
    T get() {
        final Thread me = Thread.currentThread();
        final int hash = (int) ((me.getId() * 0x9E3779B97F4A7C15L) >>> (Long.SIZE - RECENT_BITS));
        final T cached = (T) recent[hash];
        if (cached != null && cached.owner() == me) {
            return cached;
        }
        final T mine = local.get();
        recent[hash] = mine;
        return mine;
    }
}
