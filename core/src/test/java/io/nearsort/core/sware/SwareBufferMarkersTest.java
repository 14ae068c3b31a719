package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import io.nearsort.core.Indexes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.Field;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The buffer's incrementally kept markers are never wrong, checked after every operation of long random
 * sequences (in-order appends, repeated keys, ascending runs through {@code putAll}, late keys, deletes, lookups
 * setting off query-driven sorts, flushes), in every concurrency mode, while the index agrees with a
 * {@code TreeMap}:
 * <ul>
 *   <li>"strictly ascending", which lets a flush of an in-order buffer skip the scan that would prove it sorted:
 *   whenever the buffer claims it, its keys are;</li>
 *   <li>the zonemaps, which appends leave to the lookups that consult them ({@code SwareBuffer.coverZones}):
 *   once brought up to date as a lookup does, every unsorted entry lies within its zone's zonemap; and the
 *   zone maxima the writer keeps for its displacement estimate are each zone's largest key;</li>
 *   <li>the main sorted section and the sorted prefix, whose ends follow the size while appends stay in order:
 *   both ascend, and no entry after the prefix is below its last key;</li>
 *   <li>the tombstone arrays, left alone while the buffer holds no tombstone: then they mark nothing;</li>
 *   <li>the in-order append's limit, which summarises the markers above for the per-record path: it is what
 *   they say.</li>
 * </ul>
 */
class SwareBufferMarkersTest {

    @ParameterizedTest
    @EnumSource(Concurrency.class)
    void theMarkersHoldAfterEveryOperation(final Concurrency concurrency) throws ReflectiveOperationException {
        final Field bufferField = SortednessAwareIndex.class.getDeclaredField("buffer");
        bufferField.setAccessible(true);
        for (long seed = 1; seed <= 6; seed++) {
            final SplittableRandom random = new SplittableRandom(seed);
            final int capacity = 1 + random.nextInt(300);
            final TreeMap<Long, Long> oracle = new TreeMap<>();
            int claimed = 0;
            try (SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(capacity).pageSize(512)
                    .queryDrivenSortThreshold(0.05).concurrency(concurrency).build()) {
                final SwareBuffer buffer = (SwareBuffer) bufferField.get(index);
                long next = 0;
                for (int op = 0; op < 20_000; op++) {
                    final int kind = random.nextInt(100);
                    if (kind < 55) { // in order, now and then a repeat of the last key
                        next += random.nextInt(10) < 2 ? 0 : 1 + random.nextInt(3);
                        index.put(next, op);
                        oracle.put(next, (long) op);
                    } else if (kind < 70) { // an ascending run, possibly with repeats, through putAll
                        final int length = 1 + random.nextInt(40);
                        final long[] keys = new long[length];
                        final long[] values = new long[length];
                        for (int i = 0; i < length; i++) {
                            next += random.nextInt(8) == 0 ? 0 : 1;
                            keys[i] = next;
                            values[i] = op * 100L + i;
                            oracle.put(keys[i], values[i]);
                        }
                        index.putAll(keys, values, 0, length);
                    } else if (kind < 80) { // late
                        final long key = Math.max(0, next - random.nextInt(500));
                        index.put(key, op);
                        oracle.put(key, (long) op);
                    } else if (kind < 85) {
                        final long key = Math.max(0, next - random.nextInt(200));
                        index.remove(key);
                        oracle.remove(key);
                    } else if (kind < 99) {
                        final long key = Math.max(0, next - random.nextInt(300));
                        assertEquals(oracle.getOrDefault(key, -1L), index.getOrDefault(key, -1L), "key " + key);
                    } else {
                        index.flush();
                    }
                    if (buffer.knownStrictlyAscending()) {
                        claimed++;
                        for (int i = 1; i < buffer.size; i++) {
                            assertTrue(buffer.keys[i - 1] < buffer.keys[i], "seed " + seed + ", op " + op
                                    + ": the buffer claims strict ascent, but positions " + (i - 1) + " and " + i
                                    + " hold " + buffer.keys[i - 1] + " and " + buffer.keys[i]);
                        }
                    }
                    assertEquals(-1, buffer.zonemapViolation(), "seed " + seed + ", op " + op
                            + ": a zonemap misses the key at that position (-2: an estimate's zone maximum is wrong)");
                    assertEquals(-1, buffer.sortedSectionViolation(), "seed " + seed + ", op " + op
                            + ": the sorted section or prefix descends at that position (-2: an entry after the"
                            + " prefix is below its last key)");
                    assertEquals(-1, buffer.tombstoneViolation(), "seed " + seed + ", op " + op
                            + ": the buffer holds no tombstone, yet its tombstone arrays mark that position");
                    assertEquals(-1, buffer.inOrderLimitViolation(), "seed " + seed + ", op " + op
                            + ": the in-order append's limit (that value) is not what the markers say");
                }
                assertEquals(oracle.size(), index.size(), "size");
                oracle.forEach((k, v) -> assertEquals(v, index.getOrDefault(k, -1L), "key " + k));
            }
            assertTrue(claimed > 1_000, "the sequences exercise the claim (" + claimed + " operations)");
        }
    }
}
