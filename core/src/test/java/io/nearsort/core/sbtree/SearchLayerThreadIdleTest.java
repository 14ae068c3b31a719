package io.nearsort.core.sbtree;

import io.nearsort.core.memory.PageArena;
import io.nearsort.core.memory.SlabPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Field;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code SearchLayerThread.isIdle()} against a caller descheduled between its two reads. It used to read
 * {@code applying} before {@code requests.isEmpty()}, while the thread sets {@code applying = 1} before it polls: a
 * caller that read {@code applying == 0} while a request waited, and was descheduled while the thread woke and
 * polled that request, then read an empty queue and answered idle while the request was still being applied; so
 * did {@code SBTree.awaitSearchLayer}, and the tests that then walk the search layer ({@link SBTreeValidator}) or
 * expect {@code searchLayerLag == 0} could fail on a correct index. It reads the queue first now; this test fails
 * with the old order.
 *
 * <p>The caller's stall between its two reads is forced: the request is queued while the thread parks, and the
 * queue's {@code isEmpty()}, called by {@code isIdle()} after it read {@code applying}, wakes the thread and waits
 * until the thread took the request (as a caller descheduled there while the thread wakes does).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SearchLayerThreadIdleTest {

    @Test
    void isIdleIsFalseWhileARequestQueuedBeforeTheCallIsBeingApplied() throws Exception {
        final PageArena arena = PageArena.builder().pageSize(512).concurrent(true).slabPool(SlabPool.disabled())
                .build();
        final EpochReclamation reclamation = new EpochReclamation();
        final long head = arena.allocate();
        DataBlock.format(head, Long.MIN_VALUE, 0L);
        final SearchLayer searchLayer = new SearchLayer(new SearchBlockDescriptor(512), arena, reclamation, head);
        final SearchLayerThread searchLayerThread = new SearchLayerThread(searchLayer, reclamation,
                new ContextRegistry(), arena, 0);
        final CountDownLatch inApply = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        searchLayerThread.attach(block -> { // an unlink request being applied: held until released
            inApply.countDown();
            try {
                release.await();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        final StallingQueue requests = new StallingQueue();
        final Field field = SearchLayerThread.class.getDeclaredField("requests");
        field.setAccessible(true);
        field.set(searchLayerThread, requests);
        try {
            searchLayerThread.start();
            final Thread thread = searchLayerThread.thread();
            while (thread.getState() != Thread.State.WAITING) { // idle: parked without a timeout
                Thread.onSpinWait();
            }
            assertTrue(searchLayerThread.isIdle());
            // An unlink request ({UNLINK, block}), queued before the call; the thread has not woken for it yet.
            requests.offer(new long[] {2, 4096});
            requests.stallNextIsEmpty(thread);
            final boolean idle = searchLayerThread.isIdle();
            assertTrue(inApply.await(10, TimeUnit.SECONDS), "the thread took the request");
            assertFalse(idle, "isIdle() answered true while the request queued before the call is being applied");
        } finally {
            release.countDown();
            searchLayerThread.stop();
            arena.close();
        }
    }

    /** A request queue whose next {@code isEmpty()} first wakes the thread and waits until it polled a request. */
    private static final class StallingQueue extends ConcurrentLinkedQueue<long[]> {
        private static final long serialVersionUID = 1L;
        private transient volatile Thread wake;
        private transient volatile boolean polled;

        void stallNextIsEmpty(final Thread thread) {
            polled = false;
            wake = thread;
        }

        @Override
        public long[] poll() {
            final long[] request = super.poll();
            if (request != null) {
                polled = true;
            }
            return request;
        }

        @Override
        public boolean isEmpty() {
            final Thread thread = wake;
            if (thread != null && Thread.currentThread() != thread) {
                wake = null;
                LockSupport.unpark(thread);
                while (!polled) {
                    Thread.onSpinWait();
                }
            }
            return super.isEmpty();
        }
    }
}
