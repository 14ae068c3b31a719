package io.nearsort.core.sware;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link FlushRetention}: the share a regular flush cycle keeps, fixed and adaptive, on small worked buffers. */
class FlushRetentionTest {

    /** Keys 0, 10, 20, ... : {@code n} of them from {@code first}. */
    private static long[] spaced(final long first, final int n) {
        return LongStream.range(0, n).map(i -> first + 10 * i).toArray();
    }

    private static long[] sortedUnion(final long[] a, final long... b) {
        final long[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        Arrays.sort(all);
        return all;
    }

    /** The kept part of {@code keys} after a cycle flushed its first {@code flushed}. */
    private static long[] keptOf(final long[] keys, final int flushed) {
        return Arrays.copyOfRange(keys, flushed, keys.length);
    }

    /** Without adaptation the count is §IV-A's fixed share in whole zones, whatever the cycles absorb. */
    @Test
    void aFixedFractionFlushesItsShareInWholeZones() {
        for (final double fraction : new double[] {0.1, 0.3, 0.5, 0.75, 1.0}) {
            for (final int zone : new int[] {1, 7, 241}) {
                final FlushRetention fixed = new FlushRetention(fraction, false);
                for (final int n : new int[] {1, 100, 1_000, 100_000}) {
                    final long[] keys = spaced(0, n);
                    final int expected = Math.min(n, Math.max(zone, (int) (fraction * n) / zone * zone));
                    assertEquals(expected, fixed.flushCount(keys, n, zone, null),
                            fraction + ", zone " + zone + ", n " + n);
                    fixed.cycleFlushed(keys, n, expected);
                    // The next buffer: what was kept and no late entry at all, which would shrink an adaptive one.
                    final long[] next = sortedUnion(keptOf(keys, expected), spaced(10L * n, expected));
                    assertEquals(Math.min(next.length, Math.max(zone, (int) (fraction * next.length) / zone * zone)),
                            fixed.flushCount(next, next.length, zone, null));
                }
                assertEquals(0, fixed.shrinks() + fixed.growths());
            }
        }
    }

    /**
     * Worked example, a buffer of 100 and zones of one entry: half is kept (keys 500 to 990). The next 50 entries
     * all arrive above it: nothing landed in the kept part's lower half (500 to 740), so the next cycle keeps a
     * quarter. One late entry there (absorbed: 1 × 64 ≥ 25 kept entries' worth) would have kept the half.
     */
    @Test
    void aKeptPartThatAbsorbsNothingIsHalved() {
        final FlushRetention retention = new FlushRetention(0.5, true);
        final long[] first = spaced(0, 100);
        assertEquals(50, retention.flushCount(first, 100, 1, null));
        retention.cycleFlushed(first, 100, 50);
        assertEquals(50, retention.lastKept());

        final long[] inOrder = sortedUnion(keptOf(first, 50), spaced(1_000, 50));
        assertEquals(75, retention.flushCount(inOrder, 100, 1, null));
        final long[] oneLate = sortedUnion(keptOf(first, 50), sortedUnion(spaced(1_000, 49), 505));
        assertEquals(50, retention.flushCount(oneLate, 100, 1, null));
        // flushCount changed nothing: the in-order buffer still asks for a quarter.
        assertEquals(75, retention.flushCount(inOrder, 100, 1, null));

        retention.cycleFlushed(inOrder, 100, 75);
        assertEquals(1, retention.shrinks());
        assertEquals(25, retention.lastKept());
    }

    /**
     * After a halving (25 kept of 100, the 25 flushed just below them forming the stretch a doubling would keep),
     * two entries that arrive in that stretch are now top-inserts (2 × 64 > 4 × 25): the next cycle keeps half
     * again. One (64, not above the margin of 100) does not: with nothing absorbed either, the share is halved
     * once more.
     */
    @Test
    void entriesJustBelowTheKeptPartDoubleItAgain() {
        final FlushRetention retention = new FlushRetention(0.5, true);
        final long[] first = spaced(0, 100);
        retention.cycleFlushed(first, 100, 50);
        final long[] second = sortedUnion(keptOf(first, 50), spaced(1_000, 50)); // keys 500..990, 1000..1490
        assertEquals(75, retention.flushCount(second, 100, 1, null));
        retention.cycleFlushed(second, 100, 75); // keeps 1250..1490; the stretch below is 1000..1240

        final long[] oneLate = sortedUnion(keptOf(second, 75), sortedUnion(spaced(1_500, 74), 1_005));
        assertEquals(75 + 12, retention.flushCount(oneLate, 100, 1, null));
        final long[] late = sortedUnion(keptOf(second, 75), sortedUnion(spaced(1_500, 73), 1_005, 1_235));
        assertEquals(50, retention.flushCount(late, 100, 1, null));
        retention.cycleFlushed(late, 100, 50);
        assertEquals(1, retention.growths());
        // An arrival far below that stretch (a key late by more than the buffer reaches) asks for nothing.
        final FlushRetention other = new FlushRetention(0.5, true);
        other.cycleFlushed(first, 100, 50);
        other.cycleFlushed(second, 100, 75);
        final long[] farLate = sortedUnion(keptOf(second, 75), sortedUnion(spaced(1_500, 74), 5));
        assertEquals(75 + 12, other.flushCount(farLate, 100, 1, null)); // nothing absorbed either: halved once more
    }

    /** Halvings stop at 1/16 of the buffer, and a share already below 1/8 is never halved. */
    @Test
    void theKeptShareStaysAtOrAboveASixteenth() {
        final FlushRetention retention = new FlushRetention(0.5, true);
        final int n = 1_600;
        long next = 0;
        long[] keys = spaced(next, n);
        next += 10L * n;
        int flushed = retention.flushCount(keys, n, 1, null);
        for (int cycle = 0; cycle < 10; cycle++) {
            retention.cycleFlushed(keys, n, flushed);
            keys = sortedUnion(keptOf(keys, flushed), spaced(next, flushed)); // in order: absorbs nothing
            next += 10L * flushed;
            flushed = retention.flushCount(keys, n, 1, null);
        }
        assertEquals(n - n / 16, flushed);
        assertEquals(3, retention.shrinks());

        final FlushRetention narrow = new FlushRetention(0.9, true); // keeps a tenth: half of it is below 1/16
        final long[] buffer = spaced(0, 1_000);
        narrow.cycleFlushed(buffer, 1_000, narrow.flushCount(buffer, 1_000, 1, null));
        final long[] inOrder = sortedUnion(keptOf(buffer, 900), spaced(100_000, 900));
        assertEquals(900, narrow.flushCount(inOrder, 1_000, 1, null));
    }

    /** A cycle that kept no sorted part (a whole or prefix flush) leaves nothing to learn from: the share holds. */
    @Test
    void afterACycleThatKeptNothingSortedTheShareHolds() {
        final FlushRetention retention = new FlushRetention(0.5, true);
        final long[] first = spaced(0, 100);
        retention.cycleFlushed(first, 100, 50);
        retention.forget();
        final long[] inOrder = sortedUnion(keptOf(first, 50), spaced(1_000, 50));
        assertEquals(50, retention.flushCount(inOrder, 100, 1, null));
        retention.cycleFlushed(first, 100, 100); // flushed everything: nothing kept
        assertEquals(50, retention.flushCount(inOrder, 100, 1, null));
        assertEquals(0, retention.shrinks());
    }

    /**
     * Keys that arrived early stay. Worked example, a buffer of 100 (zones of one entry): 40 keys in order (0 to
     * 390) and 60 that arrived early (10,000 and up). The newest 16 appends are the in-order keys 240 to 390; their
     * middle half (280 to 350) lies 7 entries apart, so their median, 320, is the stream's frontier, 32 keys up.
     * Half the buffer would flush 18 early keys; the cycle flushes the 32 below the frontier. Without a frontier
     * (no sample, or a fixed share) it flushes half.
     */
    @Test
    void keysAboveTheStreamsFrontierStay() {
        final long[] keys = sortedUnion(spaced(0, 40), spaced(10_000, 60));
        final long[] newest = spaced(240, 16);
        assertEquals(32, new FlushRetention(0.5, true).flushCount(keys, 100, 1, newest));
        assertEquals(50, new FlushRetention(0.5, true).flushCount(keys, 100, 1, null));
        assertEquals(50, new FlushRetention(0.5, false).flushCount(keys, 100, 1, newest));
        // In zones of 10 entries: 30.
        assertEquals(30, new FlushRetention(0.5, true).flushCount(keys, 100, 10, newest));
    }

    /**
     * Newest appends spread over the buffer show no frontier (scrambled keys, late events): 1,000 keys, the 16
     * newest every 62nd, so their middle half lies 434 entries apart, more than 4 per sampled append. And a frontier
     * below a quarter of the buffer still flushes a quarter: 20 keys in order, 180 early ones, the frontier at 12.
     */
    @Test
    void aFrontierNeedsCloseAppendsAndLeavesAQuarterToFlush() {
        final long[] keys = spaced(0, 1_000);
        final long[] spread = LongStream.range(0, 16).map(i -> 620 * i).toArray();
        assertEquals(500, new FlushRetention(0.5, true).flushCount(keys, 1_000, 1, spread));

        final long[] crowded = sortedUnion(spaced(0, 20), spaced(10_000, 180));
        assertEquals(50, new FlushRetention(0.5, true).flushCount(crowded, 200, 1, spaced(40, 16)));
    }
}
