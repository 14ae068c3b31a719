package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import io.nearsort.core.IndexStats;
import io.nearsort.core.Indexes;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import static io.nearsort.core.testing.TestThreads.check;
import static io.nearsort.core.testing.TestThreads.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One writer and several readers, the way sinks use an index: a linearizability oracle. The writer replays a
 * fixed log of operations on a late-event stream (puts one by one and in {@code putAll} batches of up to 500,
 * overwrites, deletes), announcing before each step how far it is about to go ({@code started}) and after it how
 * far it got ({@code done}). A reader's result must be the state after some prefix of the log between the
 * {@code done} it read before the read and the {@code started} it read after: every point lookup, every key of a
 * short scan (and every key of the scanned range it did not return), and every {@code size()}. With a single
 * writer, that is exactly linearizability. Run for the lock-free single-writer mode and for the default mode, over
 * the B+-tree (whose point reads go on beside a flush cycle's tree writes) and over the Bε-tree (which does not
 * claim {@code concurrentPointReads()}: reads wait for the tree's writer).
 */
@Timeout(120)
class SortednessAwareIndexOneWriterTest {
    private static final int OPERATIONS = 200_000;
    private static final int READERS = 3;
    private static final long MISSING = Long.MIN_VALUE;
    private static final String BPLUS = "SA B+-tree";
    private static final String BETREE = "SA Bε-tree";
    /** The log's stream: late events, or keys in order, whose batches go past the buffer when it is empty. */
    private static final String LATE = "late events";
    private static final String SORTED = "sorted";
    /**
     * One event in 20 late by up to 5% of the log, the rest in order: late entries that escape a buffer of 2,000,
     * which flush cycles top-insert into the tree while readers read it.
     */
    private static final String FAR = "far-late events";

    static Stream<Arguments> modes() {
        return Stream.of(
                Arguments.of(BPLUS, Concurrency.SINGLE_WRITER, 1, LATE),
                Arguments.of(BPLUS, Concurrency.SINGLE_WRITER, 64, LATE),
                Arguments.of(BPLUS, Concurrency.SINGLE_WRITER, 2_000, LATE),
                Arguments.of(BPLUS, Concurrency.MULTI_WRITER, 2_000, LATE),
                Arguments.of(BPLUS, Concurrency.SINGLE_WRITER, 2_000, SORTED),
                Arguments.of(BPLUS, Concurrency.MULTI_WRITER, 2_000, SORTED),
                Arguments.of(BPLUS, Concurrency.SINGLE_WRITER, 2_000, FAR),
                Arguments.of(BPLUS, Concurrency.MULTI_WRITER, 2_000, FAR),
                Arguments.of(BETREE, Concurrency.SINGLE_WRITER, 1, LATE),
                Arguments.of(BETREE, Concurrency.SINGLE_WRITER, 64, LATE),
                Arguments.of(BETREE, Concurrency.MULTI_WRITER, 64, LATE),
                Arguments.of(BETREE, Concurrency.MULTI_WRITER, 2_000, LATE),
                Arguments.of(BETREE, Concurrency.SINGLE_WRITER, 2_000, SORTED),
                Arguments.of(BETREE, Concurrency.SINGLE_WRITER, 2_000, FAR),
                // The pinned writer reads its own writes without a lock, beside the readers.
                Arguments.of(BPLUS, Concurrency.PINNED_WRITER, 1, LATE),
                Arguments.of(BPLUS, Concurrency.PINNED_WRITER, 64, LATE),
                Arguments.of(BPLUS, Concurrency.PINNED_WRITER, 2_000, LATE),
                Arguments.of(BPLUS, Concurrency.PINNED_WRITER, 2_000, SORTED),
                Arguments.of(BPLUS, Concurrency.PINNED_WRITER, 2_000, FAR),
                Arguments.of(BETREE, Concurrency.PINNED_WRITER, 64, LATE),
                Arguments.of(BETREE, Concurrency.PINNED_WRITER, 2_000, FAR));
    }

    /** The writer's log: op i writes {@code values[i]} to {@code keys[i]}, or deletes it when {@code removes[i]}. */
    private static final class Log {
        final long[] keys = new long[OPERATIONS];
        final long[] values = new long[OPERATIONS];
        final boolean[] removes = new boolean[OPERATIONS];
        /** Ends of the writer's steps: step s covers ops [stepEnds[s - 1], stepEnds[s]). */
        final int[] stepEnds;
        /** Per key, the ops that touch it, ascending. */
        final Map<Long, int[]> history = new HashMap<>();
        /** The index's size after each prefix of the log. */
        final int[] sizeAfter = new int[OPERATIONS + 1];

        Log(final long seed, final String stream) {
            final SplittableRandom random = new SplittableRandom(seed);
            final boolean sorted = stream.equals(SORTED);
            // Late events: event i (key 2i) arrives at i + d, d uniform in [0, 0.5% of n); sorted: d = 0; far-late:
            // d uniform in [0, 5% of n) for one event in 20, 0 for the others.
            final long[] arrival = new long[OPERATIONS];
            for (int i = 0; i < OPERATIONS; i++) {
                final int delay = sorted ? 1 : !stream.equals(FAR) ? OPERATIONS / 200
                        : random.nextInt(20) == 0 ? OPERATIONS / 20 : 1;
                arrival[i] = (long) (i + random.nextInt(delay)) * OPERATIONS + i;
            }
            Arrays.sort(arrival);
            final List<Integer> ends = new ArrayList<>();
            final TreeMap<Long, Long> state = new TreeMap<>();
            final Map<Long, List<Integer>> touches = new HashMap<>();
            // Sorted: batches only, each past the buffer (which stays empty) beside the readers; a single put
            // would leave the buffer holding entries from then on.
            final int batches = sorted ? 100 : 10;
            final int recentFrom = 70;
            final int removesFrom = 85;
            int op = 0;
            while (op < OPERATIONS) {
                final int dice = random.nextInt(100);
                // A putAll batch of late events, or one operation: a put, an overwrite or a delete of a recent key.
                final int length = dice < batches
                        ? Math.min(OPERATIONS - op, (sorted ? 2 : 1) + random.nextInt(sorted ? 499 : 500)) : 1;
                for (int i = op; i < op + length; i++) {
                    final boolean recent = length == 1 && dice >= recentFrom && i > 0;
                    keys[i] = recent ? keys[Math.max(0, i - 1 - random.nextInt(3_000))]
                            : 2 * (arrival[i] % OPERATIONS);
                    removes[i] = recent && dice >= removesFrom;
                    values[i] = ((long) i << 16) | random.nextInt(1 << 16);
                    if (removes[i]) {
                        state.remove(keys[i]);
                    } else {
                        state.put(keys[i], values[i]);
                    }
                    touches.computeIfAbsent(keys[i], k -> new ArrayList<>()).add(i);
                    sizeAfter[i + 1] = state.size();
                }
                op += length;
                ends.add(op);
            }
            stepEnds = ends.stream().mapToInt(Integer::intValue).toArray();
            touches.forEach((k, list) -> history.put(k, list.stream().mapToInt(Integer::intValue).toArray()));
        }

        boolean isBatch(final int step) {
            final int from = step == 0 ? 0 : stepEnds[step - 1];
            return stepEnds[step] - from > 1 || (from % 13 == 0 && !removes[from]);
        }

        /** Whether {@code key} read as {@code value} (or {@link #MISSING}) is its state after some prefix in [lo, hi]. */
        boolean plausible(final long key, final long value, final int lo, final int hi) {
            final int[] ops = history.get(key);
            if (ops == null) {
                return value == MISSING;
            }
            int at = Arrays.binarySearch(ops, lo);
            at = at >= 0 ? at : -at - 1; // first op at or after lo
            // The state after prefix lo: the op just before lo, if any.
            if (matches(at > 0 ? ops[at - 1] : -1, value)) {
                return true;
            }
            for (int i = at; i < ops.length && ops[i] < hi; i++) {
                if (matches(ops[i], value)) {
                    return true;
                }
            }
            return false;
        }

        private boolean matches(final int op, final long value) {
            if (op < 0 || removes[op]) {
                return value == MISSING;
            }
            return values[op] == value;
        }

        int minSize(final int lo, final int hi) {
            int min = Integer.MAX_VALUE;
            for (int p = lo; p <= hi; p++) {
                min = Math.min(min, sizeAfter[p]);
            }
            return min;
        }

        int maxSize(final int lo, final int hi) {
            int max = 0;
            for (int p = lo; p <= hi; p++) {
                max = Math.max(max, sizeAfter[p]);
            }
            return max;
        }
    }

    private volatile int started;
    private volatile int done;
    /** Added to every seed: 0 in the default run, another value per round of {@link SwareSoakTest}. */
    long seedOffset;

    @ParameterizedTest(name = "{0}, {1}, buffer {2}, {3}")
    @MethodSource("modes")
    void readersSeeAPrefixOfTheWritersLog(final String structure, final Concurrency concurrency,
                                          final int bufferCapacity, final String stream) throws InterruptedException {
        final Log log = new Log(seedOffset + bufferCapacity, stream);
        // 512-byte nodes: the Bε-tree's buffers (22 messages) flush at every level while readers read.
        final SortednessAwareIndexBuilder builder = structure.equals(BPLUS) ? Indexes.saBPlusTree()
                : Indexes.saBeTree();
        try (SortednessAwareIndex index = builder.bufferCapacity(bufferCapacity).pageSize(512)
                .queryDrivenSortThreshold(0.1).concurrency(concurrency).build()) {
            assertEquals(structure, index.stats().structure());
            final List<Throwable> failures = new ArrayList<>();
            final CountDownLatch go = new CountDownLatch(1);
            final List<Thread> threads = new ArrayList<>();
            threads.add(new Thread(() -> run(failures, go, () -> write(index, log))));
            for (int r = 0; r < READERS; r++) {
                final long seed = r;
                threads.add(new Thread(() -> run(failures, go, () -> read(index, log, seed))));
            }
            threads.forEach(Thread::start);
            go.countDown();
            for (final Thread thread : threads) {
                thread.join();
            }
            assertTrue(failures.isEmpty(), failures.toString());
            assertEquals(log.sizeAfter[OPERATIONS], index.size());
            final TreeMap<Long, Long> expected = new TreeMap<>();
            log.history.forEach((key, ops) -> {
                final int last = ops[ops.length - 1];
                if (!log.removes[last]) {
                    expected.put(key, log.values[last]);
                }
            });
            assertEquals(expected, index.asNavigableMap());
            assertTrue(index.stats().counter(SwareCounters.LOOKUPS) > 0);
            if (stream.equals(SORTED)) {
                assertTrue(index.stats().counter(SwareCounters.ENTRIES_PAST_BUFFER) >= OPERATIONS - 1,
                        "every batch went past the buffer (a last one-entry step may be a put)");
            }
            if (stream.equals(FAR)) {
                assertTrue(index.stats().counter(IndexStats.TOP_INSERTS) > 0, index.stats().toString());
            }
        }
    }

    private void write(final SortednessAwareIndex index, final Log log) {
        int from = 0;
        for (int step = 0; step < log.stepEnds.length; step++) {
            final int to = log.stepEnds[step];
            started = to;
            if (log.removes[from]) {
                index.remove(log.keys[from]);
            } else if (log.isBatch(step)) {
                index.putAll(log.keys, log.values, from, to);
            } else {
                index.put(log.keys[from], log.values[from]);
            }
            done = to;
            if (step % 7 == 0) { // read-your-writes
                final long key = log.keys[to - 1];
                check(log.plausible(key, index.getOrDefault(key, MISSING), to, to), "the writer reads its own write");
                check(index.containsKey(key) == !log.removes[to - 1], "the writer finds its own write");
                final long[] batch = {log.keys[from], key};
                index.getAll(batch, batch, 0, 2, MISSING);
                check(log.plausible(key, batch[1], to, to), "the writer's getAll reads its own write");
                check(log.plausible(log.keys[from], batch[0], to, to), "the writer's getAll reads its step's first");
            }
            from = to;
        }
    }

    private void read(final SortednessAwareIndex index, final Log log, final long seed) {
        final SplittableRandom random = new SplittableRandom(seedOffset + seed);
        long reads = 0;
        while (done < OPERATIONS || reads < 1_000) {
            final int before = done;
            final long key = pickKey(log, random, before, 8);
            final int dice = random.nextInt(20);
            if (dice == 0) {
                final long size = index.size();
                final int after = started;
                check(size >= log.minSize(before, after) && size <= log.maxSize(before, after),
                        "size " + size + " is no state of ops [" + before + ", " + after + "]");
            } else if (dice < 4) {
                final long lo = key - random.nextInt(100);
                final long hi = lo + 200;
                final Map<Long, Long> seen = new TreeMap<>();
                final long[] previous = {Long.MIN_VALUE};
                index.forEachInRange(lo, hi, (k, v) -> {
                    check(k > previous[0] || seen.isEmpty(), "scan keys ascend without repeats");
                    previous[0] = k;
                    seen.put(k, v);
                });
                final int after = started;
                for (long k = lo; k <= hi; k++) {
                    final Long v = seen.get(k);
                    final long got = v == null ? MISSING : v;
                    check(log.plausible(k, got, before, after),
                            "scan [" + lo + ", " + hi + "] gave " + k + " -> " + got + ", no state of ops [" + before
                                    + ", " + after + "]");
                }
            } else if (dice < 7) {
                readBatch(index, log, random, before);
            } else {
                final long got = index.getOrDefault(key, MISSING);
                final int after = started;
                check(log.plausible(key, got, before, after),
                        "get(" + key + ") = " + got + " is no state of ops [" + before + ", " + after + "]");
            }
            reads++;
        }
    }

    /**
     * A key to read: mostly one written recently (still in the buffer), one in {@code anywhere} a key of the whole
     * log; one in five is the key above it (usually never written).
     */
    private static long pickKey(final Log log, final SplittableRandom random, final int before, final int anywhere) {
        final int op = random.nextInt(anywhere) == 0 ? random.nextInt(OPERATIONS)
                : Math.max(0, Math.min(OPERATIONS - 1, before - random.nextInt(2_000)));
        return log.keys[op] + (random.nextInt(5) == 0 ? 1 : 0);
    }

    /**
     * A {@link SortednessAwareIndex#getAll} batch of up to 200 keys (up to four of its chunks), recent and older
     * ones: each key's result must be a state of the log between the batch's {@code before} and the
     * {@code started} read after it.
     */
    private void readBatch(final SortednessAwareIndex index, final Log log, final SplittableRandom random,
                           final int before) {
        final long[] keys = new long[1 + random.nextInt(200)];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = pickKey(log, random, before, 4);
        }
        final long[] values = new long[keys.length];
        index.getAll(keys, values, 0, keys.length, MISSING);
        final int after = started;
        for (int i = 0; i < keys.length; i++) {
            if (!log.plausible(keys[i], values[i], before, after)) {
                check(false, "getAll: key #" + i + " of " + keys.length + ", " + keys[i] + " -> " + values[i]
                        + ", is no state of ops [" + before + ", " + after + "]");
            }
        }
    }
}
