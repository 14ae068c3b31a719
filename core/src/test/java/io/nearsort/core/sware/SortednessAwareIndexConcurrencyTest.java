package io.nearsort.core.sware;

import io.nearsort.core.Indexes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.nearsort.core.testing.TestThreads.check;
import static io.nearsort.core.testing.TestThreads.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Writers and readers at once: each writer owns the keys congruent to its id modulo the writer count and keeps
 * its own {@link TreeMap} oracle, checking after every write that it reads its own write; readers check that
 * every value they see was written to that key; at the end the index holds exactly the union of the oracles.
 */
class SortednessAwareIndexConcurrencyTest {
    private static final int WRITERS = 3;
    private static final int READERS = 2;
    private static final int OPERATIONS = 60_000;
    /** Added to every seed: 0 in the default run, another value per round of {@link SwareSoakTest}. */
    long seedOffset;

    @Test
    void concurrentWritersAndReadersAgreeWithPerThreadOracles() throws InterruptedException {
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(2_000).pageSize(1024).build()) {
            final List<TreeMap<Long, Long>> oracles = new ArrayList<>();
            final List<Throwable> failures = new ArrayList<>();
            final Map<Long, Boolean> everWritten = new ConcurrentHashMap<>();
            final AtomicBoolean writing = new AtomicBoolean(true);
            final CountDownLatch start = new CountDownLatch(1);
            final List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                final int id = w;
                final TreeMap<Long, Long> oracle = new TreeMap<>();
                oracles.add(oracle);
                threads.add(new Thread(() -> run(failures, start, () -> {
                    final SplittableRandom random = new SplittableRandom(seedOffset + id);
                    long clock = 0;
                    for (int op = 0; op < OPERATIONS; op++) {
                        // Near-sorted per writer: mostly increasing, sometimes late or a delete.
                        clock += random.nextInt(3);
                        final long base = random.nextInt(10) == 0 ? clock - random.nextInt(500) : clock;
                        final long key = base * WRITERS + id;
                        if (random.nextInt(8) == 0) {
                            index.remove(key);
                            oracle.remove(key);
                            check(!index.containsKey(key), "writer " + id + " reads its own delete of " + key);
                        } else {
                            final long value = key ^ ((long) op << 20);
                            everWritten.put(value, Boolean.TRUE);
                            index.put(key, value);
                            oracle.put(key, value);
                            check(index.getOrDefault(key, -1) == value, "writer " + id + " reads its own write");
                        }
                        if (op % 5_000 == 0) {
                            final Map<Long, Long> mine = new TreeMap<>();
                            index.forEachInRange(Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> {
                                if (Math.floorMod(k, WRITERS) == id) {
                                    mine.put(k, v);
                                }
                            });
                            check(mine.equals(oracle), "writer " + id + " scans exactly its own keys at op " + op);
                        }
                    }
                })));
            }
            for (int r = 0; r < READERS; r++) {
                final int id = r;
                threads.add(new Thread(() -> run(failures, start, () -> {
                    final SplittableRandom random = new SplittableRandom(seedOffset + 100 + id);
                    while (writing.get()) {
                        final long key = random.nextInt(OPERATIONS * WRITERS);
                        final long value = index.getOrDefault(key, Long.MIN_VALUE);
                        check(value == Long.MIN_VALUE || everWritten.containsKey(value), "reader saw a value never written");
                        final long[] previous = {Long.MIN_VALUE};
                        index.forEachInRange(key, key + 300, (k, v) -> {
                            check(k > previous[0], "scan keys ascend without duplicates");
                            check(everWritten.containsKey(v), "scan saw a value never written");
                            previous[0] = k;
                        });
                        index.asNavigableMap().ceilingKey(key);
                    }
                })));
            }
            threads.forEach(Thread::start);
            start.countDown();
            for (int i = 0; i < WRITERS; i++) {
                threads.get(i).join();
            }
            writing.set(false);
            for (final Thread thread : threads) {
                thread.join();
            }
            assertTrue(failures.isEmpty(), failures.toString());
            final TreeMap<Long, Long> union = new TreeMap<>();
            oracles.forEach(union::putAll);
            assertEquals(union.size(), index.size());
            assertEquals(union, index.asNavigableMap());
        }
    }
}
