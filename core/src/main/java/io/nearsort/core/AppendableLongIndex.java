package io.nearsort.core;

/**
 * A {@link LongIndex} that can take a sorted run of entries past its largest key without a root-to-leaf
 * traversal per entry: the bulk-loading design element of SWARE §III (Fig. 3b). The SWARE buffer
 * ({@code io.nearsort.core.sware}) works over any index of this kind.
 */
public interface AppendableLongIndex extends LongIndex {
    /**
     * The largest key present.
     *
     * @throws java.util.NoSuchElementException when the index is empty
     */
    long lastKey();

    /**
     * Appends {@code keys[from, to)} with their {@code values[from, to)}.
     *
     * @throws IllegalArgumentException when the run is not strictly ascending or its first key does not exceed
     *                                  {@link #lastKey()}; nothing is written then
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of both arrays
     */
    void bulkAppend(long[] keys, long[] values, int from, int to);

    /**
     * Entries a bulk-appended leaf receives (leaf capacity times the bulk fill factor); SWARE sizes its buffer
     * zones like one such leaf (§IV-A).
     */
    int bulkLeafEntries();
}
