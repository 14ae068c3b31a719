package io.nearsort.jmh.sbtree;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The §V-A stream: 6-byte time stamps and 2-byte sensor ids, in order but for the delayed fraction (§V-D). */
class TimeSeriesKeysTest {

    @Test
    void inOrderKeysAreTimeStampsFollowedBySensorIds() {
        final long[] keys = TimeSeriesKeys.generate(5000, 0, 42);
        for (int i = 1; i < keys.length; i++) {
            assertTrue(keys[i] > keys[i - 1], "ascending at " + i);
            assertEquals((keys[i - 1] >>> 16) + 1, keys[i] >>> 16, "one time step per arrival");
            assertEquals((i + 1) % TimeSeriesKeys.SENSORS, keys[i] & 0xFFFF, "sensors take turns");
        }
        assertEquals(keys.length, TimeSeriesKeys.distinct(keys));
    }

    @Test
    void delayedDataIsTheRequestedFractionFromThePast() {
        final int n = 200_000;
        for (final double percent : new double[] {10, 30, 50}) {
            final long[] keys = TimeSeriesKeys.generate(n, percent, 7);
            long max = Long.MIN_VALUE;
            int late = 0;
            for (final long key : keys) {
                if (key < max) {
                    late++;
                    assertTrue((key >>> 16) >= TimeSeriesKeys.FIRST_TIME, "from the stream's past");
                }
                max = Math.max(max, key);
                assertTrue((key & 0xFFFF) < TimeSeriesKeys.SENSORS);
            }
            assertEquals(percent / 100, (double) late / n, 0.01, percent + "% delayed");
            assertArrayEquals(keys, TimeSeriesKeys.generate(n, percent, 7), "reproducible");
        }
        assertThrows(IllegalArgumentException.class, () -> TimeSeriesKeys.generate(10, 101, 1));
    }
}
