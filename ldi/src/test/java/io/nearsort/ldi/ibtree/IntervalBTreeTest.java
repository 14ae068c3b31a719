package io.nearsort.ldi.ibtree;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The IB-tree against brute-force interval intersection, with edge keys and duplicates. */
class IntervalBTreeTest {

    @Test
    void matchesBruteForceIntersection() {
        final SplittableRandom rnd = new SplittableRandom(3);
        final IntervalBTree tree = new IntervalBTree(8);
        final List<long[]> all = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            final long low;
            final long high;
            if (rnd.nextInt(50) == 0) {
                low = rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE - rnd.nextInt(3);
                high = low == Long.MIN_VALUE ? Long.MIN_VALUE + rnd.nextInt(1000) : Long.MAX_VALUE;
            } else {
                low = rnd.nextLong(100_000);
                high = low + (rnd.nextInt(10) == 0 ? rnd.nextLong(20_000) : rnd.nextInt(100));
            }
            tree.insert(low, high, i);
            all.add(new long[] {low, high, i});
            if (i % 500 == 499) {
                for (int q = 0; q < 50; q++) {
                    final long lo = rnd.nextInt(5) == 0 ? Long.MIN_VALUE : rnd.nextLong(110_000);
                    final long hi = rnd.nextInt(5) == 0 ? Long.MAX_VALUE : lo + rnd.nextInt(3000);
                    final List<Long> got = new ArrayList<>();
                    final long[] previousLow = {Long.MIN_VALUE};
                    tree.search(lo, hi, (l, h, v) -> {
                        assertTrue(l >= previousLow[0], "ascending lows");
                        previousLow[0] = l;
                        got.add(v);
                    });
                    final List<Long> expected = new ArrayList<>();
                    for (long[] iv : all) {
                        if (iv[1] >= lo && iv[0] <= hi) {
                            expected.add(iv[2]);
                        }
                    }
                    got.sort(null);
                    assertEquals(expected, got, "[" + lo + ", " + hi + "]");
                }
            }
        }
        assertEquals(5000, tree.size());
        assertTrue(tree.height() > 2);
        final List<Long> none = new ArrayList<>();
        tree.search(10, 5, (l, h, v) -> none.add(v));
        assertTrue(none.isEmpty(), "an empty range matches nothing");
        assertThrows(IllegalArgumentException.class, () -> tree.insert(5, 4, 0));
        assertThrows(IllegalArgumentException.class, () -> new IntervalBTree(3));
    }
}
