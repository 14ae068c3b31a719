package io.nearsort.labtree.split;

/**
 * Split-aligned (LAB-tree §4.1): the splitting point is a multiple of κ (of κd with dynamic leaves, Remark B.4)
 * that minimises the difference between the records on either side; among equals, the one closest to the middle
 * of the leaf's range. Infeasible points, where a side could not hold its keys in either format, are ruled out
 * (Remark B.4: κs = 4, κd = 8, a dense leaf of 7…12 receiving 97 splits at 96, not 8). Starting from one leaf over
 * [0, N) with N a multiple of the unit, every leaf range stays aligned, so no slot is ever dead.
 *
 * <p>Only one candidate per gap between consecutive keys matters (all multiples in a gap split the keys alike),
 * so the search costs O(κ) whatever the range.
 */
public final class SplitAligned implements SplitPolicy {
    /** Creates the policy; it holds no state, so one instance can split the leaves of any number of trees. */
    public SplitAligned() {
    }

    @Override
    public long splitPoint(final Overflow leaf) {
        final long unit = leaf.capacity().alignment();
        final int m = leaf.size();
        long best = -1;
        int bestImbalance = Integer.MAX_VALUE;
        long bestDistance = Long.MAX_VALUE;
        // Gap j holds the points x with exactly j keys below: (i_{j-1}, i_j], clipped to (low, high).
        for (int j = 0; j <= m; j++) {
            final long from = j == 0 ? leaf.low() + 1 : leaf.key(j - 1) + 1;
            final long to = j == m ? leaf.high() - 1 : leaf.key(j);
            final long x = closestMultiple(unit, from, to, leaf.low() + (leaf.high() - leaf.low()) / 2);
            if (x < 0 || !leaf.feasible(x)) {
                continue;
            }
            final int imbalance = leaf.imbalance(j);
            final long distance = leaf.distanceFromMiddle(x);
            if (imbalance < bestImbalance || (imbalance == bestImbalance && distance < bestDistance)) {
                best = x;
                bestImbalance = imbalance;
                bestDistance = distance;
            }
        }
        if (best < 0) {
            throw new IllegalStateException("no feasible aligned split of leaf [" + leaf.low() + ", " + leaf.high()
                    + ") under " + leaf.capacity() + ": its range holds no multiple of " + unit + " between its keys");
        }
        return best;
    }

    /** The multiple of {@code unit} in [from, to] closest to {@code target}, or -1 if there is none. */
    static long closestMultiple(final long unit, final long from, final long to, final long target) {
        if (from > to) {
            return -1;
        }
        final long first = Math.floorDiv(from + unit - 1, unit) * unit;
        final long last = Math.floorDiv(to, unit) * unit;
        if (first > last) {
            return -1;
        }
        final long below = Math.floorDiv(target, unit) * unit;
        final long candidate = target - below <= unit / 2 ? below : below + unit;
        return Math.max(first, Math.min(last, candidate));
    }
}
