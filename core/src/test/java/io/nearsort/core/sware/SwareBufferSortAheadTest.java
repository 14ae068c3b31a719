package io.nearsort.core.sware;

import io.nearsort.core.sortedness.AdaptiveSorter;
import io.nearsort.core.sortedness.KLGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A flush cycle's sort done ahead ({@link SwareBuffer#sortAhead}), as a single writer does before taking the
 * exclusive lock: it changes no entry readers may be reading, and the flush's sort then takes its result, which is
 * exactly what sorting under the lock gives. Buffers of near-sorted keys (the in-place (K,L) sort's case), with
 * repeated keys and tombstones (the positions path), and already sorted ones.
 */
class SwareBufferSortAheadTest {

    @ParameterizedTest(name = "K={0}% L={1}%, repeats every {2}, tombstones every {3}")
    @CsvSource({"5, 5, 0, 0", "20, 10, 0, 0", "5, 5, 50, 0", "5, 5, 0, 40", "100, 100, 7, 13", "0, 0, 0, 0"})
    void theSortDoneAheadChangesNoEntryAndIsWhatTheFlushSorts(final double k, final double l, final int repeatEvery,
                                                               final int tombstoneEvery) {
        final int capacity = 5_000;
        final long[] keys = KLGenerator.workload(3 * capacity).kPercent(k).lPercent(l).seed(17).generate();
        final SplittableRandom random = new SplittableRandom(3);
        final SwareBuffer ahead = new SwareBuffer(capacity, 241, 10);
        final SwareBuffer locked = new SwareBuffer(capacity, 241, 10);
        final AdaptiveSorter sorter = new AdaptiveSorter(AdaptiveSorter.DEFAULT_K_THRESHOLD,
                AdaptiveSorter.DEFAULT_L_THRESHOLD);
        final SwareCounters counters = new SwareCounters(false);
        // A retained sorted half, as after a flush, then near-sorted appends up to full.
        for (int i = 0; i < capacity / 2; i++) {
            append(ahead, locked, keys[i], i, false);
        }
        ahead.sortAndKeepNewest(0, sorter, counters);
        locked.sortAndKeepNewest(0, sorter, counters);
        ahead.resetAfterFlush();
        locked.resetAfterFlush();
        for (int i = capacity / 2; !ahead.isFull(); i++) {
            final boolean repeat = repeatEvery > 0 && random.nextInt(repeatEvery) == 0;
            final boolean tombstone = tombstoneEvery > 0 && random.nextInt(tombstoneEvery) == 0;
            append(ahead, locked, repeat ? keys[i - 1 - random.nextInt(10)] : keys[i], i, tombstone);
        }
        final long[] keysBefore = Arrays.copyOf(ahead.keys, ahead.size);
        final long[] valuesBefore = Arrays.copyOf(ahead.values, ahead.size);
        final boolean[] tombstonesBefore = Arrays.copyOf(ahead.tombstones, ahead.size);
        final int unsortedBefore = ahead.unsortedStart();

        ahead.sortAhead(sorter, counters);
        assertArrayEquals(keysBefore, Arrays.copyOf(ahead.keys, ahead.size), "keys");
        assertArrayEquals(valuesBefore, Arrays.copyOf(ahead.values, ahead.size), "values");
        assertArrayEquals(tombstonesBefore, Arrays.copyOf(ahead.tombstones, ahead.size), "tombstones");
        assertEquals(unsortedBefore, ahead.unsortedStart());
        assertEquals(-1, ahead.zonemapViolation());

        final long sortsAheadBefore = counters.sortsAhead;
        ahead.sortAndKeepNewest(0, sorter, counters);
        locked.sortAndKeepNewest(0, sorter, counters);
        assertEquals(sortsAheadBefore + 1, counters.sortsAhead, "the flush takes the sort done ahead");
        assertEquals(locked.size, ahead.size);
        assertArrayEquals(Arrays.copyOf(locked.keys, locked.size), Arrays.copyOf(ahead.keys, ahead.size));
        assertArrayEquals(Arrays.copyOf(locked.values, locked.size), Arrays.copyOf(ahead.values, ahead.size));
        assertArrayEquals(Arrays.copyOf(locked.tombstones, locked.size),
                Arrays.copyOf(ahead.tombstones, ahead.size));
    }

    /** A buffer that changed after the sort done ahead is sorted afresh. */
    @org.junit.jupiter.api.Test
    void aSortDoneAheadOfAChangedBufferIsNotTaken() {
        final SwareBuffer buffer = new SwareBuffer(100, 10, 10);
        final AdaptiveSorter sorter = new AdaptiveSorter(AdaptiveSorter.DEFAULT_K_THRESHOLD,
                AdaptiveSorter.DEFAULT_L_THRESHOLD);
        final SwareCounters counters = new SwareCounters(false);
        for (long key = 60; key > 0; key--) {
            buffer.append(key, key, false);
        }
        buffer.sortAhead(sorter, counters);
        buffer.append(0, 0, false); // after the sort done ahead
        buffer.sortAndKeepNewest(0, sorter, counters);
        assertEquals(0, counters.sortsAhead);
        assertEquals(61, buffer.size);
        for (int i = 0; i < 61; i++) {
            assertEquals(i, buffer.keys[i]);
        }
    }

    /**
     * The newest 16 appends, which a flush cycle reads for the stream's frontier before its sort: in arrival order
     * still after a sort done ahead (which changes no entry), sorted in the copy returned; none while the unsorted
     * section holds fewer than 16 (an in-order buffer has none at all).
     */
    @org.junit.jupiter.api.Test
    void theNewestAppendsAreReadInArrivalOrderBeforeTheSort() {
        final SwareBuffer buffer = new SwareBuffer(100, 10, 10);
        final AdaptiveSorter sorter = new AdaptiveSorter(AdaptiveSorter.DEFAULT_K_THRESHOLD,
                AdaptiveSorter.DEFAULT_L_THRESHOLD);
        for (long key = 0; key < 40; key++) {
            buffer.append(key, key, false);
        }
        assertNull(buffer.newestAppends(), "an in-order buffer");
        buffer.append(1_000, 0, false); // early
        buffer.append(40, 0, false); // the unsorted section starts here
        for (long key = 41; key < 55; key++) {
            buffer.append(key, key, false);
        }
        assertNull(buffer.newestAppends(), "15 unsorted appends");
        buffer.append(5, 5, false); // late
        buffer.sortAhead(sorter, new SwareCounters(false));
        final long[] newest = new long[16];
        newest[0] = 5;
        for (int i = 1; i < 16; i++) {
            newest[i] = 39 + i;
        }
        assertArrayEquals(newest, buffer.newestAppends());
    }

    private static void append(final SwareBuffer a, final SwareBuffer b, final long key, final long value,
                               final boolean tombstone) {
        a.append(key, value, tombstone);
        b.append(key, value, tombstone);
    }
}
