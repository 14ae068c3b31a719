package io.nearsort.core.testing;

import java.util.List;
import java.util.concurrent.CountDownLatch;

/** What the multi-threaded tests share: a thread body that starts on a latch and collects what it throws. */
public final class TestThreads {
    private TestThreads() {
    }

    /** Waits for {@code go}, runs {@code body} and adds whatever it throws to {@code failures}. */
    public static void run(final List<Throwable> failures, final CountDownLatch go, final Runnable body) {
        try {
            go.await();
            body.run();
        } catch (final Throwable t) {
            synchronized (failures) {
                failures.add(t);
            }
        }
    }

    /** Fails the calling thread with {@code message} unless {@code condition} (for {@link #run}'s bodies). */
    public static void check(final boolean condition, final String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
