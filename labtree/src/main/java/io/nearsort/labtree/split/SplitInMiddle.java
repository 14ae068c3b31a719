package io.nearsort.labtree.split;

/**
 * Split-in-middle (LAB-tree §4.1), the standard B-tree split: x = i_j with j = floor((κ+1)/2), so that the two
 * leaves get as equal a number of records as possible, the smaller half on the left (Example 1: sequential
 * inserts with κ = 4 leave two slots of dead space in every leaf but the last). With dynamic leaves, the most
 * balanced feasible key split (Remark B.4).
 */
public final class SplitInMiddle implements SplitPolicy {
    /** Creates the policy; it holds no state, so one instance can split the leaves of any number of trees. */
    public SplitInMiddle() {
    }

    @Override
    public long splitPoint(final Overflow leaf) {
        return SplitPolicy.mostBalancedKeySplit(leaf);
    }
}
