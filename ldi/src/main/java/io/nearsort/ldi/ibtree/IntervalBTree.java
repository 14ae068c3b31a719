package io.nearsort.ldi.ibtree;

import java.util.Arrays;

/**
 * The bucket index of §4.1: an interval B-tree (Ang and Tan, 1995) over bucket key ranges {@code [low, high]},
 * ordered by {@code low}, every node augmented with the largest {@code high} below it ({@code Max_i}) so a
 * stabbing or range search skips subtrees that end before the query starts, and stops at the first subtree that
 * starts after it ends: O(log n + answers) node visits for the usual, mostly disjoint bucket ranges.
 *
 * <p>Nodes hold up to {@code fanout} entries; the index lives in memory and is rebuilt from the projection's bucket
 * directory when a store is opened. Not thread-safe: the column store guards it with its read/write phases.
 */
public final class IntervalBTree {
    /** Receives one matching interval of a search. */
    @FunctionalInterface
    public interface Visitor {
        /**
         * Receives one interval that matches the search.
         *
         * @param low   the interval's low end
         * @param high  the interval's high end (inclusive)
         * @param value what was stored with it (the column store stores the bucket's number)
         */
        void visit(long low, long high, long value);
    }

    private final int fanout;
    private Node root;
    private long size;
    private long nodesVisited;

    /**
     * An empty tree whose nodes hold up to {@code fanout} entries (at least 4).
     *
     * @param fanout entries per node, at least 4
     * @throws IllegalArgumentException when {@code fanout} is below 4
     */
    public IntervalBTree(final int fanout) {
        if (fanout < 4) {
            throw new IllegalArgumentException("fanout must be at least 4 (got: " + fanout + ")");
        }
        this.fanout = fanout;
        this.root = new Node(true, fanout);
    }

    /**
     * Inserts {@code [low, high]} with {@code value}; duplicates are kept.
     *
     * @param low   the interval's low end, any long
     * @param high  the interval's high end (inclusive), at least {@code low}
     * @param value what to store with it (the column store stores the bucket's number)
     * @throws IllegalArgumentException when {@code high} lies below {@code low}
     */
    public void insert(final long low, final long high, final long value) {
        if (high < low) {
            throw new IllegalArgumentException("interval high " + high + " lies below its low " + low);
        }
        final Node split = root.insert(low, high, value, fanout);
        if (split != null) {
            final Node newRoot = new Node(false, fanout);
            newRoot.addChild(root);
            newRoot.addChild(split);
            root = newRoot;
        }
        size++;
    }

    /**
     * Visits every stored interval intersecting {@code [lo, hi]}, in ascending order of low.
     *
     * @param lo      the query's low end
     * @param hi      the query's high end (inclusive); below {@code lo}, nothing is visited
     * @param visitor receives each matching interval with its value
     */
    public void search(final long lo, final long hi, final Visitor visitor) {
        if (hi < lo) {
            return;
        }
        search(root, lo, hi, visitor);
    }

    private void search(final Node node, final long lo, final long hi, final Visitor visitor) {
        nodesVisited++;
        for (int i = 0; i < node.count; i++) {
            if (node.lows[i] > hi) {
                return; // every later entry starts even later
            }
            if (node.maxHighs[i] < lo) {
                continue; // Max_i bounds the search: nothing below ends inside the query
            }
            if (node.leaf) {
                visitor.visit(node.lows[i], node.maxHighs[i], node.values[i]);
            } else {
                search(node.children[i], lo, hi, visitor);
            }
        }
    }

    /**
     * Stored intervals.
     *
     * @return the number of intervals inserted, duplicates included
     */
    public long size() {
        return size;
    }

    /**
     * Nodes visited by all searches so far.
     *
     * @return the number of node visits since the tree was made
     */
    public long nodesVisited() {
        return nodesVisited;
    }

    /**
     * Levels from the root to the leaves.
     *
     * @return the number of levels, 1 for a tree that is a single leaf
     */
    public int height() {
        int h = 1;
        for (Node n = root; !n.leaf; n = n.children[0]) {
            h++;
        }
        return h;
    }

    /**
     * A node: in a leaf, entry i is an interval ({@code lows[i]}, {@code maxHighs[i]} = its high, its value); in an
     * internal node, entry i is child i with the smallest low and the largest high beneath it.
     */
    private static final class Node {
        final boolean leaf;
        long[] lows;
        long[] maxHighs;
        long[] values;
        Node[] children;
        int count;

        Node(final boolean leaf, final int fanout) {
            this.leaf = leaf;
            lows = new long[fanout + 1];
            maxHighs = new long[fanout + 1];
            if (leaf) {
                values = new long[fanout + 1];
            } else {
                children = new Node[fanout + 1];
            }
        }

        long minLow() {
            return lows[0];
        }

        long maxHigh() {
            long m = Long.MIN_VALUE;
            for (int i = 0; i < count; i++) {
                m = Math.max(m, maxHighs[i]);
            }
            return m;
        }

        void addChild(final Node child) {
            lows[count] = child.minLow();
            maxHighs[count] = child.maxHigh();
            children[count++] = child;
        }

        /** Inserts below this node; returns a new right sibling if this node split. */
        Node insert(final long low, final long high, final long value, final int fanout) {
            // Position: after every entry with lows[i] <= low, so equal lows keep insertion order.
            int pos = upperBound(low);
            if (leaf) {
                shiftRight(pos);
                lows[pos] = low;
                maxHighs[pos] = high;
                values[pos] = value;
                count++;
            } else {
                final int child = Math.max(0, pos - 1);
                final Node split = children[child].insert(low, high, value, fanout);
                lows[child] = children[child].minLow();
                maxHighs[child] = children[child].maxHigh();
                if (split != null) {
                    shiftRight(child + 1);
                    lows[child + 1] = split.minLow();
                    maxHighs[child + 1] = split.maxHigh();
                    children[child + 1] = split;
                    count++;
                }
            }
            return count > fanout ? split(fanout) : null;
        }

        private int upperBound(final long low) {
            int lo = 0;
            int hi = count;
            while (lo < hi) {
                final int mid = (lo + hi) >>> 1;
                if (lows[mid] <= low) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        private void shiftRight(final int pos) {
            System.arraycopy(lows, pos, lows, pos + 1, count - pos);
            System.arraycopy(maxHighs, pos, maxHighs, pos + 1, count - pos);
            if (leaf) {
                System.arraycopy(values, pos, values, pos + 1, count - pos);
            } else {
                System.arraycopy(children, pos, children, pos + 1, count - pos);
            }
        }

        private Node split(final int fanout) {
            final Node right = new Node(leaf, fanout);
            final int keep = count / 2;
            final int moved = count - keep;
            System.arraycopy(lows, keep, right.lows, 0, moved);
            System.arraycopy(maxHighs, keep, right.maxHighs, 0, moved);
            if (leaf) {
                System.arraycopy(values, keep, right.values, 0, moved);
            } else {
                System.arraycopy(children, keep, right.children, 0, moved);
                Arrays.fill(children, keep, count, null);
            }
            right.count = moved;
            count = keep;
            return right;
        }
    }
}
