package io.nearsort.core.btree;

/**
 * Receives one leaf of a {@link BPlusTree} walk, in key order. LDI §3.1 turns the leaves of a training tree into
 * distribution intervals: each leaf's first and last key become boundaries and its entries the interval's load.
 */
@FunctionalInterface
public interface LeafVisitor {
    /**
     * Accepts one non-empty leaf. The arrays are scratch space reused for the next leaf: copy what you keep.
     *
     * @param keys   the leaf's keys in ascending order, valid in {@code [0, count)}
     * @param values the values stored with them
     * @param count  entries in the leaf (at least 1)
     */
    void leaf(long[] keys, long[] values, int count);
}
