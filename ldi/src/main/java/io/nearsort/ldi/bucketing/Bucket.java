package io.nearsort.ldi.bucketing;

import java.util.Arrays;

/**
 * A bucket LDI writes out (§2, Figure 2b): the tuples of one leaf interval that reached the bucket capacity
 * ({@link #compacted()}), or of sibling intervals combined because the main buffer filled up with no interval
 * full (not compacted, §3.3). Keys and row references are in write order: interval by interval from left to
 * right, each interval's tuples in arrival order.
 */
public final class Bucket {
    private final long sequence;
    private final long[] keys;
    private final long[] rowRefs;
    private final long low;
    private final long high;
    private final long intervalLow;
    private final long intervalHigh;
    private final boolean compacted;

    /**
     * Creates a bucket of the given tuples (the arrays are kept, not copied); its key span is that of {@code keys}.
     *
     * @param sequence     the bucket's number in write order, from 0
     * @param keys         the tuples' keys in write order (at least one)
     * @param rowRefs      the tuples' row references, parallel to {@code keys}
     * @param intervalLow  the smallest key of the intervals the bucket was cut from
     * @param intervalHigh the largest key of those intervals (inclusive)
     * @param compacted    whether every key lies in one interval
     */
    public Bucket(final long sequence, final long[] keys, final long[] rowRefs, final long intervalLow,
                  final long intervalHigh, final boolean compacted) {
        if (keys.length == 0 || keys.length != rowRefs.length) {
            throw new IllegalArgumentException("a bucket needs at least one key and one row reference per key ("
                    + keys.length + " keys, " + rowRefs.length + " row references)");
        }
        this.sequence = sequence;
        this.keys = keys;
        this.rowRefs = rowRefs;
        this.low = KeySpan.min(keys);
        this.high = KeySpan.max(keys);
        this.intervalLow = intervalLow;
        this.intervalHigh = intervalHigh;
        this.compacted = compacted;
    }

    /**
     * The bucket's number in write order, from 0.
     *
     * @return the sequence number given at construction
     */
    public long sequence() {
        return sequence;
    }

    /**
     * Tuples in the bucket.
     *
     * @return the number of tuples, at least 1
     */
    public int size() {
        return keys.length;
    }

    /**
     * A copy of the keys, in write order.
     *
     * @return a new array of the keys
     */
    public long[] keys() {
        return keys.clone();
    }

    /**
     * A copy of the row references, parallel to {@link #keys()}.
     *
     * @return a new array of the row references
     */
    public long[] rowRefs() {
        return rowRefs.clone();
    }

    /**
     * The key of tuple {@code i}.
     *
     * @param i the tuple's index in write order, 0 to {@code size() - 1}
     * @return its key
     */
    public long key(final int i) {
        return keys[i];
    }

    /**
     * The row reference of tuple {@code i}.
     *
     * @param i the tuple's index in write order, 0 to {@code size() - 1}
     * @return its row reference
     */
    public long rowRef(final int i) {
        return rowRefs[i];
    }

    /**
     * The smallest key in the bucket.
     *
     * @return the smallest of its keys
     */
    public long low() {
        return low;
    }

    /**
     * The largest key in the bucket.
     *
     * @return the largest of its keys
     */
    public long high() {
        return high;
    }

    /**
     * The smallest key of the interval(s) the bucket was cut from.
     *
     * @return the intervals' low bound, as given at construction
     */
    public long intervalLow() {
        return intervalLow;
    }

    /**
     * The largest key of the interval(s) the bucket was cut from (inclusive).
     *
     * @return the intervals' inclusive high bound, as given at construction
     */
    public long intervalHigh() {
        return intervalHigh;
    }

    /**
     * Whether all keys lie in the one interval the bucket is indexed under (§3.3).
     *
     * @return true when the bucket was cut from one interval, false when from sibling intervals combined
     */
    public boolean compacted() {
        return compacted;
    }

    @Override
    public String toString() {
        return (compacted ? "" : "~") + Arrays.toString(keys);
    }
}
