package io.nearsort.core.sbtree;

/**
 * The layout of a data block (SB-Tree §III-C, Figure 4): after the {@link BlockHeader}, the N-ary search table
 * (§III-D), then the keys and the values in two separate arrays, so that a search touches only keys and a
 * scan reads values in long contiguous stretches.
 *
 * <pre>
 *   0                                   48                        48 + 8·t                 48 + 8·t + 8·c
 *   +-----------------------------------+-------------------------+------------------------+------------------+
 *   | BlockHeader (count = entries)     | table[t] (long):        | keys[c] (long),        | values[c] (long) |
 *   |                                   | smallest key of bucket j| ascending              |                  |
 *   +-----------------------------------+-------------------------+------------------------+------------------+
 * </pre>
 *
 * <p>The keys are cut into buckets of {@code b} entries ({@code b} a power of two, the builder's
 * {@code searchTableBucketSize}); {@code table[j] = keys[j·b]} for every bucket holding an entry, so
 * {@code t = ceil(c / b)}. The capacity {@code c} is the largest that fits the block with its table. An instance
 * describes the blocks of one index; it holds no address.
 */
final class DataBlockDescriptor {
    static final int TABLE_OFFSET = BlockHeader.LENGTH;

    final int blockSize;
    final int capacity;
    final int bucketSize;
    final int bucketShift;
    final int tableSize;
    final int keysOffset;
    final int valuesOffset;

    DataBlockDescriptor(final int blockSize, final int bucketSize) {
        if (Integer.bitCount(bucketSize) != 1) {
            throw new IllegalArgumentException("bucketSize must be a power of two (got: " + bucketSize + ")");
        }
        this.blockSize = blockSize;
        this.bucketSize = bucketSize;
        this.bucketShift = Integer.numberOfTrailingZeros(bucketSize);
        this.capacity = capacity(blockSize, bucketSize);
        if (capacity < 2) {
            throw new IllegalArgumentException("a data block of " + blockSize + " bytes holds fewer than 2 entries");
        }
        this.tableSize = buckets(capacity, bucketSize);
        this.keysOffset = TABLE_OFFSET + tableSize * Long.BYTES;
        this.valuesOffset = keysOffset + capacity * Long.BYTES;
    }

    /** Entries a data block of {@code blockSize} bytes holds with buckets of {@code bucketSize} entries. */
    static int capacity(final int blockSize, final int bucketSize) {
        int c = (blockSize - TABLE_OFFSET) / (2 * Long.BYTES);
        while (c > 0 && TABLE_OFFSET + (long) buckets(c, bucketSize) * Long.BYTES + 2L * c * Long.BYTES > blockSize) {
            c--;
        }
        return c;
    }

    static int buckets(final int entries, final int bucketSize) {
        return (entries + bucketSize - 1) / bucketSize;
    }

    /** Buckets holding entries when the block has {@code count} of them. */
    int usedBuckets(final int count) {
        return (count + bucketSize - 1) >>> bucketShift;
    }

    long tableAddress(final long block, final int bucket) {
        return block + TABLE_OFFSET + ((long) bucket << 3);
    }

    long keyAddress(final long block, final int index) {
        return block + keysOffset + ((long) index << 3);
    }

    long valueAddress(final long block, final int index) {
        return block + valuesOffset + ((long) index << 3);
    }
}
