package io.nearsort.labtree.split;

/**
 * A split policy that scores every split at a key, x = i_j for j = 1 … κ, and takes the best feasible one; ties go
 * to the more balanced split, then to the lower j.
 */
abstract class KeySplitObjective implements SplitPolicy {
    @Override
    public final long splitPoint(final Overflow leaf) {
        long best = -1;
        double bestScore = Double.NEGATIVE_INFINITY;
        int bestImbalance = Integer.MAX_VALUE;
        for (int j = 1; j < leaf.size(); j++) {
            final long x = leaf.key(j);
            if (!leaf.feasible(x)) {
                continue;
            }
            final double score = score(leaf, j);
            final int imbalance = leaf.imbalance(j);
            if (best < 0 || score > bestScore || (score == bestScore && imbalance < bestImbalance)) {
                best = x;
                bestScore = score;
                bestImbalance = imbalance;
            }
        }
        return best >= 0 ? best : SplitPolicy.mostBalancedKeySplit(leaf); // throws: nothing is feasible
    }

    /** The objective of a split at x = i_j (j keys go left); larger is better, +∞ allowed. */
    abstract double score(Overflow leaf, int j);

    /** Free slots and missing keys of one side of a split, as Remarks B.1–B.2 define them. */
    static final class Side {
        final long missing;
        final long free;
        final boolean neverSplits;

        Side(final Overflow leaf, final long from, final long to, final int count) {
            final long length = to - from;
            this.missing = length - count;
            this.neverSplits = leaf.capacity().neverOverflows(length);
            this.free = leaf.capacity().freeSlots(count);
        }

        /** Whether no insertion sequence can ever split this side. */
        boolean safe() {
            return neverSplits || missing <= free;
        }
    }
}
