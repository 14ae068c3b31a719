package io.nearsort.core.betree;

import io.nearsort.core.Concurrency;
import io.nearsort.core.Indexes;
import io.nearsort.core.sware.SortednessAwareIndex;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;

import static io.nearsort.core.testing.TestThreads.check;
import static io.nearsort.core.testing.TestThreads.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SA Bε-tree with one writer and reader threads (SWARE §IV-D concurrency over the §V-G tree): the Bε-tree does
 * not claim {@code concurrentPointReads()}, so a point read that reaches the tree while a flush cycle writes to it
 * must wait. The tree is preloaded with the even keys; the writer then top-inserts the odd keys in scrambled order
 * with a small SWARE buffer over 512-byte nodes, so nearly every flush cycle cascades messages through the
 * Bε-tree's buffers, splits nodes and rewrites pages in place. Readers look up keys the detached runs do not hold
 * (the even keys, always present with their value) and odd keys (absent or with their value): a read inside a
 * page being rewritten would miss an even key or see a wrong value. {@code SaBeTreeOracleTest} checks single-thread
 * semantics in all three modes; here only the two modes that admit reader threads.
 */
@Timeout(120)
class SaBeTreeConcurrentReadsTest {
    private static final int KEYS = 60_000;
    private static final int READERS = 2;

    @ParameterizedTest
    @EnumSource(value = Concurrency.class, names = {"MULTI_WRITER", "SINGLE_WRITER"})
    void readersSeeEveryTreeKeyWhileFlushesCascade(final Concurrency concurrency) throws InterruptedException {
        try (SortednessAwareIndex index = Indexes.saBeTree().pageSize(512).bufferCapacity(64)
                .concurrency(concurrency).build()) {
            final long[] odd = scrambledOddKeys(KEYS, 19);
            for (long key = 0; key < 2L * KEYS; key += 2) {
                index.put(key, ~key);
            }
            final List<Throwable> failures = new ArrayList<>();
            final CountDownLatch go = new CountDownLatch(1);
            final int[] writtenSoFar = new int[1];
            final Thread writer = new Thread(() -> run(failures, go, () -> {
                for (int i = 0; i < odd.length; i++) {
                    index.put(odd[i], ~odd[i]);
                }
                writtenSoFar[0] = odd.length;
            }));
            final List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < READERS; r++) {
                final long seed = r;
                readers.add(new Thread(() -> run(failures, go, () -> {
                    final SplittableRandom random = new SplittableRandom(seed);
                    long reads = 0;
                    while (writer.isAlive() || reads < 10_000) {
                        final long key = random.nextLong(2L * KEYS);
                        final long got = index.getOrDefault(key, Long.MIN_VALUE);
                        if ((key & 1) == 0) {
                            check(got == ~key, "get(" + key + ") = " + got + ": a preloaded key went missing");
                        } else {
                            check(got == Long.MIN_VALUE || got == ~key, "get(" + key + ") = " + got);
                        }
                        if ((key & 1) == 0 && random.nextInt(4) == 0) {
                            check(index.containsKey(key), "containsKey(" + key + ") of a preloaded key");
                        }
                        reads++;
                    }
                })));
            }
            writer.start();
            readers.forEach(Thread::start);
            go.countDown();
            writer.join();
            for (final Thread reader : readers) {
                reader.join();
            }
            assertTrue(failures.isEmpty(), failures.toString());
            assertEquals(KEYS, writtenSoFar[0]);
            assertEquals(2L * KEYS, index.size());
            assertTrue(index.stats().counter(BeTree.NODE_FLUSHES_LEVEL + 2) > 0, "flushes above the leaves");
            for (long key = 0; key < 2L * KEYS; key++) {
                assertEquals(~key, index.getOrDefault(key, Long.MIN_VALUE), "key " + key);
            }
            assertFalse(index.stats().counter(BeTree.MESSAGES_BUFFERED) == 0, "top-inserts wait in the buffers");
        }
    }

    private static long[] scrambledOddKeys(final int n, final long seed) {
        final long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = 2L * i + 1;
        }
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            final int j = random.nextInt(i + 1);
            final long t = keys[i];
            keys[i] = keys[j];
            keys[j] = t;
        }
        return keys;
    }
}
