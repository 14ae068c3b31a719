package io.nearsort.core.testing;

import io.nearsort.core.AppendableLongIndex;
import io.nearsort.core.LongIndex;

import java.util.Arrays;
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
    /** The largest span of a range read by default (and of the long ones with {@link #rangeSpans}). */
    public static final int DEFAULT_SPAN = 5_000;
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

    /** The longest {@link LongIndex#getAll} batch checked: three of the SA index's 64-key chunks. */
    private static final int MAX_BATCH = 150;

    private final SplittableRandom random;
    /**
     * Draws the {@link LongIndex#getAll} batches, apart from {@link #random} so that the operation sequence of a
     * seed stays what it was before the batches were added.
     */
    private final SplittableRandom batchRandom;
    /** The keys of the last operations, for the batches to look up. */
    private final long[] recentKeys = new long[256];
    private long batchEvery = 127;
    private final KeyPattern pattern;
    private final TreeMap<Long, Long> oracle = new TreeMap<>();
    private long counter;
    private long checksEvery = 50_000;
    private long sizeCheckEvery = 1;
    private int shortSpan = DEFAULT_SPAN;
    private int longSpanOneIn;
    private long openEndedEvery = 1_000;
    /** What a range read or a full scan visited, kept between reads (no per-entry objects). */
    private final Pairs seen = new Pairs();

    public LongIndexOracle(final long seed, final KeyPattern pattern) {
        this.random = new SplittableRandom(seed);
        this.batchRandom = new SplittableRandom(~seed);
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

    /**
     * {@code rounds} rounds of a non-decreasing run of up to {@code maxRun} keys drawn like the random operations'
     * (repeats and edge keys included) handed to {@link AppendableLongIndex#putAscending}, each followed by
     * {@code operationsPerRound} random operations: the top-inserts of SWARE flush cycles interleaved with
     * updates. A run is clustered (its keys close together, many sharing a leaf) or spread over the domain, at
     * random. {@code invariants} runs after every run and as in {@link #run}.
     */
    public void runWithAscendingPuts(final AppendableLongIndex index, final int rounds, final int maxRun,
                                     final int operationsPerRound, final Runnable invariants) {
        for (int round = 0; round < rounds; round++) {
            final int runLength = random.nextInt(maxRun + 1);
            final long[] keys = new long[runLength];
            final long[] values = new long[runLength];
            final boolean clustered = random.nextBoolean();
            final long base = nextKey();
            for (int i = 0; i < runLength; i++) {
                keys[i] = clustered && random.nextInt(20) != 0 ? base + random.nextInt(4 * runLength + 1)
                        : nextKey();
                values[i] = random.nextLong();
            }
            Arrays.sort(keys);
            for (int i = 0; i < runLength; i++) {
                oracle.put(keys[i], values[i]); // of equal keys the last stays, as in the index
            }
            index.putAscending(keys, values, 0, runLength);
            invariants.run();
            assertSameContent(index, "after ascending run " + round + " of " + runLength);
            run(index, operationsPerRound, invariants);
        }
    }

    /** Compares the whole content every {@code n} operations (default 50,000) and at the end. */
    public LongIndexOracle checksEvery(final long n) {
        this.checksEvery = n;
        return this;
    }

    /**
     * Checks a {@link LongIndex#getAll} batch every {@code n} operations (default 127; {@link Long#MAX_VALUE} for
     * none). The batches draw from a random sequence of their own, so they leave the operations as they were.
     */
    public LongIndexOracle batchLookupsEvery(final long n) {
        if (n < 1) {
            throw new IllegalArgumentException("batchLookupsEvery(" + n + "): at least 1");
        }
        this.batchEvery = n;
        return this;
    }

    /** Compares {@code size()} only every {@code n} operations (for indexes whose exact size is costly). */
    public LongIndexOracle sizeCheckEvery(final long n) {
        this.sizeCheckEvery = n;
        return this;
    }

    /**
     * Shorter range reads, for runs of 10^8 operations (issue 22's scale runs): over a dense key domain a range of
     * the default span visits thousands of entries in the index and in the {@link TreeMap}, and those visits take
     * most of such a run's time. With this, a range read's span is below {@code shortSpan} except for one in
     * {@code longOneIn}, whose span is below {@value #DEFAULT_SPAN} as every span is by default, and a range open
     * to {@link Long#MAX_VALUE} comes at most once in {@code openEndedEvery} operations (default 1,000), as does an
     * inverted range that wraps around {@link Long#MIN_VALUE} (from the edge keys, it reads almost every key; at
     * other operations it becomes a single-key read). The share of range reads (a tenth of the operations), their
     * shapes, and every other operation stay as they are. Without this call the sequence is the default one, random
     * draw for random draw.
     *
     * @param shortSpan      spans of most range reads are below this, 1 to {@value #DEFAULT_SPAN}
     * @param longOneIn      one range read in this many has a span below {@value #DEFAULT_SPAN}, at least 1
     * @param openEndedEvery operations between the points at which an open-ended range may be read, at least 1
     * @return this oracle
     */
    public LongIndexOracle rangeSpans(final int shortSpan, final int longOneIn, final long openEndedEvery) {
        if (shortSpan < 1 || shortSpan > DEFAULT_SPAN || longOneIn < 1 || openEndedEvery < 1) {
            throw new IllegalArgumentException("rangeSpans(" + shortSpan + ", " + longOneIn + ", " + openEndedEvery
                    + "): shortSpan in [1, " + DEFAULT_SPAN + "], longOneIn and openEndedEvery at least 1");
        }
        this.shortSpan = shortSpan;
        this.longSpanOneIn = longOneIn;
        this.openEndedEvery = openEndedEvery;
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
        recentKeys[op & (recentKeys.length - 1)] = key;
        if (op % batchEvery == batchEvery - 1) {
            checkGetAll(index, op);
        }
    }

    /**
     * One {@link LongIndex#getAll} batch of up to {@value #MAX_BATCH} keys (recent keys, present or removed, their
     * neighbours, edge keys and random ones, repeats included) at a random offset in arrays a little longer than
     * the batch, sometimes looked up in place ({@code values == keys}); entries outside the batch must stay as
     * they were.
     */
    private void checkGetAll(final LongIndex index, final int op) {
        final int length = batchRandom.nextInt(MAX_BATCH + 1);
        final int from = batchRandom.nextInt(3);
        final long[] keys = new long[from + length + batchRandom.nextInt(3)];
        for (int i = 0; i < keys.length; i++) {
            final int dice = batchRandom.nextInt(10);
            final long recent = recentKeys[batchRandom.nextInt(recentKeys.length)];
            keys[i] = dice < 6 ? recent : dice < 8 ? recent + 1 : dice < 9 ? EDGE_KEYS[batchRandom.nextInt(
                    EDGE_KEYS.length)] : batchRandom.nextLong();
        }
        final long[] asked = keys.clone();
        final boolean inPlace = batchRandom.nextInt(8) == 0;
        final long[] values = inPlace ? keys : new long[keys.length];
        if (!inPlace) {
            Arrays.setAll(values, i -> ~asked[i]);
        }
        final long defaultValue = batchRandom.nextLong();
        index.getAll(keys, values, from, from + length, defaultValue);
        for (int i = 0; i < values.length; i++) {
            final Long value = oracle.get(asked[i]);
            final long expected = i < from || i >= from + length ? (inPlace ? asked[i] : ~asked[i])
                    : value == null ? defaultValue : value;
            if (values[i] != expected) {
                fail("getAll(keys[" + keys.length + "], " + from + ", " + (from + length) + ") gave values[" + i
                        + "] = " + values[i] + " for key " + asked[i] + ", expected " + expected + " at op " + op
                        + (inPlace ? " (in place)" : ""));
            }
        }
    }

    private void checkRange(final LongIndex index, final long lo, final int op) {
        final int shape = random.nextInt(20);
        final long hi;
        if (shape == 0) {
            final long inverted = lo - 1 - random.nextInt(100); // may wrap at MIN_VALUE: then hi > lo, still valid
            // A wrapped one reads almost every key: with the scale runs' spans, only where an open-ended one may.
            hi = inverted > lo && longSpanOneIn != 0 && op % openEndedEvery != 0 ? lo : inverted;
        } else if (shape == 1) {
            hi = lo; // single key
        } else if (shape == 2 && op % openEndedEvery == 0) {
            hi = Long.MAX_VALUE;
        } else {
            final long span = longSpanOneIn == 0 || random.nextInt(longSpanOneIn) == 0 ? random.nextInt(DEFAULT_SPAN)
                    : random.nextInt(shortSpan);
            hi = lo + span < lo ? Long.MAX_VALUE : lo + span;
        }
        seen.clear();
        final long visited = index.forEachInRange(lo, hi, seen::add);
        // One pass over the oracle's sub-map (its size() would be a second one).
        int expected = 0;
        if (lo <= hi) {
            for (final Map.Entry<Long, Long> e : oracle.subMap(lo, true, hi, true).entrySet()) {
                if (expected < seen.size) {
                    final int at = expected;
                    if (e.getKey() != seen.keys[at]) {
                        fail("range key #" + at + " of forEachInRange(" + lo + ", " + hi + ") is " + seen.keys[at]
                                + ", expected " + e.getKey() + " at op " + op);
                    }
                    if (e.getValue() != seen.values[at]) {
                        fail("range value #" + at + " of forEachInRange(" + lo + ", " + hi + ") is "
                                + seen.values[at] + ", expected " + e.getValue() + " at op " + op);
                    }
                }
                expected++;
            }
        }
        final int expectedSize = expected;
        assertEquals(expectedSize, visited, () -> "forEachInRange(" + lo + ", " + hi + ") count at op " + op);
        assertEquals(expectedSize, seen.size, () -> "forEachInRange(" + lo + ", " + hi + ") entries at op " + op);
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
        seen.clear();
        index.forEachInRange(Long.MIN_VALUE, Long.MAX_VALUE, seen::add);
        assertEquals(oracle.size(), seen.size, "full scan size " + when);
        int i = 0;
        for (final Map.Entry<Long, Long> e : oracle.entrySet()) {
            final long key = seen.keys[i];
            final long value = seen.values[i++];
            if (e.getKey() != key || e.getValue() != value) {
                fail("entry #" + (i - 1) + " is " + key + "=" + value + ", expected " + e + " " + when);
            }
        }
        seen.trim();
    }

    /** Key-value pairs in two growing arrays. */
    private static final class Pairs {
        private static final int SMALL = 1 << 12;
        long[] keys = new long[SMALL];
        long[] values = new long[SMALL];
        int size;

        void add(final long key, final long value) {
            if (size == keys.length) {
                if (size == Integer.MAX_VALUE - 8) {
                    throw new IllegalStateException("more than 2^31 entries visited");
                }
                final int grown = (int) Math.min(Integer.MAX_VALUE - 8, 2L * size);
                keys = Arrays.copyOf(keys, grown);
                values = Arrays.copyOf(values, grown);
            }
            keys[size] = key;
            values[size++] = value;
        }

        void clear() {
            size = 0;
        }

        /** Gives back the memory a full scan took. */
        void trim() {
            size = 0;
            if (keys.length > SMALL) {
                keys = new long[SMALL];
                values = new long[SMALL];
            }
        }
    }
}
