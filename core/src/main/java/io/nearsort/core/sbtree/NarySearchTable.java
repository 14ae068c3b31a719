package io.nearsort.core.sbtree;

import org.agrona.UnsafeApi;

/**
 * The N-ary search table of a data block (SB-Tree §III-D): the smallest key of each bucket of {@code b}
 * entries, kept in one contiguous array in front of the keys. A search scans the table sequentially to find the
 * bucket that may hold the key, then that bucket alone; both scans run over contiguous memory, which the
 * prefetcher follows, where a binary search over a 4 KiB block jumps across its cache lines (§III-D, §IV-E).
 * Layout in {@link DataBlockDescriptor}.
 *
 * <p>Writers rebuild the table from the first bucket a change touched, under the block's version lock.
 * Readers may search a block a writer is changing; the result is then wrong but harmless, since they validate the
 * version before using it.
 */
final class NarySearchTable {
    private NarySearchTable() {
    }

    /**
     * Index of the first of the block's {@code count} keys that is {@code >= key}, in {@code [0, count]}.
     *
     * @param count the block's entry count, at most its capacity
     */
    static int lowerBound(final DataBlockDescriptor d, final long block, final int count, final long key) {
        if (count == 0) {
            return 0;
        }
        final int buckets = d.usedBuckets(count);
        // The last bucket whose smallest key is <= key (the first bucket when none is): a sequential scan.
        int bucket = 0;
        long table = d.tableAddress(block, 1);
        while (bucket + 1 < buckets && UnsafeApi.getLong(table) <= key) {
            bucket++;
            table += Long.BYTES;
        }
        int i = bucket << d.bucketShift;
        final int end = Math.min(count, i + d.bucketSize);
        long keys = d.keyAddress(block, i);
        while (i < end && UnsafeApi.getLong(keys) < key) {
            i++;
            keys += Long.BYTES;
        }
        return i;
    }

    /** Rewrites the table entries of every bucket from the one holding entry {@code from} on. */
    static void rebuild(final DataBlockDescriptor d, final long block, final int from, final int count) {
        final int buckets = d.usedBuckets(count);
        for (int bucket = from >>> d.bucketShift; bucket < buckets; bucket++) {
            UnsafeApi.putLong(d.tableAddress(block, bucket), UnsafeApi.getLong(d.keyAddress(block,
                    bucket << d.bucketShift)));
        }
    }
}
