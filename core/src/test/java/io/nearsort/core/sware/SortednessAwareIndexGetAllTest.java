package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import io.nearsort.core.Indexes;
import io.nearsort.core.LongIndex;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SortednessAwareIndex#getAll} in every {@link Concurrency} mode: key by key what {@link
 * SortednessAwareIndex#getOrDefault} answers (keys in the buffer, its tombstones and the tree; batches over
 * several chunks, in place, from inside a scan), counted as that many lookups, and refused clearly for a bad range
 * or a closed index. {@code LongIndexOracle} checks batches against a {@code TreeMap} in every oracle run, and
 * {@code SortednessAwareIndexOneWriterTest} beside a writer.
 */
class SortednessAwareIndexGetAllTest {
    private static final long ABSENT = 0x5EED_0000_0000_0001L;

    /** Late events, overwrites and deletes: entries in the tree, in the buffer, and tombstones in the buffer. */
    private static SortednessAwareIndex filled(final Concurrency concurrency) {
        final SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(1_000).pageSize(512)
                .concurrency(concurrency).build();
        final SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) {
            final long key = 3L * (i + random.nextInt(50));
            if (random.nextInt(10) == 0) {
                index.remove(key);
            } else {
                index.put(key, ~key ^ i);
            }
        }
        index.put(Long.MIN_VALUE, 1);
        index.put(Long.MAX_VALUE, 2);
        return index;
    }

    private static long[] keys(final int n) {
        final SplittableRandom random = new SplittableRandom(n);
        final long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = switch (random.nextInt(6)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                case 2 -> i > 0 ? keys[i - 1] : 0; // repeated
                default -> random.nextInt(3 * 20_060); // present, deleted, between keys, in buffer or tree
            };
        }
        return keys;
    }

    @ParameterizedTest
    @EnumSource(Concurrency.class)
    void answersAsGetOrDefaultKeyByKey(final Concurrency concurrency) {
        try (SortednessAwareIndex index = filled(concurrency)) {
            assertTrue(index.stats().counter("bufferEntries") > 0, "some keys are in the buffer");
            for (final int n : new int[] {0, 1, 63, 64, 65, 300}) {
                final long[] keys = keys(n + 4);
                final long[] expected = new long[keys.length];
                for (int i = 0; i < keys.length; i++) {
                    expected[i] = i < 2 || i >= n + 2 ? -i : index.getOrDefault(keys[i], ABSENT);
                }
                final long[] values = new long[keys.length];
                for (int i = 0; i < values.length; i++) {
                    values[i] = -i;
                }
                final long lookups = index.stats().counter(SwareCounters.LOOKUPS);
                index.getAll(keys, values, 2, n + 2, ABSENT);
                assertArrayEquals(expected, values, "batch of " + n);
                assertEquals(lookups + n, index.stats().counter(SwareCounters.LOOKUPS), "one lookup a key");

                final long[] inPlace = keys.clone();
                index.getAll(inPlace, inPlace, 2, n + 2, ABSENT);
                for (int i = 0; i < keys.length; i++) {
                    assertEquals(i < 2 || i >= n + 2 ? keys[i] : expected[i], inPlace[i], "in place, #" + i);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Concurrency.class)
    void readsFromInsideAScan(final Concurrency concurrency) {
        try (SortednessAwareIndex index = filled(concurrency)) {
            final long[] keys = keys(100);
            final long[] expected = new long[keys.length];
            for (int i = 0; i < keys.length; i++) {
                expected[i] = index.getOrDefault(keys[i], ABSENT);
            }
            final long[] values = new long[keys.length];
            final long visited = index.forEachInRange(0, 30, (k, v) -> index.getAll(keys, values, 0, 100, ABSENT));
            assertTrue(visited > 0);
            assertArrayEquals(expected, values);
        }
    }

    @ParameterizedTest
    @EnumSource(Concurrency.class)
    void refusesABadRangeAndAClosedIndex(final Concurrency concurrency) {
        final SortednessAwareIndex index = filled(concurrency);
        final long[] keys = new long[4];
        final IndexOutOfBoundsException reversed = assertThrows(IndexOutOfBoundsException.class,
                () -> index.getAll(keys, new long[4], 3, 2, 0));
        assertEquals("getAll range [3, 2) is not within keys[4] and values[4]", reversed.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> index.getAll(keys, new long[3], 0, 4, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> index.getAll(keys, keys, -1, 2, 0));
        assertThrows(NullPointerException.class, () -> index.getAll(null, keys, 0, 1, 0));
        index.close();
        assertThrows(IllegalStateException.class, () -> index.getAll(keys, new long[4], 0, 4, 0));
        final LongIndex closed = index;
        assertThrows(IllegalStateException.class, () -> closed.getAll(keys, keys, 0, 1, 0));
    }
}
