package io.nearsort.ldi.distribution;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Training by load against a TreeMap of key multiplicities. */
class DistributionTrainerTest {

    @Test
    void trainByLoadCutsAtTheFirstKeyReachingTheTargetAndNeverSplitsDuplicates() {
        final SplittableRandom rnd = new SplittableRandom(8);
        for (int round = 0; round < 40; round++) {
            final int n = 1 + rnd.nextInt(20_000);
            final long[] keys = new long[n];
            final int distinct = 1 + rnd.nextInt(round % 2 == 0 ? 50 : 50_000);
            for (int i = 0; i < n; i++) {
                keys[i] = switch (rnd.nextInt(20)) {
                    case 0 -> Long.MIN_VALUE;
                    case 1 -> Long.MAX_VALUE;
                    default -> rnd.nextInt(distinct) * 7L - 100;
                };
            }
            final int target = 1 + rnd.nextInt(3000);
            final TreeMap<Long, Long> counts = new TreeMap<>();
            for (long k : keys) {
                counts.merge(k, 1L, Long::sum);
            }
            final TreeMap<Long, Long> expected = new TreeMap<>();
            long open = 0;
            Long low = null;
            for (Map.Entry<Long, Long> e : counts.entrySet()) {
                if (low == null || open >= target) {
                    if (low != null) {
                        expected.put(low, open);
                    }
                    low = e.getKey();
                    open = 0;
                }
                open += e.getValue();
            }
            expected.put(low, open);

            final DistributionTrainer.Trained t = DistributionTrainer.trainByLoad(keys, 0, n, target);
            assertArrayEquals(expected.keySet().stream().mapToLong(Long::longValue).toArray(), t.lows());
            assertArrayEquals(expected.values().stream().mapToLong(Long::longValue).toArray(), t.loads());
            assertEquals(counts.lastKey(), t.lastHigh());
        }
    }

    @Test
    void badArgumentsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> DistributionTrainer.trainByLoad(new long[3], 0, 3, 0));
        assertThrows(IllegalArgumentException.class, () -> DistributionTrainer.trainByLoad(new long[3], 2, 2, 5));
        assertThrows(IllegalArgumentException.class, () -> DistributionTrainer.trainByLoad(new long[3], 0, 4, 5));
    }
}
