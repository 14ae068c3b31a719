package io.nearsort.core.sware;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fast path of a single-writer index's point reads: what a writer's revocation waits for and lets in. */
class ReadIndicatorTest {
    private final SwareCounters counters = new SwareCounters(true);
    private final ReadIndicator indicator = new ReadIndicator(counters);
    /** What a {@link #readInside} body threw. */
    private final AtomicReference<Throwable> readerFailure = new AtomicReference<>();

    @Test
    void aReadEntersAndLeavesWithItsThreadsSlot() {
        final ReadIndicator.Slot slot = indicator.enter();
        assertNotNull(slot);
        assertSame(Thread.currentThread(), slot.owner);
        assertSame(counters.reads(), slot.reads, "the slot carries the thread's read counts");
        assertNull(indicator.enter(), "a read inside a read of the same thread takes the lock");
        indicator.exit(slot);
        assertSame(slot, indicator.enter(), "the thread keeps its slot");
        indicator.exit(slot);
        assertEquals(1, indicator.slotCount());
    }

    @Test
    void revokedReadsTakeTheLockUntilRestored() {
        indicator.revoke();
        assertNull(indicator.enter());
        indicator.restore();
        final ReadIndicator.Slot slot = indicator.enter();
        assertNotNull(slot);
        indicator.exit(slot);
    }

    @Test
    void revocationWaitsForTheReadInside() throws Exception {
        final CountDownLatch inside = new CountDownLatch(1);
        final CountDownLatch leave = new CountDownLatch(1);
        final Thread reader = readInside(slot -> {
            inside.countDown();
            leave.await();
        });
        awaitOrFail(inside, "the reader did not enter");
        final CountDownLatch revoked = new CountDownLatch(1);
        final Thread writer = start(indicator::revoke, revoked);
        // Once a read from this thread is turned away, the writer has revoked the fast path (a read let in before
        // that leaves at once, so that the writer never waits for this thread).
        for (ReadIndicator.Slot early = indicator.enter(); early != null; early = indicator.enter()) {
            indicator.exit(early);
            Thread.onSpinWait();
        }
        assertFalse(revoked.await(200, TimeUnit.MILLISECONDS), "revoke returned with a read inside");
        assertNull(indicator.enter(), "a read that comes after the revocation does not enter");
        leave.countDown();
        assertTrue(revoked.await(10, TimeUnit.SECONDS), "revoke did not return once the read left");
        join(reader);
        writer.join();
    }

    @Test
    void aReadReadsAloneUntilATreeWriteIsAnnounced() {
        final ReadIndicator.Slot slot = indicator.enter();
        assertTrue(indicator.readsAlone(slot));
        assertTrue(indicator.readsAlone(slot), "asking again changes nothing");
        indicator.exit(slot);
        indicator.announceTreeWrite(); // no read is inside: returns at once
        final ReadIndicator.Slot beside = indicator.enter();
        assertNotNull(beside, "an announced tree write does not close the fast path");
        assertFalse(indicator.readsAlone(beside));
        indicator.endTreeWrite();
        assertFalse(indicator.readsAlone(beside), "a read that saw the announcement reads beside it to its end");
        indicator.exit(beside);
        final ReadIndicator.Slot after = indicator.enter();
        assertTrue(indicator.readsAlone(after), "the next read reads alone again");
        indicator.exit(after);
    }

    @Test
    void anAnnouncedTreeWriteWaitsForTheReadReadingAlone() throws Exception {
        final CountDownLatch alone = new CountDownLatch(1);
        final CountDownLatch ask = new CountDownLatch(1);
        final CountDownLatch asked = new CountDownLatch(1);
        final CountDownLatch leave = new CountDownLatch(1);
        final AtomicReference<Boolean> askedAgain = new AtomicReference<>();
        final Thread reader = readInside(slot -> {
            assertTrue(indicator.readsAlone(slot));
            alone.countDown();
            ask.await(); // a batch's next lookup
            askedAgain.set(indicator.readsAlone(slot));
            asked.countDown();
            leave.await();
        });
        awaitOrFail(alone, "the reader did not start reading alone");
        final CountDownLatch announced = new CountDownLatch(1);
        final Thread writer = start(indicator::announceTreeWrite, announced);
        // Once a read from this thread no longer reads alone, the writer has announced its write (a read that
        // still read alone left at once, so that the writer never waits for this thread).
        while (true) {
            final ReadIndicator.Slot beside = indicator.enter();
            assertNotNull(beside, "an announced tree write does not close the fast path");
            final boolean stillAlone = indicator.readsAlone(beside);
            indicator.exit(beside);
            if (!stillAlone) {
                break;
            }
            Thread.onSpinWait();
        }
        assertFalse(announced.await(200, TimeUnit.MILLISECONDS), "the write began beside a read reading alone");
        ask.countDown();
        awaitOrFail(announced, "the write still waited once the read had seen the announcement");
        // The write may go on as soon as the read's slot says it reads beside it, before the reader records that.
        awaitOrFail(asked, "the reader did not look again");
        assertFalse(askedAgain.get(), "the read's next lookup read alone beside the announced write");
        leave.countDown();
        join(reader);
        writer.join();
        indicator.endTreeWrite();
    }

    @Test
    void revocationWaitsForAReadBesideAnAnnouncedTreeWrite() throws Exception {
        indicator.announceTreeWrite();
        final ReadIndicator.Slot slot = indicator.enter();
        assertFalse(indicator.readsAlone(slot));
        final AtomicReference<Boolean> tried = new AtomicReference<>();
        final Thread writer = new Thread(() -> tried.set(indicator.tryRevoke()));
        writer.start();
        writer.join();
        assertFalse(tried.get(), "a read reading beside the tree write is still inside");
        final CountDownLatch revoked = new CountDownLatch(1);
        final Thread revoker = start(indicator::revoke, revoked);
        assertFalse(revoked.await(200, TimeUnit.MILLISECONDS), "revoke returned with a read beside the write inside");
        indicator.exit(slot);
        awaitOrFail(revoked, "revoke did not return once the read left");
        revoker.join();
        indicator.restore();
        indicator.endTreeWrite();
        assertTrue(indicator.tryRevoke());
        indicator.restore();
    }

    @Test
    void tryRevokeLeavesThePathOpenWhileAReadIsInside() throws Exception {
        final AtomicReference<Boolean> tried = new AtomicReference<>();
        final ReadIndicator.Slot slot = indicator.enter();
        final Thread writer = new Thread(() -> tried.set(indicator.tryRevoke()));
        writer.start();
        writer.join();
        assertFalse(tried.get());
        indicator.exit(slot);
        final ReadIndicator.Slot again = indicator.enter();
        assertNotNull(again, "the failed try left the fast path open");
        indicator.exit(again);
        assertTrue(indicator.tryRevoke());
        assertNull(indicator.enter());
        indicator.restore();
    }

    @Test
    void slotsOfEndedThreadsAreDroppedWhenAnotherRegisters() throws Exception {
        for (int i = 0; i < 5; i++) {
            final Thread reader = new Thread(() -> indicator.exit(indicator.enter()));
            reader.start();
            reader.join();
        }
        final ReadIndicator.Slot slot = indicator.enter();
        indicator.exit(slot);
        assertEquals(1, indicator.slotCount(), "only this thread's slot is left");
    }

    /**
     * Starts a thread that enters a read, runs {@code body} inside it, and leaves; what the body throws is kept
     * for {@link #awaitOrFail} and {@link #join}.
     */
    private Thread readInside(final ReadBody body) {
        final Thread reader = new Thread(() -> {
            final ReadIndicator.Slot slot = indicator.enter();
            try {
                body.run(slot);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                readerFailure.set(t);
            } finally {
                indicator.exit(slot);
            }
        });
        reader.setDaemon(true);
        reader.start();
        return reader;
    }

    /** Waits up to 10 s for {@code latch}; fails with {@code what}, and with what the reader threw, if any. */
    private void awaitOrFail(final CountDownLatch latch, final String what) throws InterruptedException {
        if (!latch.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError(what, readerFailure.get());
        }
    }

    /** Joins the reader and rethrows what its body threw. */
    private void join(final Thread reader) throws InterruptedException {
        reader.join(10_000);
        final Throwable failure = readerFailure.get();
        if (failure != null) {
            throw new AssertionError("the reader failed", failure);
        }
        assertFalse(reader.isAlive(), "the reader did not finish");
    }

    /** Starts a thread that runs a writer's {@code step} and then counts {@code done} down. */
    private static Thread start(final Runnable step, final CountDownLatch done) {
        final Thread writer = new Thread(() -> {
            step.run();
            done.countDown();
        });
        writer.setDaemon(true);
        writer.start();
        return writer;
    }

    /** What a reader does inside its read. */
    @FunctionalInterface
    private interface ReadBody {
        void run(ReadIndicator.Slot slot) throws InterruptedException;
    }
}
