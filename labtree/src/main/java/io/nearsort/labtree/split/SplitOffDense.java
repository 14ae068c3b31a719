package io.nearsort.labtree.split;

/**
 * Split-off-dense (LAB-tree §4.1): try to cut off a leaf that will never split again, [low, low + κ) or
 * [high - κ, high) (κd with dynamic leaves, whose unit-long ranges always fit whole); if either would be more
 * than half full, take the denser one (the left on a tie), otherwise split in the middle. On sequential
 * inserts (Example 1) it cuts off full leaves, like split-aligned.
 */
public final class SplitOffDense implements SplitPolicy {
    private static final double DENSE = 0.5;

    /** Creates the policy; it holds no state, so one instance can split the leaves of any number of trees. */
    public SplitOffDense() {
    }

    @Override
    public long splitPoint(final Overflow leaf) {
        final long unit = leaf.capacity().alignment();
        final long left = leaf.low() + unit;
        final long right = leaf.high() - unit;
        final double leftDensity = leaf.feasible(left) ? (double) leaf.countBelow(left) / unit : -1;
        final double rightDensity = leaf.feasible(right) ? (double) (leaf.size() - leaf.countBelow(right)) / unit : -1;
        if (Math.max(leftDensity, rightDensity) > DENSE) {
            return leftDensity >= rightDensity ? left : right;
        }
        return SplitPolicy.mostBalancedKeySplit(leaf);
    }
}
