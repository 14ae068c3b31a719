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

    /** Plain B-tree leaves of κ records. */
    public static LeafCapacity sparseOnly(final int kappa) {
        return new LeafCapacity(kappa, kappa, LeafFormat.SPARSE_ONLY);
    }

    /** Dynamic leaves: κs records sparse, or a run of κd keys dense. */
    public static LeafCapacity dynamic(final int kappaSparse, final int kappaDense) {
        return new LeafCapacity(kappaSparse, kappaDense, LeafFormat.DYNAMIC);
    }

    /** Whether the sorted distinct keys {@code keys[from, to)} fit in one leaf, in either format. */
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
     */
    public int alignment() {
        return format == LeafFormat.DYNAMIC ? dense : sparse;
    }

    /** Whether a leaf whose range has {@code rangeLength} keys can never overflow (it fits whole). */
    public boolean neverOverflows(final long rangeLength) {
        return rangeLength <= alignment();
    }

    /**
     * Free slots of a leaf holding {@code count} keys before an insertion may split it, as split-defer-next and
     * split-balanced-ratio count them: κs minus the records. Dynamic leaves whose range fits whole never split
     * ({@link #neverOverflows}); other dynamic leaves are counted against κs, a conservative estimate (a dense
     * leaf may absorb more).
     */
    public int freeSlots(final int count) {
        return Math.max(0, sparse - count);
    }

    /** Keys in [low, high] inclusive, saturating at {@link Long#MAX_VALUE}. */
    public static long span(final long low, final long high) {
        final long span = high - low + 1;
        return span <= 0 ? Long.MAX_VALUE : span;
    }
}
