package io.nearsort.ldi.distribution;

import io.nearsort.core.Indexes;
import io.nearsort.core.btree.BPlusTree;
import io.nearsort.core.btree.BPlusTreeBuilder;
import io.nearsort.core.memory.PageArena;
import org.agrona.collections.LongArrayList;

/**
 * §3.1: initial intervals from a training prefix. The prefix is inserted into a k-ary B+-tree (core's
 * {@link BPlusTree}, keyed by value with the multiplicity as the entry's value); every leaf becomes an interval
 * from its smallest key up to just below the next leaf's smallest key, and the training tuples in it become the
 * interval's initial {@code G.load}.
 *
 * <p>Core's nodes are pages, so "k-ary" is honoured as: the smallest page size whose leaves hold at least
 * {@code fanout} entries. Top-down inserts leave leaves between half and fully occupied, so the training yields
 * roughly {@code 2·distinct/fanout} to {@code distinct/fanout} intervals.
 *
 * <p>With many duplicate keys, leaves of k distinct keys hold very different numbers of tuples, so
 * {@link #trainByLoad} instead cuts the same tree's keys (in order, with their multiplicities) into intervals of at
 * least a given number of tuples: leaves of k tuples rather than k keys. The bucketing of §2 wants an interval to
 * gather about n tuples per buffer of B, so the column store cuts at {@code n·prefix/B} tuples.
 */
public final class DistributionTrainer {

    private DistributionTrainer() {
    }

    /**
     * The largest fanout a training tree supports (the leaf capacity of core's largest page).
     *
     * @return the leaf capacity of a page of {@link PageArena#MAX_PAGE_SIZE} bytes
     */
    public static int maxFanout() {
        return BPlusTreeBuilder.leafCapacity(PageArena.MAX_PAGE_SIZE);
    }

    /**
     * Learns intervals from {@code keys[from, to)}.
     *
     * @param keys   the training keys, in any order, duplicates allowed; not modified
     * @param from   the first training key's index, inclusive, at least 0
     * @param to     the end index, exclusive: above {@code from} and at most {@code keys.length}
     * @param fanout k of the k-ary tree, 2 to {@link #maxFanout()}
     * @return the intervals' lows (ascending), the last interval's high, and each interval's training load
     * @throws IllegalArgumentException when {@code [from, to)} is empty or out of bounds, or {@code fanout} is out of
     *         range
     */
    public static Trained train(final long[] keys, final int from, final int to, final int fanout) {
        checkPrefix(keys, from, to);
        if (fanout < 2 || fanout > maxFanout()) {
            throw new IllegalArgumentException("fanout must be in [2, " + maxFanout() + "] (got: " + fanout + ")");
        }
        try (BPlusTree tree = count(keys, from, to, pageSizeFor(fanout))) {
            final LongArrayList lows = new LongArrayList();
            final LongArrayList loads = new LongArrayList();
            tree.forEachLeaf((leafKeys, multiplicities, count) -> {
                long load = 0;
                for (int i = 0; i < count; i++) {
                    load += multiplicities[i];
                }
                lows.addLong(leafKeys[0]);
                loads.addLong(load);
            });
            return new Trained(lows.toLongArray(), max(keys, from, to), loads.toLongArray());
        }
    }

    /**
     * Learns intervals of at least {@code tuplesPerInterval} training tuples each from {@code keys[from, to)},
     * cut between distinct keys (one key's duplicates are never split; the last interval may hold fewer).
     *
     * @param keys              the training keys, in any order, duplicates allowed; not modified
     * @param from              the first training key's index, inclusive, at least 0
     * @param to                the end index, exclusive: above {@code from} and at most {@code keys.length}
     * @param tuplesPerInterval training tuples an interval holds at least, itself at least 1
     * @return the intervals' lows (ascending), the last interval's high (the largest key), and each interval's
     *         training load
     * @throws IllegalArgumentException when {@code [from, to)} is empty or out of bounds, or
     *         {@code tuplesPerInterval} is below 1
     */
    public static Trained trainByLoad(final long[] keys, final int from, final int to, final int tuplesPerInterval) {
        checkPrefix(keys, from, to);
        if (tuplesPerInterval < 1) {
            throw new IllegalArgumentException("tuplesPerInterval must be at least 1 (got: " + tuplesPerInterval
                    + ")");
        }
        try (BPlusTree tree = count(keys, from, to, PageArena.DEFAULT_PAGE_SIZE)) {
            final LongArrayList lows = new LongArrayList();
            final LongArrayList loads = new LongArrayList();
            final long[] open = {0};
            tree.forEachLeaf((leafKeys, multiplicities, count) -> {
                for (int i = 0; i < count; i++) {
                    if (lows.isEmpty() || open[0] >= tuplesPerInterval) {
                        if (!lows.isEmpty()) {
                            loads.addLong(open[0]);
                        }
                        lows.addLong(leafKeys[i]);
                        open[0] = 0;
                    }
                    open[0] += multiplicities[i];
                }
            });
            loads.addLong(open[0]);
            return new Trained(lows.toLongArray(), max(keys, from, to), loads.toLongArray());
        }
    }

    /** The training keys in a B+-tree of the given page size, each with its multiplicity. */
    private static BPlusTree count(final long[] keys, final int from, final int to, final int pageSize) {
        final BPlusTree tree = Indexes.bPlusTree().pageSize(pageSize).build();
        for (int i = from; i < to; i++) {
            tree.put(keys[i], tree.getOrDefault(keys[i], 0L) + 1);
        }
        return tree;
    }

    private static long max(final long[] keys, final int from, final int to) {
        long max = Long.MIN_VALUE;
        for (int i = from; i < to; i++) {
            max = Math.max(max, keys[i]);
        }
        return max;
    }

    private static void checkPrefix(final long[] keys, final int from, final int to) {
        if (from < 0 || to > keys.length || from >= to) {
            throw new IllegalArgumentException("training prefix must hold at least one key (range [" + from + ", "
                    + to + ") of " + keys.length + ")");
        }
    }

    /**
     * The result of training: interval lows, the last interval's high and the training load per interval.
     *
     * @param lows     each interval's smallest key, ascending
     * @param lastHigh the last interval's largest key (inclusive): the largest key of the training prefix
     * @param loads    each interval's training tuples, parallel to {@code lows}
     */
    public record Trained(long[] lows, long lastHigh, long[] loads) {
        /**
         * Copies both arrays, so the result does not change with the arrays given.
         *
         * @param lows     each interval's smallest key, ascending
         * @param lastHigh the last interval's largest key (inclusive)
         * @param loads    each interval's training tuples, parallel to {@code lows}
         */
        public Trained {
            lows = lows.clone();
            loads = loads.clone();
        }

        /**
         * The intervals' lows.
         *
         * @return a copy of each interval's smallest key, ascending
         */
        @Override
        public long[] lows() {
            return lows.clone();
        }

        /**
         * The intervals' training loads.
         *
         * @return a copy of each interval's training tuples, parallel to {@link #lows()}
         */
        @Override
        public long[] loads() {
            return loads.clone();
        }
    }

    static int pageSizeFor(final int fanout) {
        int page = PageArena.MIN_PAGE_SIZE;
        while (BPlusTreeBuilder.leafCapacity(page) < fanout) {
            page <<= 1;
        }
        return page;
    }
}
