package io.nearsort.labtree.split;

/** Chooses where an overflowing LAB-tree leaf splits (LAB-tree §4.1). */
public interface SplitPolicy {
    /**
     * The splitting point x: the left leaf gets [low, x), the right [x, high), and both can hold their keys.
     *
     * @param leaf the overflowing leaf: its range, its keys and the leaf capacity
     * @return x, with {@code leaf.low()} &lt; x &lt; {@code leaf.high()}
     * @throws IllegalStateException if no feasible split exists (only with degenerate dynamic capacities)
     */
    long splitPoint(Overflow leaf);

    /**
     * The split at key index j (x = i_j) that is feasible and closest to balanced; ties go to the lower j.
     *
     * @param leaf the overflowing leaf
     * @return the key i_j, 1 &lt;= j &lt; {@code leaf.size()}, at which to split
     * @throws IllegalStateException if no split at a key is feasible
     */
    static long mostBalancedKeySplit(final Overflow leaf) {
        final int m = leaf.size();
        for (int distance = 0; distance < m; distance++) {
            for (final int j : new int[] {m / 2 - distance, m / 2 + distance}) {
                if (j >= 1 && j < m && leaf.feasible(leaf.key(j))) {
                    return leaf.key(j);
                }
            }
        }
        throw new IllegalStateException("no feasible split of leaf [" + leaf.low() + ", " + leaf.high() + ") with "
                + m + " keys under " + leaf.capacity());
    }
}
