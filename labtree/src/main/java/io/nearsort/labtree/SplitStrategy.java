package io.nearsort.labtree;

import io.nearsort.labtree.leaf.LeafCapacity;
import io.nearsort.labtree.split.Overflow;
import io.nearsort.labtree.split.SplitAligned;
import io.nearsort.labtree.split.SplitBalancedRatio;
import io.nearsort.labtree.split.SplitDeferNext;
import io.nearsort.labtree.split.SplitInMiddle;
import io.nearsort.labtree.split.SplitOffDense;
import io.nearsort.labtree.split.SplitPolicy;

/** The leaf splitting strategies of LAB-tree §4.1 (with the dynamic-format rules of Remark B.4). */
public enum SplitStrategy {
    /** Split-in-middle: the standard B-tree split; 2-competitive, leaves dead space on sequential inserts. */
    MIDDLE(new SplitInMiddle()),
    /** Split-aligned: split at a multiple of κ; no dead space, 3-competitive (the best no-dead-space strategy). */
    ALIGNED(new SplitAligned()),
    /** Split-off-dense: cut off a more-than-half-full leaf of one unit at either end, else split in the middle. */
    OFF_DENSE(new SplitOffDense()),
    /** Split-defer-next: maximise the expected insertions until the next split (Remark B.1). */
    DEFER_NEXT(new SplitDeferNext()),
    /** Split-balanced-ratio: maximise the smaller free-slots-to-missing-keys ratio (Remark B.2). */
    BALANCED_RATIO(new SplitBalancedRatio());

    private final SplitPolicy policy;

    SplitStrategy(final SplitPolicy policy) {
        this.policy = policy;
    }

    /**
     * Where an overflowing leaf over [low, high) holding the sorted distinct {@code keys} splits.
     *
     * @param low      the first key of the leaf's range, >= 0
     * @param high     the end of the leaf's range (exclusive), > {@code low}
     * @param keys     the keys the leaf would hold with the new one: sorted, distinct, in [low, high), more than
     *                 {@code capacity} fits
     * @param capacity what one leaf can hold
     * @return the splitting point x, low &lt; x &lt; high: the left leaf gets [low, x), the right [x, high)
     * @throws IllegalArgumentException if the keys do not overflow the capacity or lie outside the range
     * @throws IllegalStateException if no feasible split exists (only with degenerate dynamic capacities)
     */
    public long splitPoint(final long low, final long high, final long[] keys, final LeafCapacity capacity) {
        return policy.splitPoint(new Overflow(low, high, keys, capacity));
    }
}
