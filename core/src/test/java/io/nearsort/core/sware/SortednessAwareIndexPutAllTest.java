package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import io.nearsort.core.Indexes;
import io.nearsort.core.LongIndex;
import io.nearsort.core.sortedness.KLGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Batched writes ({@code putAll}) against a TreeMap, interleaved with single writes, deletes and reads, in every
 * {@link Concurrency} mode (the single writer's lock-free chunks included).
 */
class SortednessAwareIndexPutAllTest {

    /** A batch shaped like what sinks hand over: ascending runs, late keys, duplicates, edge keys. */
    private static long[] batch(final SplittableRandom rnd, final long[] next, final int n) {
        final long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = switch (rnd.nextInt(40)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                case 2, 3, 4 -> next[0] - rnd.nextInt(3000);      // late
                case 5 -> i > 0 ? keys[i - 1] : next[0];          // duplicate of the previous key
                case 6 -> rnd.nextLong();                          // anywhere
                default -> next[0] += rnd.nextInt(3);             // in order, ties included
            };
        }
        return keys;
    }

    @ParameterizedTest
    @EnumSource(Concurrency.class)
    void putAllAgreesWithTreeMapAcrossBufferShapes(final Concurrency concurrency) {
        for (int capacity : new int[] {1, 7, 100, 1000, 20_000}) {
            final SplittableRandom rnd = new SplittableRandom(capacity);
            final TreeMap<Long, Long> oracle = new TreeMap<>();
            final long[] next = {-(1L << 40)};
            try (LongIndex index = Indexes.saBPlusTree().bufferCapacity(capacity).pageSize(512)
                    .concurrency(concurrency).build()) {
                for (int round = 0; round < 400; round++) {
                    final int n = rnd.nextInt(round % 10 == 0 ? 9000 : 300);
                    final long[] keys = batch(rnd, next, n);
                    final long[] values = rnd.longs(n).toArray();
                    final int from = n == 0 ? 0 : rnd.nextInt(Math.min(n, 5) + 1) % (n + 1);
                    index.putAll(keys, values, from, n);
                    for (int i = from; i < n; i++) {
                        oracle.put(keys[i], values[i]);
                    }
                    for (int i = 0; i < 20; i++) {
                        final long k = next[0] - rnd.nextInt(5000);
                        if (rnd.nextBoolean()) {
                            index.remove(k);
                            oracle.remove(k);
                        } else {
                            final long v = rnd.nextLong();
                            index.put(k, v);
                            oracle.put(k, v);
                        }
                        final Long expected = oracle.get(k - 1);
                        assertEquals(expected == null ? 7L : expected, index.getOrDefault(k - 1, 7L));
                    }
                    if (round % 50 == 0) {
                        assertEquals(oracle, index.asNavigableMap(), "buffer " + capacity + ", round " + round);
                    }
                }
                assertEquals(oracle, index.asNavigableMap(), "buffer " + capacity);
                assertEquals(oracle.size(), index.size());
            }
        }
    }

    /**
     * Sorted batches as a sink hands them over (a few hundred strictly ascending keys per call), broken now and
     * then by a late key, a duplicate, a delete, a single put or a flush: with sortedBatchesPastBuffer on (the
     * default), a batch that finds the buffer empty goes to the tree, a late key after it lands in the tree as a
     * top-insert, and the index agrees with a TreeMap throughout, in every concurrency mode and buffer size.
     */
    @ParameterizedTest
    @EnumSource(Concurrency.class)
    void sortedBatchesGoPastAnEmptyBufferAndLateKeysStillLand(final Concurrency concurrency) {
        for (int capacity : new int[] {1, 5, 64, 1000}) {
            final SplittableRandom rnd = new SplittableRandom(17L * capacity);
            final TreeMap<Long, Long> oracle = new TreeMap<>();
            final String label = concurrency + ", buffer " + capacity;
            try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(capacity).pageSize(512)
                    .concurrency(concurrency).build()) {
                long next = Long.MIN_VALUE + 100_000_000L; // late keys stay above Long.MIN_VALUE
                for (int round = 0; round < 300; round++) {
                    final int n = 1 + rnd.nextInt(round % 25 == 0 ? 5000 : 400);
                    final long[] keys = new long[n];
                    final int disorder = rnd.nextInt(6);
                    for (int i = 0; i < n; i++) {
                        next += 1 + rnd.nextInt(round % 4 == 0 ? 1 : 50);
                        keys[i] = next;
                    }
                    if (disorder == 0 && n > 2) {
                        keys[rnd.nextInt(1, n)] = next - rnd.nextInt(1, 3 * n);  // a late key inside the batch
                    } else if (disorder == 1 && n > 2) {
                        final int at = rnd.nextInt(1, n);
                        keys[at] = keys[at - 1];                                   // a duplicate
                    }
                    if (round == 0) {
                        keys[0] = Long.MIN_VALUE;
                    } else if (round == 299) {
                        keys[n - 1] = Long.MAX_VALUE;
                    }
                    final long[] values = rnd.longs(n).toArray();
                    index.putAll(keys, values, 0, n);
                    for (int i = 0; i < n; i++) {
                        oracle.put(keys[i], values[i]);
                    }
                    switch (rnd.nextInt(8)) {
                        case 0 -> {                                                // a late key after the batch
                            final long late = next - rnd.nextInt(1, 4 * n + 4);
                            final long v = rnd.nextLong();
                            index.put(late, v);
                            oracle.put(late, v);
                        }
                        case 1 -> {                                                // a delete of a recent key
                            final long gone = keys[rnd.nextInt(n)];
                            index.remove(gone);
                            oracle.remove(gone);
                        }
                        case 2 -> index.flush();
                        default -> { }
                    }
                    final long probe = next - rnd.nextInt(2 * n + 2);
                    final Long expected = oracle.get(probe);
                    assertEquals(expected == null ? 7L : expected, index.getOrDefault(probe, 7L), label);
                    if (round % 30 == 0) {
                        assertEquals(oracle, index.asNavigableMap(), label + ", round " + round);
                    }
                }
                index.flush();
                assertEquals(oracle, index.asNavigableMap(), label);
                assertEquals(oracle.size(), index.size(), label);
                final long past = index.stats().counter(SwareCounters.ENTRIES_PAST_BUFFER);
                assertTrue(past > 0 && index.stats().counter(SwareCounters.BATCHES_PAST_BUFFER) > 0,
                        label + ": sorted batches went past the buffer");
                assertTrue(past < oracle.size(), label + ": late keys made the buffer take batches too");
            }
        }
    }

    @Test
    void aSortedBatchGoesPastOnlyAnEmptyBufferAndOnlyAboveTheTree() {
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(100).pageSize(512).build()) {
            index.putAll(new long[] {10, 20, 30}, new long[] {1, 2, 3}, 0, 3);
            assertEquals(3, index.stats().counter(SwareCounters.ENTRIES_PAST_BUFFER), "an empty index");
            assertEquals(0, index.stats().counter("bufferEntries"));
            index.put(5, 0);                                               // a late key: into the buffer
            index.putAll(new long[] {40, 50}, new long[] {4, 5}, 0, 2);    // the buffer is not empty
            assertEquals(3, index.stats().counter(SwareCounters.ENTRIES_PAST_BUFFER));
            assertEquals(3, index.stats().counter("bufferEntries"));
            index.flush();
            index.putAll(new long[] {45, 60}, new long[] {9, 6}, 0, 2);    // starts below the tree's largest key
            assertEquals(3, index.stats().counter(SwareCounters.ENTRIES_PAST_BUFFER));
            index.flush();
            index.putAll(new long[] {70, 70}, new long[] {7, 8}, 0, 2);    // not strictly ascending
            assertEquals(3, index.stats().counter(SwareCounters.ENTRIES_PAST_BUFFER));
            index.flush();
            index.putAll(new long[] {80, 90}, new long[] {8, 9}, 0, 2);
            assertEquals(5, index.stats().counter(SwareCounters.ENTRIES_PAST_BUFFER));
            assertEquals(2, index.stats().counter(SwareCounters.BATCHES_PAST_BUFFER));
            final TreeMap<Long, Long> expected = new TreeMap<>(java.util.Map.of(5L, 0L, 10L, 1L, 20L, 2L,
                    30L, 3L, 40L, 4L, 45L, 9L, 50L, 5L, 60L, 6L, 70L, 8L, 80L, 8L));
            expected.put(90L, 9L);
            assertEquals(expected, index.asNavigableMap());
        }
    }

    @Test
    void sortedBatchesAreBulkLoadedAndRangesAreChecked() {
        final long[] keys = KLGenerator.workload(200_000).seed(3).generate();
        final long[] values = Arrays.stream(keys).map(k -> ~k).toArray();
        try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(2000).build()) {
            for (int from = 0; from < keys.length; from += 7777) {
                index.putAll(keys, values, from, Math.min(keys.length, from + 7777));
            }
            index.flush();
            assertEquals(keys.length, index.size());
            assertEquals(keys.length, index.stats().counter("bulkLoadedEntries"));
            assertEquals(~keys[1234], index.getOrDefault(keys[1234], 0));
            assertThrows(IndexOutOfBoundsException.class, () -> index.putAll(keys, values, 5, 4));
            assertThrows(IndexOutOfBoundsException.class, () -> index.putAll(keys, new long[3], 0, 4));
            assertThrows(IndexOutOfBoundsException.class, () -> index.putAll(keys, values, -1, 4));
        }
    }

    /**
     * Long ascending runs, the case {@code flushRunPastBuffer} takes past the buffer, broken by late keys, ties,
     * a gap below the tree's largest key and deletes: putAll must leave the tree, the buffer and every counter
     * exactly as the same writes made one put at a time.
     */
    @ParameterizedTest
    @EnumSource(Concurrency.class)
    void longSortedRunsEndAsEntryByEntryWritesWould(final Concurrency concurrency) {
        for (int capacity : new int[] {1, 3, 250, 1000, 4096}) {
            for (double fraction : new double[] {0.5, 0.1, 1.0}) {
                final SplittableRandom rnd = new SplittableRandom(capacity * 31L + (long) (fraction * 10));
                final TreeMap<Long, Long> oracle = new TreeMap<>();
                final String label = "buffer " + capacity + ", flush fraction " + fraction;
                try (SortednessAwareIndex batched = build(capacity, fraction, concurrency);
                     SortednessAwareIndex single = build(capacity, fraction, concurrency)) {
                    long next = Long.MIN_VALUE + 1 + rnd.nextInt(3);
                    for (int round = 0; round < 60; round++) {
                        final int n = 1 + rnd.nextInt(round % 7 == 0 ? 40 * capacity + 50 : 3 * capacity + 20);
                        final long[] keys = new long[n];
                        for (int i = 0; i < n; i++) {
                            final int shape = rnd.nextInt(1000 + 20 * capacity);
                            if (shape == 0) {
                                keys[i] = next - 1 - rnd.nextInt(2 * capacity + 2);  // late
                            } else if (shape == 1 && i > 0) {
                                keys[i] = keys[i - 1];                                 // tie
                            } else {
                                next += 1 + rnd.nextInt(round % 5 == 0 ? 1 : 1000);
                                keys[i] = next;
                            }
                        }
                        if (round == 59) {
                            keys[n - 1] = Long.MAX_VALUE;
                        }
                        final long[] values = rnd.longs(n).toArray();
                        batched.putAll(keys, values, 0, n);
                        for (int i = 0; i < n; i++) {
                            single.put(keys[i], values[i]);
                            oracle.put(keys[i], values[i]);
                        }
                        if (round % 20 == 10) {
                            // Drained, then runs below the tree's largest key: not past the buffer.
                            batched.flush();
                            single.flush();
                            next -= 100L * capacity;
                        }
                        if (round % 3 == 0) {
                            final long gone = next - rnd.nextInt(3 * capacity + 3);
                            batched.remove(gone);
                            single.remove(gone);
                            oracle.remove(gone);
                        }
                        assertEquals(counters(single), counters(batched), label + ", round " + round);
                    }
                    batched.flush();
                    single.flush();
                    assertEquals(counters(single), counters(batched), label + ", flushed");
                    assertEquals(oracle, batched.asNavigableMap(), label + ", flushed");
                    assertEquals(Long.MAX_VALUE, batched.asNavigableMap().lastKey());
                }
            }
        }
    }

    /**
     * Near-sorted batches (the (K,L) generator's early and late keys, ties, deletes): putAll copies the ascending
     * runs between descents whole, and must leave every marker, zonemap, filter, estimate and counter as one put
     * per entry does. Lookups on both indexes compare the zone and filter counters, which differ if a zonemap does.
     */
    @ParameterizedTest
    @EnumSource(Concurrency.class)
    void nearSortedBatchesEndAsEntryByEntryWritesWould(final Concurrency concurrency) {
        for (int capacity : new int[] {1, 2, 64, 1000, 5000}) {
            for (double k : new double[] {2, 10, 50}) {
                final long[] keys = KLGenerator.workload(60_000).kPercent(k).lPercent(k / 2).seed(capacity + (long) k)
                        .generate();
                final SplittableRandom rnd = new SplittableRandom(capacity * 7L + (long) k);
                for (int i = 0; i < keys.length; i += 1 + rnd.nextInt(400)) {
                    keys[i] = keys[Math.max(0, i - 1 - rnd.nextInt(3))]; // a tie with a recent key
                }
                final long[] values = rnd.longs(keys.length).toArray();
                final String label = "buffer " + capacity + ", K " + k;
                final TreeMap<Long, Long> oracle = new TreeMap<>();
                try (SortednessAwareIndex batched = build(capacity, 0.5, concurrency);
                     SortednessAwareIndex single = build(capacity, 0.5, concurrency)) {
                    int from = 0;
                    for (int round = 0; from < keys.length; round++) {
                        final int to = Math.min(keys.length, from + 1 + rnd.nextInt(3 * capacity + 500));
                        batched.putAll(keys, values, from, to);
                        for (int i = from; i < to; i++) {
                            single.put(keys[i], values[i]);
                            oracle.put(keys[i], values[i]);
                        }
                        final long probe = keys[from + rnd.nextInt(to - from)] + rnd.nextInt(3) - 1;
                        final Long expected = oracle.get(probe);
                        assertEquals(expected == null ? -1 : expected, batched.getOrDefault(probe, -1), label);
                        assertEquals(expected == null ? -1 : expected, single.getOrDefault(probe, -1), label);
                        if (round % 5 == 0) {
                            batched.remove(probe);
                            single.remove(probe);
                            oracle.remove(probe);
                        }
                        assertEquals(counters(single), counters(batched), label + ", round " + round);
                        from = to;
                    }
                    assertEquals(oracle, batched.asNavigableMap(), label);
                }
            }
        }
    }

    /**
     * Every counter but where the flush cycles' sorts ran: a single writer's put sorts a full buffer before taking
     * the lock ({@code bufferSortsAhead}), its putAll under the lock it already holds. The sorts themselves, by
     * algorithm, are compared. Nor the heap held ({@code heapBytes}): the two paths allocate different merge and
     * scratch arrays on their way to the same content ({@code SortednessAwareIndexHeapBytesTest} checks it).
     */
    private static java.util.Map<String, Long> counters(final SortednessAwareIndex index) {
        final java.util.Map<String, Long> counters = new java.util.TreeMap<>(index.stats().counters());
        counters.remove(SwareCounters.SORTS_AHEAD);
        counters.remove(io.nearsort.core.IndexStats.HEAP_BYTES);
        return counters;
    }

    /**
     * The indexes of the tests that compare putAll with one put per entry: with sortedBatchesPastBuffer off, the
     * configuration in which the builder promises that equivalence (a batch past the buffer leaves its entries in
     * the tree instead, see {@link #sortedBatchesGoPastAnEmptyBufferAndLateKeysStillLand}).
     */
    private static SortednessAwareIndex build(final int capacity, final double flushFraction,
                                              final Concurrency concurrency) {
        return Indexes.saBPlusTree().bufferCapacity(capacity).flushFraction(flushFraction).pageSize(512)
                .concurrency(concurrency).sortedBatchesPastBuffer(false).build();
    }
}
