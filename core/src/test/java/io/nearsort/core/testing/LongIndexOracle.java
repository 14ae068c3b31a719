package io.nearsort.core.testing;

import io.nearsort.core.AppendableLongIndex;
import io.nearsort.core.LongIndex;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Drives any {@link LongIndex} and a {@link TreeMap} with the same seeded random operation sequence and fails
 * at the first disagreement, naming the operation number so the case can be replayed.
 */
public final class LongIndexOracle {
    /** Keys every run mixes in: the extremes of the domain and their neighbours. */
    public static final long[] EDGE_KEYS = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L, 0L, 1L, Long.MAX_VALUE - 1,
        Long.MAX_VALUE};

    /** Where keys come from. */
    public enum KeyPattern {
        /** Mostly a small domain (many repeats), some uniform longs, some edge keys. */
        MIXED,
        /** An increasing counter with occasional late (smaller) keys: the near-sorted stream shape. */
        NEAR_SORTED,
        /** A decreasing counter: every key goes to the left-most leaf. */
        DESCENDING
    }

    private final SplittableRandom random;
    private final KeyPattern pattern;
    private final TreeMap<Long, Long> oracle = new TreeMap<>();
    private long counter;
    private long checksEvery = 50_000;
    private long sizeCheckEvery = 1;

    public LongIndexOracle(final long seed, final KeyPattern pattern) {
        this.random = new SplittableRandom(seed);
        this.pattern = pattern;
        this.counter = pattern == KeyPattern.DESCENDING ? 1L << 40 : -(1L << 40);
    }

    /** Runs {@code operations} random operations; {@code invariants} is called every so often and at the end. */
    public void run(final LongIndex index, final int operations, final Runnable invariants) {
        for (int op = 0; op < operations; op++) {
            step(index, op);
            if (op % checksEvery == checksEvery - 1) {
                invariants.run();
                assertSameContent(index, "after op " + op);
            }
        }
        invariants.run();
        assertSameContent(index, "at the end");
    }

    /**
     * {@code rounds} rounds of a sorted run (up to 3,000 keys, random gaps) bulk-appended above the index's largest
     * key, each followed by {@code operationsPerRound} random operations: SWARE §III's bulk loading interleaved
     * with updates. {@code invariants} runs after every append and as in {@link #run}.
     */
    public void runWithBulkAppends(final AppendableLongIndex index, final int rounds, final int operationsPerRound,
                                   final Runnable invariants) {
        long next = 1L << 50;
        for (int round = 0; round < rounds; round++) {
            if (!index.isEmpty()) {
                next = Math.max(next, index.lastKey());
            }
            // Room for the run above the largest key (random puts may have reached Long.MAX_VALUE).
            final int runLength = (int) Math.min(random.nextInt(3000), (Long.MAX_VALUE - next) / 10);
            final long[] keys = new long[runLength];
            final long[] values = new long[runLength];
            for (int i = 0; i < runLength; i++) {
                next += 1 + random.nextInt(10);
                keys[i] = next;
                values[i] = random.nextLong();
                oracle.put(keys[i], values[i]);
            }
            index.bulkAppend(keys, values, 0, runLength);
            invariants.run();
            run(index, operationsPerRound, invariants);
        }
    }

    /** Compares the whole content every {@code n} operations (default 50,000) and at the end. */
    public LongIndexOracle checksEvery(final long n) {
        this.checksEvery = n;
        return this;
    }

    /** Compares {@code size()} only every {@code n} operations (for indexes whose exact size is costly). */
    public LongIndexOracle sizeCheckEvery(final long n) {
        this.sizeCheckEvery = n;
        return this;
    }

    public TreeMap<Long, Long> oracle() {
        return oracle;
    }

    private void step(final LongIndex index, final int op) {
        final int dice = random.nextInt(100);
        final long key = nextKey();
        if (dice < 45) {
            final long value = random.nextInt(4) == 0 ? EDGE_KEYS[random.nextInt(EDGE_KEYS.length)] : random.nextLong();
            index.put(key, value);
            oracle.put(key, value);
        } else if (dice < 65) {
            index.remove(key);
            oracle.remove(key);
        } else if (dice < 80) {
            final Long expected = oracle.get(key);
            final long defaultValue = random.nextLong();
            final long expectedValue = expected == null ? defaultValue : expected;
            assertEquals(expectedValue, index.getOrDefault(key, defaultValue), () -> "getOrDefault(" + key + ") at op " + op);
        } else if (dice < 90) {
            assertEquals(oracle.containsKey(key), index.containsKey(key), () -> "containsKey(" + key + ") at op " + op);
        } else {
            checkRange(index, key, op);
        }
        if (op % sizeCheckEvery == 0 && oracle.size() != index.size()) {
            fail("size " + index.size() + " != " + oracle.size() + " at op " + op);
        }
    }

    private void checkRange(final LongIndex index, final long lo, final int op) {
        final int shape = random.nextInt(20);
        final long hi;
        if (shape == 0) {
            hi = lo - 1 - random.nextInt(100); // inverted (may wrap at MIN_VALUE: then hi > lo, still valid)
        } else if (shape == 1) {
            hi = lo; // single key
        } else if (shape == 2 && op % 1000 == 0) {
            hi = Long.MAX_VALUE;
        } else {
            final long span = random.nextInt(5000);
            hi = lo + span < lo ? Long.MAX_VALUE : lo + span;
        }
        final List<long[]> seen = new ArrayList<>();
        final long visited = index.forEachInRange(lo, hi, (k, v) -> seen.add(new long[] {k, v}));
        final List<long[]> expected = new ArrayList<>();
        if (lo <= hi) {
            for (final Map.Entry<Long, Long> e : oracle.subMap(lo, true, hi, true).entrySet()) {
                expected.add(new long[] {e.getKey(), e.getValue()});
            }
        }
        assertEquals(expected.size(), visited, () -> "forEachInRange(" + lo + ", " + hi + ") count at op " + op);
        assertEquals(expected.size(), seen.size(), () -> "forEachInRange(" + lo + ", " + hi + ") entries at op " + op);
        for (int i = 0; i < expected.size(); i++) {
            final int at = i;
            assertEquals(expected.get(i)[0], seen.get(i)[0], () -> "range key #" + at + " at op " + op);
            assertEquals(expected.get(i)[1], seen.get(i)[1], () -> "range value #" + at + " at op " + op);
        }
    }

    private long nextKey() {
        switch (pattern) {
            case NEAR_SORTED:
                if (random.nextInt(10) == 0) {
                    return counter - random.nextInt(2000); // late
                }
                counter += 1 + random.nextInt(3);
                return counter;
            case DESCENDING:
                if (random.nextInt(10) == 0) {
                    return mixedKey();
                }
                return counter--;
            default:
                return mixedKey();
        }
    }

    private long mixedKey() {
        final int dice = random.nextInt(100);
        if (dice < 5) {
            return EDGE_KEYS[random.nextInt(EDGE_KEYS.length)];
        }
        if (dice < 75) {
            return random.nextInt(20_000) - 10_000;
        }
        return random.nextLong();
    }

    /** Asserts the index holds exactly the oracle's entries, in order, through its full range scan. */
    public void assertSameContent(final LongIndex index, final String when) {
        assertEquals(oracle.size(), index.size(), "size " + when);
        final List<long[]> seen = new ArrayList<>(oracle.size());
        index.forEachInRange(Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> seen.add(new long[] {k, v}));
        assertEquals(oracle.size(), seen.size(), "full scan size " + when);
        int i = 0;
        for (final Map.Entry<Long, Long> e : oracle.entrySet()) {
            final long[] kv = seen.get(i++);
            if (e.getKey() != kv[0] || e.getValue() != kv[1]) {
                fail("entry #" + (i - 1) + " is " + kv[0] + "=" + kv[1] + ", expected " + e + " " + when);
            }
        }
    }
}
