package io.nearsort.labtree.split;

import io.nearsort.labtree.leaf.LeafCapacity;

import java.util.Arrays;

/**
 * An overflowing leaf (LAB-tree §4.1): its key range [low, high) and the sorted, distinct keys i0 &lt; … &lt; iκ it
 * would hold with the new one. A split at x leaves the keys below x in [low, x) and the rest in [x, high).
 */
public final class Overflow {
    private final long low;
    private final long high;
    private final long[] keys;
    private final LeafCapacity capacity;

    /**
     * Describes the leaf [low, high) overflowing with {@code keys}, after checking that they overflow it.
     *
     * @param low      the first key of the leaf's range, >= 0
     * @param high     the end of the leaf's range (exclusive), > {@code low}
     * @param keys     the keys the leaf would hold with the new one: sorted, distinct, in [low, high); kept, not
     *                 copied
     * @param capacity what one leaf can hold; the keys must not fit it
     * @throws IllegalArgumentException unless 0 &lt;= low &lt; high, the keys are sorted, distinct, inside the range,
     *                                  and more than the capacity allows
     */
    public Overflow(final long low, final long high, final long[] keys, final LeafCapacity capacity) {
        if (low < 0 || high <= low) {
            throw new IllegalArgumentException("leaf range must satisfy 0 <= low < high (got: [" + low + ", " + high
                    + "))");
        }
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] < low || keys[i] >= high || (i > 0 && keys[i] <= keys[i - 1])) {
                throw new IllegalArgumentException("keys must be sorted, distinct and inside [" + low + ", " + high
                        + ") (got: " + Arrays.toString(keys) + ")");
            }
        }
        if (capacity.fits(keys, 0, keys.length)) {
            throw new IllegalArgumentException("leaf [" + low + ", " + high + ") with " + keys.length
                    + " keys does not overflow " + capacity);
        }
        this.low = low;
        this.high = high;
        this.keys = keys;
        this.capacity = capacity;
    }

    /**
     * The first key of the leaf's range.
     *
     * @return low, >= 0
     */
    public long low() {
        return low;
    }

    /**
     * The end of the leaf's range, exclusive.
     *
     * @return high, > {@link #low()}
     */
    public long high() {
        return high;
    }

    /**
     * What one leaf can hold, which decides whether each side of a split fits.
     *
     * @return the leaf capacity the keys overflow
     */
    public LeafCapacity capacity() {
        return capacity;
    }

    /**
     * Number of keys, κ + 1 for a sparse leaf.
     *
     * @return the number of keys, more than the capacity fits
     */
    public int size() {
        return keys.length;
    }

    /**
     * The j-th smallest key.
     *
     * @param j the key's rank from 0, in [0, {@link #size()})
     * @return i_j, in [low, high)
     */
    public long key(final int j) {
        return keys[j];
    }

    /**
     * Keys below x: the left leaf's share of a split at x.
     *
     * @param x a candidate splitting point; any long
     * @return the number of keys &lt; x, in [0, {@link #size()}]
     */
    public int countBelow(final long x) {
        final int found = Arrays.binarySearch(keys, x); // the keys are distinct
        return found >= 0 ? found : -found - 1;
    }

    /**
     * Whether low &lt; x &lt; high and both halves of a split at x fit in a leaf (Remark B.4's feasibility).
     *
     * @param x a candidate splitting point; any long
     * @return true when a split at x is feasible, false otherwise (always for x outside (low, high))
     */
    public boolean feasible(final long x) {
        if (x <= low || x >= high) {
            return false;
        }
        final int left = countBelow(x);
        return capacity.fits(keys, 0, left) && capacity.fits(keys, left, keys.length);
    }

    /** How far a split at x is from the middle of the range: |(x - low) - (high - x)|, without overflow. */
    long distanceFromMiddle(final long x) {
        final long left = x - low;
        final long right = high - x;
        return left >= right ? left - right : right - left;
    }

    /** How unbalanced a split leaving {@code left} keys on the left is: |left - right|. */
    int imbalance(final int left) {
        return Math.abs(2 * left - keys.length);
    }
}
