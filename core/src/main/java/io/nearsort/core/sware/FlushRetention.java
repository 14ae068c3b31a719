package io.nearsort.core.sware;

/**
 * How much of the sorted buffer a regular flush cycle keeps (SWARE §IV-A). The paper flushes a fixed fraction, half
 * by default, and keeps the rest so that entries arriving late land among kept entries instead of being
 * top-inserted into the tree. Keeping is not free: each kept entry is sorted, merged and moved once more at the
 * next cycle. How far back late entries reach decides whether that pays. Events late by less than the kept part's
 * length all land in it. In a stream whose displaced keys arrive up to five buffers late (K = 5%, L = 5% of n, with
 * a buffer of 1% of n), hardly any do: a 10M-key ingest kept half of each buffer and still top-inserted 213,000
 * keys; keeping a tenth top-inserted 224,000, and ran 11% faster (docs/benchmarks.md, sixteenth session).
 *
 * <p>When adaptive, each regular cycle looks at what the previous one kept, in the sorted buffer alone (two
 * binary searches), and halves or doubles the kept part:
 * <ul>
 *   <li>grow when the stretch just below the kept part, as long as it, received clearly more entries since than
 *       keeping it would have cost: {@code received × TOP_INSERT_COST > GROW_MARGIN × kept} (each of them is now
 *       a top-insert);</li>
 *   <li>else shrink when the lower half of the kept part absorbed fewer late entries than keeping it cost:
 *       {@code absorbed × TOP_INSERT_COST < kept / 2}.</li>
 * </ul>
 * The margin keeps a share from flipping between two sizes at every cycle when both tests are near their line: at
 * K = 5%, L = 1% of n, without it, 52 halvings and 52 doublings in 150 cycles of a 1M-key ingest, 3% faster than
 * keeping half; with it, three halvings and 5% faster.
 * The kept share moves between 1 − {@code flushFraction} (where it starts: the paper's) and 1/16 of the buffer, by
 * halves. Cycles that flush the whole buffer or a sorted prefix without sorting (§IV-A) keep no sorted part to
 * learn from; the next regular cycle then keeps its share as it is.
 *
 * <p>Keys that arrive early wait at the top of the sorted buffer until the stream reaches them. A cycle that
 * flushed one would make it the tree's largest key, and every in-order key after it, up to that key, a
 * top-insert: keeping the paper's half, 2M keys at K = 5%, L = 50% of n top-inserted 1.30M of them; a smaller kept
 * part flushes early keys sooner. So an adaptive cycle flushes nothing at or above the stream's frontier: the
 * median of the buffer's 16 newest appends ({@code SwareBuffer.newestAppends}, read before the cycle's sort),
 * when the middle half of them lies within {@code FRONTIER_SPREAD} entries per append of each other in the sorted
 * buffer, as in-order keys with some displaced do. Scrambled keys and late events spread their newest appends
 * over the buffer, show no frontier and flush as before. A cycle still flushes a quarter of the buffer when early
 * keys fill more of it. Measured (2M keys, buffer 1% of n, one writer, time against the fixed half; top-inserts):
 * K = 5%, L = 50%: 0.51x, 127,013; K = 10%, L = 25%: 0.40x, 98,499 against 1.58M; K = 25%, L = 10%: 0.63x;
 * K = 50%, L = 5%: 0.90x; every other cell of the K ∈ {1, 5, 10, 25, 50, 100}%, L ∈ {1, 5, 10, 25, 50}% grid
 * within the runs' noise of before (K = 25%, L = 50%: 0.98–0.99x before, 1.00x after). 10M keys at K = 5%,
 * L = 5%: 223,707 top-inserts against 260,568 without it, and 3 moves of the share in 107 cycles instead of 27 in
 * 111 (docs/benchmarks.md, seventeenth session).
 *
 * <p>What it counts as absorbed is new keys: a write that overwrites a kept key replaces that entry and adds none.
 * A stream that keeps rewriting recent keys, rather than delivering new ones late, may see its kept part halved,
 * and those rewrites then reach the tree as top-inserts. That is the faster outcome, as measured: such a rewrite
 * updates a leaf the tree has just written, which is still in the cache. Counting rewrites as absorbed (tried: the
 * sorts counting the older copies they drop in the kept part's lower half) kept the half, top-inserted 845 writes
 * instead of 33,189 (2M writes, 30% of them rewriting one of the last 2,000 keys, a buffer of 4,000) and was as
 * slow as the fixed share, which this policy beats there by 2–7% (docs/benchmarks.md, seventeenth session).
 *
 * <p>Not thread-safe: used by whoever holds the buffer's write side.
 */
final class FlushRetention {
    /**
     * What a top-insert costs, in moves of one kept entry through a flush cycle (its sort, merge, detach copy).
     * Measured on a 10M-key K=5%/L=5% ingest: keeping a tenth instead of half of each buffer moved ~9 million
     * fewer kept entries, top-inserted 11,000 more keys (~2 ms) and saved ~31 ms (JMH), so ~3.7 ns per kept entry,
     * against ~200 ns per top-insert into a leaf that has left the cache.
     */
    static final int TOP_INSERT_COST = 64;
    /** The smallest kept share is {@code 1 / MIN_KEPT_DIVISOR} of the buffer. */
    static final int MIN_KEPT_DIVISOR = 16;
    /** How much more than its cost a larger kept part must promise before the share doubles (hysteresis). */
    static final int GROW_MARGIN = 4;
    /**
     * How many buffer entries per sampled append may lie between the middle half of the newest appends before
     * they show no frontier.
     */
    static final int FRONTIER_SPREAD = 4;
    /**
     * Below the frontier, a cycle still flushes at least {@code 1 / MIN_FLUSH_DIVISOR} of the buffer: early keys
     * that outnumber the rest would otherwise leave each cycle a zone to flush (10% of 2M keys displaced by up to
     * half of n: 991 cycles, 504 of them flushing one zone, 6–7% slower than the fixed half; with the quarter,
     * 2–4% faster).
     */
    static final int MIN_FLUSH_DIVISOR = 4;

    private final double flushFraction;
    private final boolean adaptive;
    /** How often the kept share may be halved: it stays at or above 1/16 of the buffer. */
    private final int maxHalvings;
    /** The kept share is (1 − flushFraction) / 2^halvings. */
    private int halvings;

    /** Whether the last flush cycle was a regular one that kept a sorted part, described by the keys below. */
    private boolean marked;
    /** The smallest key the last regular cycle kept. */
    private long cutKey;
    /** The key half-way through what it kept: {@code kept / 2} kept entries lay in [cutKey, midKey). */
    private long midKey;
    /** The smallest key of the stretch as long as the kept part just below it (the buffer's first if shorter). */
    private long growKey;
    /** The entries it kept. */
    private int kept;

    private long shrinks;
    private long growths;

    /**
     * @param flushFraction the share a cycle flushes at the least, in (0, 1] (SWARE §IV-A: 0.5)
     * @param adaptive whether the share follows what kept entries absorb; false keeps {@code flushFraction}
     */
    FlushRetention(final double flushFraction, final boolean adaptive) {
        this.flushFraction = flushFraction;
        this.adaptive = adaptive;
        int h = 0;
        while ((1.0 - flushFraction) / (1 << (h + 1)) >= 1.0 / MIN_KEPT_DIVISOR) {
            h++;
        }
        this.maxHalvings = h;
    }

    /**
     * Entries a regular cycle flushes from the sorted buffer {@code keys[0, n)} (strictly ascending): the share
     * that the last cycle's outcome picks, when adaptive no more than the keys below the stream's frontier (judged
     * from {@code newest}, the buffer's newest appends, sorted, or null when it has none; see the class comment)
     * unless those are under a quarter of the buffer, in whole zones of {@code zoneSize}, at least one zone and at
     * most {@code n}. Changes nothing; {@link #cycleFlushed} records the cycle.
     */
    int flushCount(final long[] keys, final int n, final int zoneSize, final long[] newest) {
        final int h = adaptedHalvings(keys, n);
        final double share = h == 0 ? flushFraction : 1.0 - (1.0 - flushFraction) / (1 << h);
        int count = (int) (share * n);
        if (adaptive) {
            count = Math.min(count, Math.max(n / MIN_FLUSH_DIVISOR, frontierRank(keys, n, newest)));
        }
        return Math.min(n, Math.max(zoneSize, count / zoneSize * zoneSize));
    }

    /**
     * The number of keys in the sorted buffer below the stream's frontier, the median of its {@code newest}
     * appends (sorted), when those appends show one: their middle half lies within a few dozen buffer entries
     * of each other (keys that arrive in order, some displaced); else {@code n}. Scrambled keys and late events
     * spread their newest appends over much of the buffer and get no frontier.
     */
    private static int frontierRank(final long[] keys, final int n, final long[] newest) {
        if (newest == null) {
            return n;
        }
        final int q1 = newest.length / 4;
        final int q3 = newest.length - 1 - q1;
        final int lo = SortedSearch.lowerBound(keys, 0, n, newest[q1]);
        final int hi = SortedSearch.lowerBound(keys, lo, n, newest[q3]);
        if (hi - lo > FRONTIER_SPREAD * newest.length) {
            return n;
        }
        return SortedSearch.lowerBound(keys, lo, Math.min(n, hi + 1), newest[newest.length / 2]);
    }

    /**
     * Records a regular cycle that flushed the first {@code flushed} of the sorted buffer {@code keys[0, n)} (as
     * {@link #flushCount} said for the same keys): adopts the share it picked and marks what is kept.
     */
    void cycleFlushed(final long[] keys, final int n, final int flushed) {
        final int h = adaptedHalvings(keys, n);
        if (h > halvings) {
            shrinks++;
        } else if (h < halvings) {
            growths++;
        }
        halvings = h;
        kept = n - flushed;
        marked = adaptive && kept > 0;
        if (marked) {
            cutKey = keys[flushed];
            midKey = keys[flushed + kept / 2];
            growKey = keys[Math.max(0, flushed - kept)];
        }
    }

    /** A cycle that kept no sorted part (it flushed everything, or a prefix without sorting): nothing to learn. */
    void forget() {
        marked = false;
    }

    /** The halvings the sorted buffer {@code keys[0, n)} asks for, given what the last regular cycle kept. */
    private int adaptedHalvings(final long[] keys, final int n) {
        if (!marked) {
            return halvings;
        }
        final int cut = SortedSearch.lowerBound(keys, 0, n, cutKey);
        final int received = cut - SortedSearch.lowerBound(keys, 0, cut, growKey);
        if (halvings > 0 && (long) received * TOP_INSERT_COST > (long) GROW_MARGIN * kept) {
            return halvings - 1;
        }
        // Every entry now in [cutKey, midKey) but the kept / 2 that were there arrived since and was absorbed.
        final int absorbed = Math.max(0, SortedSearch.lowerBound(keys, cut, n, midKey) - cut - kept / 2);
        if (halvings < maxHalvings && (long) absorbed * TOP_INSERT_COST < kept / 2) {
            return halvings + 1;
        }
        return halvings;
    }

    /** Times the kept share was halved. */
    long shrinks() {
        return shrinks;
    }

    /** Times the kept share was doubled. */
    long growths() {
        return growths;
    }

    /** Entries the last regular cycle kept (0 before the first). */
    int lastKept() {
        return kept;
    }
}
