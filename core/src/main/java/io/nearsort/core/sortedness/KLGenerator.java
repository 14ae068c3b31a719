package io.nearsort.core.sortedness;

import java.util.SplittableRandom;

/**
 * The workload generator of the Benchmark on Data Sortedness used by the SWARE and OSM-tree papers (OSM-tree
 * §5), fully reproducible from its seed (definition in {@code shared/DESIGN.md}).
 *
 * <p>Start from n strictly increasing keys ({@code 1..n}, or with fixed or random gaps). With K and L given as
 * percentages of n, pick {@code floor(n·K/200)} source positions at random and swap each with a partner drawn
 * uniformly within {@code ±floor(n·L/100)} positions (clipped to the array), never reusing a position already
 * involved in a swap; the first swap is forced to the maximum distance so that L is reached exactly. About K% of
 * the entries end up displaced. {@code K = 0} or {@code L = 0} gives a sorted sequence; the scrambled mode is a
 * uniform random permutation.
 *
 * <p>The <em>late-events</em> mode ({@link #lateEvents(double)}) is the shape of event-time streams: the event
 * with the i-th smallest key (its timestamp) arrives at time {@code i + d(i)}, the delays {@code d(i)} drawn
 * uniformly from {@code [0, D)} with {@code D = floor(n·dPercent/100)}, events that arrive at the same time in
 * key order. Every key then lands fewer than D positions from its sorted position, and almost every key is
 * out of place: K near 100%, L below D.
 *
 * <pre>{@code
 * long[] keys = KLGenerator.generate(10_000_000, 5, 5, 42);                   // K = 5%, L = 5%
 * long[] gapped = KLGenerator.workload(1_000_000).kPercent(10).lPercent(1).randomGaps(100).seed(7).generate();
 * long[] late = KLGenerator.workload(10_000_000).lateEvents(0.5).seed(42).generate();    // D = 0.5% of n
 * }</pre>
 */
public final class KLGenerator {
    private static final int PARTNER_ATTEMPTS = 32;

    private final int n;
    private double kPercent;
    private double lPercent;
    private long seed;
    private long gap = 1;
    private boolean randomGaps;
    private boolean scrambled;
    private double latePercent = -1; // negative: not a late-event workload

    private KLGenerator(final int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0 (got: " + n + ")");
        }
        this.n = n;
    }

    /**
     * {@code n} keys with K = {@code kPercent}% and L = {@code lPercent}% of n, reproducible from {@code seed}.
     *
     * @param n the number of keys, {@code >= 0}
     * @param kPercent the percentage of entries displaced, in [0, 100]
     * @param lPercent the maximum displacement as a percentage of n, in [0, 100]
     * @param seed the seed of the random choices; the same seed gives the same keys
     * @return a new array of the {@code n} keys {@code 1..n} in arrival order
     * @throws IllegalArgumentException when {@code n} is negative or a percentage is outside [0, 100]
     */
    public static long[] generate(final int n, final double kPercent, final double lPercent, final long seed) {
        return workload(n).kPercent(kPercent).lPercent(lPercent).seed(seed).generate();
    }

    /**
     * A configurable workload of {@code n} keys (sorted {@code 1..n} until configured otherwise).
     *
     * @param n the number of keys, {@code >= 0}
     * @return a new generator of {@code n} keys
     * @throws IllegalArgumentException when {@code n} is negative
     */
    public static KLGenerator workload(final int n) {
        return new KLGenerator(n);
    }

    /**
     * Percentage of entries displaced, in [0, 100].
     *
     * @param percent K as a percentage of n, in [0, 100]
     * @return this generator
     * @throws IllegalArgumentException when {@code percent} is outside [0, 100]
     */
    public KLGenerator kPercent(final double percent) {
        this.kPercent = checkPercent("kPercent", percent);
        return this;
    }

    /**
     * Maximum displacement as a percentage of n, in [0, 100].
     *
     * @param percent L as a percentage of n, in [0, 100]
     * @return this generator
     * @throws IllegalArgumentException when {@code percent} is outside [0, 100]
     */
    public KLGenerator lPercent(final double percent) {
        this.lPercent = checkPercent("lPercent", percent);
        return this;
    }

    /**
     * Seed of the random choices.
     *
     * @param seed any long (default 0); the same seed and settings give the same keys
     * @return this generator
     */
    public KLGenerator seed(final long seed) {
        this.seed = seed;
        return this;
    }

    /**
     * Consecutive keys differ by exactly {@code width} (default 1).
     *
     * @param width the gap between consecutive keys, from 1 to 2<sup>32</sup>
     * @return this generator
     * @throws IllegalArgumentException when {@code width} is outside [1, 2<sup>32</sup>]
     */
    public KLGenerator fixedGaps(final long width) {
        this.gap = checkGap(width);
        this.randomGaps = false;
        return this;
    }

    /**
     * Consecutive keys differ by a uniform random amount in [1, width].
     *
     * @param width the largest gap between consecutive keys, from 1 to 2<sup>32</sup>
     * @return this generator
     * @throws IllegalArgumentException when {@code width} is outside [1, 2<sup>32</sup>]
     */
    public KLGenerator randomGaps(final long width) {
        this.gap = checkGap(width);
        this.randomGaps = true;
        return this;
    }

    /**
     * A uniform random permutation instead of a (K,L)-near-sorted sequence.
     *
     * @param scrambled true for a random permutation; K and L are then ignored
     * @return this generator
     */
    public KLGenerator scrambled(final boolean scrambled) {
        this.scrambled = scrambled;
        return this;
    }

    /**
     * A late-event stream instead of a (K,L)-near-sorted sequence: key i arrives at {@code i + U[0, D)} with
     * {@code D = floor(n·dPercent/100)}, ties in key order (see the class comment). {@code dPercent} is in
     * [0, 100]; a D of 0 or 1 gives a sorted sequence. Cannot be combined with K, L or the scrambled mode.
     *
     * @param dPercent the delay bound D as a percentage of n, in [0, 100]
     * @return this generator
     * @throws IllegalArgumentException when {@code dPercent} is outside [0, 100]
     */
    public KLGenerator lateEvents(final double dPercent) {
        this.latePercent = checkPercent("dPercent", dPercent);
        return this;
    }

    /**
     * The keys in arrival order.
     *
     * @return a new array of the n keys in arrival order, reproducible from the seed and settings
     * @throws IllegalStateException when late events are combined with K, L or the scrambled mode
     */
    public long[] generate() {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] keys = sortedKeys(random);
        if (latePercent >= 0) {
            if (scrambled || kPercent > 0 || lPercent > 0) {
                throw new IllegalStateException("lateEvents cannot be combined with kPercent, lPercent or "
                        + "scrambled (got: K=" + kPercent + "%, L=" + lPercent + "%, scrambled=" + scrambled + ")");
            }
            return arriveLate(keys, random);
        }
        if (scrambled) {
            for (int i = n - 1; i > 0; i--) {
                swap(keys, i, random.nextInt(i + 1));
            }
            return keys;
        }
        final int swaps = (int) Math.floor(n * kPercent / 200.0);
        final int maxDistance = (int) Math.min(n - 1L, (long) Math.floor(n * lPercent / 100.0));
        if (swaps == 0 || maxDistance <= 0) {
            return keys;
        }
        final FreePositions free = new FreePositions(n);
        // The forced swap at exactly the maximum distance, so that L is reached.
        final int first = random.nextInt(n - maxDistance);
        swapAndTake(keys, free, first, first + maxDistance);
        for (int s = 1; s < swaps; s++) {
            final int source = unusedPosition(free, random);
            if (source < 0) {
                break;
            }
            final int partner = partner(free, random, source, maxDistance);
            if (partner >= 0) {
                swapAndTake(keys, free, source, partner);
            }
        }
        return keys;
    }

    /**
     * Reorders {@code keys} by arrival time {@code i + U[0, D)}: a stable counting sort over arrival times
     * (at most {@code n + D} distinct), so equal times keep key order.
     */
    private long[] arriveLate(final long[] keys, final SplittableRandom random) {
        final int maxDelay = (int) Math.min(n, (long) Math.floor(n * latePercent / 100.0));
        if (maxDelay <= 1) {
            return keys;
        }
        final int[] arrival = new int[n];
        final int[] start = new int[n + maxDelay + 1];
        for (int i = 0; i < n; i++) {
            arrival[i] = i + random.nextInt(maxDelay);
            start[arrival[i] + 1]++;
        }
        for (int t = 1; t < start.length; t++) {
            start[t] += start[t - 1];
        }
        final long[] ordered = new long[n];
        for (int i = 0; i < n; i++) {
            ordered[start[arrival[i]]++] = keys[i];
        }
        return ordered;
    }

    private long[] sortedKeys(final SplittableRandom random) {
        final long[] keys = new long[n];
        long key = 1;
        for (int i = 0; i < n; i++) {
            keys[i] = key;
            key += randomGaps ? 1 + random.nextLong(gap) : gap;
        }
        return keys;
    }

    /**
     * A position not yet in a swap: the first at or after a random start, wrapping around; -1 when none is left.
     */
    private int unusedPosition(final FreePositions free, final SplittableRandom random) {
        final int start = random.nextInt(n);
        int p = free.firstFrom(start);
        if (p == n) {
            p = free.firstFrom(0);
        }
        return p == n ? -1 : p;
    }

    /**
     * An unused partner within {@code ±distance} of {@code source}, uniform where possible; -1 if none. A crowded
     * window gives the first unused position at or after a random point of it, wrapping around within the window.
     */
    private int partner(final FreePositions free, final SplittableRandom random, final int source,
                        final int distance) {
        final int lo = Math.max(0, source - distance);
        final int hi = (int) Math.min(n - 1L, (long) source + distance);
        for (int attempt = 0; attempt < PARTNER_ATTEMPTS; attempt++) {
            final int p = lo + random.nextInt(hi - lo + 1);
            if (p != source && free.isFree(p)) {
                return p;
            }
        }
        final int from = lo + random.nextInt(hi - lo + 1);
        final int after = free.firstOtherThan(from, source);
        if (after <= hi) {
            return after;
        }
        final int wrapped = free.firstOtherThan(lo, source);
        if (wrapped < from) {
            return wrapped;
        }
        free.take(source); // no partner will ever be found for it
        return -1;
    }

    private static void swapAndTake(final long[] keys, final FreePositions free, final int a, final int b) {
        swap(keys, a, b);
        free.take(a);
        free.take(b);
    }

    private static void swap(final long[] keys, final int a, final int b) {
        final long t = keys[a];
        keys[a] = keys[b];
        keys[b] = t;
    }

    /**
     * The positions not yet in a swap, answering "the first free position at or after p" through a union-find over
     * the positions (path halving; {@code n} is a sentinel that is never taken). A scan position by position, as
     * the generator first did, grows quadratic once most positions are taken: K = 100%, L = 50% took ~8 minutes
     * at n = 10M. This gives the same answers in near-constant time each, for 4 bytes a position (the scan's
     * {@code boolean[]} took 1).
     */
    private static final class FreePositions {
        /** {@code next[p] == p} while p is free; otherwise a position at most the first free one after p. */
        private final int[] next;

        FreePositions(final int n) {
            next = new int[n + 1];
            for (int p = 0; p <= n; p++) {
                next[p] = p;
            }
        }

        /** The first free position at or after {@code p} (in [0, n]), or n when there is none. */
        int firstFrom(final int p) {
            int at = p;
            while (next[at] != at) {
                next[at] = next[next[at]];
                at = next[at];
            }
            return at;
        }

        /** {@link #firstFrom} skipping {@code skip} (a free position). */
        int firstOtherThan(final int p, final int skip) {
            final int at = firstFrom(p);
            return at == skip ? firstFrom(skip + 1) : at;
        }

        boolean isFree(final int p) {
            return next[p] == p;
        }

        /** Marks free position {@code p} as taken. */
        void take(final int p) {
            next[p] = p + 1;
        }
    }

    private static double checkPercent(final String name, final double percent) {
        if (!(percent >= 0.0 && percent <= 100.0)) {
            throw new IllegalArgumentException(name + " must be in [0, 100] (got: " + percent + ")");
        }
        return percent;
    }

    private static long checkGap(final long width) {
        if (width < 1 || width > (1L << 32)) {
            throw new IllegalArgumentException("gap width must be in [1, 2^32] (got: " + width + ")");
        }
        return width;
    }
}
