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
     * @return the largest key present
     * @throws java.util.NoSuchElementException when the index is empty
     */
    long lastKey();

    /**
     * Appends {@code keys[from, to)} with their {@code values[from, to)}.
     *
     * @param keys the run's keys, strictly ascending over {@code [from, to)}, the first above {@link #lastKey()}
     * @param values the run's values, index for index with {@code keys}
     * @param from the first index of the run, inclusive
     * @param to the end of the run, exclusive
     * @throws IllegalArgumentException when the run is not strictly ascending or its first key does not exceed
     *                                  {@link #lastKey()}; nothing is written then
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of both arrays
     */
    void bulkAppend(long[] keys, long[] values, int from, int to);

    /**
     * Inserts or overwrites {@code keys[from, to)} with their {@code values[from, to)}, as {@link #put} would one
     * by one: the top-inserts of a SWARE flush cycle, whose sorted entries land inside the index rather than past
     * its end (§IV-A). An index may use the order, as the B+-tree does (a finger search: each key is found from
     * the path of the one before, not from the root); this default puts each entry.
     *
     * @param keys the entries' keys, non-decreasing over {@code [from, to)} (of equal keys the last one's value
     *             stays); anywhere relative to the index's keys
     * @param values the entries' values, index for index with {@code keys}
     * @param from the first index, inclusive
     * @param to the end, exclusive
     * @throws IllegalArgumentException when the keys descend somewhere; nothing is written then
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of both arrays
     */
    default void putAscending(final long[] keys, final long[] values, final int from, final int to) {
        checkAscending(keys, values, from, to);
        for (int i = from; i < to; i++) {
            put(keys[i], values[i]);
        }
    }

    /**
     * Checks a {@link #putAscending} run, naming what is wrong. Internal: for implementations of this interface in
     * nearsort; not part of the API, may change in any release.
     *
     * @param keys the run's keys
     * @param values the run's values
     * @param from the first index, inclusive
     * @param to the end, exclusive
     * @throws IllegalArgumentException when the keys descend somewhere
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of both arrays
     */
    static void checkAscending(final long[] keys, final long[] values, final int from, final int to) {
        LongIndex.checkRange("putAscending", keys, values, from, to);
        for (int i = from + 1; i < to; i++) {
            if (keys[i] < keys[i - 1]) {
                throw new IllegalArgumentException("keys must not descend: keys[" + i + "] = " + keys[i]
                        + " follows " + keys[i - 1]);
            }
        }
    }

    /**
     * Entries a bulk-appended leaf receives (leaf capacity times the bulk fill factor); SWARE sizes its buffer
     * zones like one such leaf (§IV-A).
     *
     * @return the number of entries per bulk-appended leaf
     */
    int bulkLeafEntries();

    /**
     * Sets where full nodes split from now on (SWARE §III "split factor adjustment", Fig. 3c): a node keeps
     * {@code ratio} of its entries and its new right sibling the rest. 80:20 suits entries that arrive in order
     * (the left node will see few more), 50:50 entries that land anywhere (SWARE Table I). The SWARE buffer moves
     * it between the two by the share of each flush that lands inside the tree rather than past its end.
     *
     * @param ratio in [0.5, 0.95]
     * @throws IllegalArgumentException when {@code ratio} is outside that range
     */
    void splitRatio(double ratio);

    /**
     * Off-heap bytes the index's pages hold now; the SWARE buffer checks its memory bound against it
     * ({@code SortednessAwareIndexBuilder.maxBytes}).
     *
     * @return bytes of pages in use, 0 after {@link #close()}
     */
    long bytesInUse();

    /**
     * Whether {@link #getOrDefault} and {@link #containsKey} may run in other threads while one thread writes
     * (default false: reads wait until no write is in progress). The SWARE buffer lets its point reads go on beside
     * a flush cycle's tree writes when they may.
     *
     * @return true when point reads may run beside one writer
     */
    default boolean concurrentPointReads() {
        return false;
    }

    /**
     * {@link #getOrDefault} read by the thread that writes the index, between its writes (or by any thread while
     * none writes): no write can move what the read visits, so an index with {@link #concurrentPointReads} may
     * skip the checks that let its readers run beside a writer. The SWARE buffer's pinned writer reads its own
     * writes through it, and its other readers (a single writer's, or a multi-writer index's under its lock) read
     * through it while they know that no tree write runs beside them. Default: {@link #getOrDefault}.
     *
     * @param key the key to look up; any long
     * @param defaultValue returned when {@code key} is absent
     * @return the value of {@code key}, or {@code defaultValue}
     */
    default long getOrDefaultByWriter(final long key, final long defaultValue) {
        return getOrDefault(key, defaultValue);
    }

    /**
     * {@link #containsKey} read by the thread that writes the index, as {@link #getOrDefaultByWriter} reads.
     *
     * @param key the key to look up; any long
     * @return whether the index holds {@code key}
     */
    default boolean containsKeyByWriter(final long key) {
        return containsKey(key);
    }

    /**
     * Frees the pages that writes retired while reads beside the writer might still have been inside them
     * ({@link #concurrentPointReads}); the caller makes sure no such read is in progress. Nothing to do for an
     * index without concurrent point reads (the default).
     */
    default void reclaimRetired() {
    }
}
