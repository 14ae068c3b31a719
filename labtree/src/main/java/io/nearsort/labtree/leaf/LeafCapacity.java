package io.nearsort.labtree.leaf;

import io.nearsort.labtree.LeafFormat;

/**
 * What one leaf can hold (LAB-tree §4.1–4.2): κs records in the sparse format and, with {@link LeafFormat#DYNAMIC},
 * a contiguous run of up to κd keys in the dense format.
 *
 * @param sparse κs, the sparse leaf capacity
 * @param dense  κd, the dense leaf capacity (equal to κs for {@link LeafFormat#SPARSE_ONLY})
 * @param format the leaf format
 */
public record LeafCapacity(int sparse, int dense, LeafFormat format) {
    /**
     * Checks the capacities against the format.
     *
     * @param sparse κs, at least 2
     * @param dense  κd: greater than κs for {@link LeafFormat#DYNAMIC}, equal to κs for
     *               {@link LeafFormat#SPARSE_ONLY}
     * @param format the leaf format
     * @throws IllegalArgumentException when a capacity is out of those ranges
     */
    public LeafCapacity {
        if (sparse < 2) {
            throw new IllegalArgumentException("kappaSparse must be >= 2 (got: " + sparse + ")");
        }
        if (format == LeafFormat.DYNAMIC && dense <= sparse) {
            throw new IllegalArgumentException("kappaDense must be > kappaSparse for the dynamic format (got: kappaSparse "
                    + sparse + ", kappaDense " + dense + ")");
        }
        if (format == LeafFormat.SPARSE_ONLY && dense != sparse) {
            throw new IllegalArgumentException("the sparse-only format has no dense capacity (got: kappaDense " + dense
                    + ")");
        }
    }

    /**
     * Plain B-tree leaves of κ records.
     *
     * @param kappa κ, records per leaf, at least 2
     * @return the sparse-only capacity with κs = κd = κ
     * @throws IllegalArgumentException when {@code kappa} is below 2
     */
    public static LeafCapacity sparseOnly(final int kappa) {
        return new LeafCapacity(kappa, kappa, LeafFormat.SPARSE_ONLY);
    }

    /**
     * Dynamic leaves: κs records sparse, or a run of κd keys dense.
     *
     * @param kappaSparse κs, records per sparse leaf, at least 2
     * @param kappaDense  κd, keys per dense leaf, greater than {@code kappaSparse}
     * @return the dynamic capacity
     * @throws IllegalArgumentException when {@code kappaSparse} is below 2 or {@code kappaDense} is not above it
     */
    public static LeafCapacity dynamic(final int kappaSparse, final int kappaDense) {
        return new LeafCapacity(kappaSparse, kappaDense, LeafFormat.DYNAMIC);
    }

    /**
     * Whether the sorted distinct keys {@code keys[from, to)} fit in one leaf, in either format.
     *
     * @param keys sorted, distinct keys
     * @param from index of the first key, inclusive
     * @param to   index after the last key, {@code from <= to <= keys.length}
     * @return true when there are at most κs of them, or (dynamic format) they span at most κd keys
     */
    public boolean fits(final long[] keys, final int from, final int to) {
        final int count = to - from;
        if (count <= sparse) {
            return true;
        }
        return format == LeafFormat.DYNAMIC && span(keys[from], keys[to - 1]) <= dense;
    }

    /**
     * The unit split-aligned aligns to: κ for sparse-only leaves, κd for dynamic ones (Remark B.4), so that a
     * leaf range of exactly one unit can always be stored whole.
     *
     * @return κd for {@link LeafFormat#DYNAMIC}, κs otherwise
     */
    public int alignment() {
        return format == LeafFormat.DYNAMIC ? dense : sparse;
    }

    /**
     * Whether a leaf whose range has {@code rangeLength} keys can never overflow (it fits whole).
     *
     * @param rangeLength the number of keys in the leaf's range, high - low
     * @return true when {@code rangeLength} is at most {@link #alignment()}
     */
    public boolean neverOverflows(final long rangeLength) {
        return rangeLength <= alignment();
    }

    /**
     * Free slots of a leaf holding {@code count} keys before an insertion may split it, as split-defer-next and
     * split-balanced-ratio count them: κs minus the records. Dynamic leaves whose range fits whole never split
     * ({@link #neverOverflows}); other dynamic leaves are counted against κs, a conservative estimate (a dense
     * leaf may absorb more).
     *
     * @param count the number of keys the leaf holds
     * @return κs - count, or 0 when the leaf holds κs or more
     */
    public int freeSlots(final int count) {
        return Math.max(0, sparse - count);
    }

    /**
     * Keys in [low, high] inclusive, saturating at {@link Long#MAX_VALUE}.
     *
     * @param low  the smallest key
     * @param high the largest key, >= {@code low}
     * @return high - low + 1, or {@link Long#MAX_VALUE} when that overflows
     */
    public static long span(final long low, final long high) {
        final long span = high - low + 1;
        return span <= 0 ? Long.MAX_VALUE : span;
    }
}
