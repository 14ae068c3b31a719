package io.nearsort.examples.cli.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The verifier itself, against a TreeMap replay of the same writes. */
class ReferenceTest {
    private static final long MISSING = -1;

    @Test
    void valuesBeforeEveryWriteAndScansMatchATreeMapReplay() {
        final SplittableRandom random = new SplittableRandom(17);
        final long[] keys = new long[3_000];
        for (int i = 0; i < keys.length; i++) {
            // Few distinct keys (many duplicates) plus the extremes.
            keys[i] = random.nextInt(10) == 0 ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE)
                    : random.nextInt(-400, 400);
        }
        final Reference reference = new Reference(new Workload("t", 0, 0, false, keys));
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        for (int written = 0; written <= keys.length; written++) {
            for (int probe = 0; probe < 5; probe++) {
                final long key = probe == 0 ? Long.MIN_VALUE : probe == 1 ? Long.MAX_VALUE : random.nextInt(-410, 410);
                assertEquals(oracle.getOrDefault(key, MISSING).longValue(), reference.valueBefore(key, written, MISSING),
                        "key " + key + " after " + written + " writes");
            }
            if (written < keys.length) {
                oracle.put(keys[written], (long) written);
            }
        }
        assertEquals(oracle.size(), reference.distinct());
        final long[] result = new long[2];
        for (int i = 0; i < 2_000; i++) {
            long lo = random.nextInt(-420, 420);
            long hi = random.nextInt(-420, 420);
            if (i % 10 == 0) {
                lo = Long.MIN_VALUE;
            }
            if (i % 15 == 0) {
                hi = Long.MAX_VALUE;
            }
            reference.scan(lo, hi, result);
            long count = 0;
            long sum = 0;
            if (lo <= hi) {
                for (final Map.Entry<Long, Long> e : oracle.subMap(lo, true, hi, true).entrySet()) {
                    count++;
                    sum += e.getValue();
                }
            }
            assertEquals(count, result[0], "[" + lo + ", " + hi + "]");
            assertEquals(sum, result[1], "[" + lo + ", " + hi + "]");
        }
    }
}
