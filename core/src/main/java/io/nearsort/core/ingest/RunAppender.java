package io.nearsort.core.ingest;

import io.nearsort.core.AppendableLongIndex;

/**
 * Ingests arrays of (key, value) pairs into an {@link AppendableLongIndex}, bulk-appending every maximal
 * strictly ascending run that starts above the index's largest key (SWARE §III "bulk loading", Fig. 3b) and
 * putting everything else one by one, in arrival order so that the latest write to a key wins.
 *
 * <p>This is the unbuffered form of opportunistic bulk loading: it captures fully sorted stretches of the
 * input but not near-sorted ones, which is what the SWARE buffer adds. Runs shorter than
 * {@code minRunLength} are put one by one, because a bulk append of a handful of keys saves nothing.
 */
public final class RunAppender {
    private final AppendableLongIndex index;
    private final int minRunLength;
    private long appendedEntries;
    private long putEntries;

    /**
     * Creates an appender that fills {@code index}, bulk-appending runs of at least {@code minRunLength} entries.
     *
     * @param index        the index to fill
     * @param minRunLength shortest run worth a bulk append, at least 1
     */
    public RunAppender(final AppendableLongIndex index, final int minRunLength) {
        if (minRunLength < 1) {
            throw new IllegalArgumentException("minRunLength must be >= 1 (got: " + minRunLength + ")");
        }
        this.index = java.util.Objects.requireNonNull(index, "index");
        this.minRunLength = minRunLength;
    }

    /**
     * Ingests {@code keys[from, to)} with {@code values[from, to)} in arrival order.
     *
     * @param keys the keys, in arrival order; any longs, duplicates included
     * @param values the values, index for index with {@code keys}
     * @param from the first index to ingest, inclusive
     * @param to the end of the batch, exclusive
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of both arrays
     */
    public void ingest(final long[] keys, final long[] values, final int from, final int to) {
        java.util.Objects.checkFromToIndex(from, to, keys.length);
        java.util.Objects.checkFromToIndex(from, to, values.length);
        int i = from;
        while (i < to) {
            if (!index.isEmpty() && keys[i] <= index.lastKey()) {
                index.put(keys[i], values[i]);
                putEntries++;
                i++;
                continue;
            }
            int end = i + 1;
            while (end < to && keys[end] > keys[end - 1]) {
                end++;
            }
            if (end - i >= minRunLength) {
                index.bulkAppend(keys, values, i, end);
                appendedEntries += end - i;
            } else {
                for (int j = i; j < end; j++) {
                    index.put(keys[j], values[j]);
                }
                putEntries += end - i;
            }
            i = end;
        }
    }

    /**
     * Entries written by bulk append so far.
     *
     * @return the entries bulk-appended since this appender was created
     */
    public long appendedEntries() {
        return appendedEntries;
    }

    /**
     * Entries written one by one so far.
     *
     * @return the entries put one by one since this appender was created
     */
    public long putEntries() {
        return putEntries;
    }
}
