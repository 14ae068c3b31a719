package io.nearsort.labtree.split;

/**
 * Split-balanced-ratio (LAB-tree §4.1, Remark B.2): a leaf's ratio χ is its free slots over the keys missing from
 * its range (that could still be inserted); the split maximises the smaller ratio of the two new leaves, so that
 * neither is likely to split soon. A side that can never split has χ = +∞.
 */
public final class SplitBalancedRatio extends KeySplitObjective {
    /** Creates the policy; it holds no state, so one instance can split the leaves of any number of trees. */
    public SplitBalancedRatio() {
    }

    @Override
    double score(final Overflow leaf, final int j) {
        final long x = leaf.key(j);
        return Math.min(ratio(new Side(leaf, leaf.low(), x, j)), ratio(new Side(leaf, x, leaf.high(), leaf.size() - j)));
    }

    private static double ratio(final Side side) {
        if (side.safe() && (side.neverSplits || side.missing == 0)) {
            return Double.POSITIVE_INFINITY;
        }
        return (double) side.free / side.missing;
    }
}
