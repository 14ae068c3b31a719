package io.nearsort.core.sbtree;

import org.agrona.UnsafeApi;

/**
 * Operations on data blocks (SB-Tree §III-C), the B+-tree leaves of the data layer, laid out by
 * {@link DataBlockDescriptor}. Writers call the mutating operations with the block's {@link VersionLock} held;
 * the reading ones are also used by optimistic readers, who validate the version afterwards.
 */
final class DataBlock {
    private static final long LONG_ARRAY_BASE = UnsafeApi.arrayBaseOffset(long[].class);

    private DataBlock() {
    }

    /** Formats {@code block} as an empty data block covering keys from {@code lowFence}. */
    static void format(final long block, final long lowFence, final long next) {
        BlockHeader.initialize(block, BlockHeader.KIND_DATA, lowFence, 0, next);
    }

    /** The entry count, bounded by the capacity (an optimistic reader may catch a count being rewritten). */
    static int count(final DataBlockDescriptor d, final long block) {
        final int count = UnsafeApi.getInt(block + BlockHeader.COUNT_OFFSET);
        return count < 0 ? 0 : Math.min(count, d.capacity);
    }

    private static void setCount(final long block, final int count) {
        UnsafeApi.putInt(block + BlockHeader.COUNT_OFFSET, count);
    }

    static long key(final DataBlockDescriptor d, final long block, final int index) {
        return UnsafeApi.getLong(d.keyAddress(block, index));
    }

    static long value(final DataBlockDescriptor d, final long block, final int index) {
        return UnsafeApi.getLong(d.valueAddress(block, index));
    }

    /**
     * The position of {@code key} among the block's {@code count} entries, or {@code -(insertion point) - 1}
     * when absent, found through the N-ary search table (§IV-E).
     */
    static int find(final DataBlockDescriptor d, final long block, final int count, final long key) {
        final int pos = NarySearchTable.lowerBound(d, block, count, key);
        return pos < count && key(d, block, pos) == key ? pos : -pos - 1;
    }

    /** Overwrites the value at {@code pos} (lock held). */
    static void setValue(final DataBlockDescriptor d, final long block, final int pos, final long value) {
        UnsafeApi.putLong(d.valueAddress(block, pos), value);
    }

    /** Inserts an entry at {@code pos} of a block with {@code count < capacity} entries (lock held). */
    static void insertAt(final DataBlockDescriptor d, final long block, final int pos, final int count,
                         final long key, final long value) {
        final int moved = count - pos;
        if (moved > 0) {
            UnsafeApi.copyMemory(d.keyAddress(block, pos), d.keyAddress(block, pos + 1), (long) moved << 3);
            UnsafeApi.copyMemory(d.valueAddress(block, pos), d.valueAddress(block, pos + 1), (long) moved << 3);
        }
        UnsafeApi.putLong(d.keyAddress(block, pos), key);
        UnsafeApi.putLong(d.valueAddress(block, pos), value);
        setCount(block, count + 1);
        NarySearchTable.rebuild(d, block, pos, count + 1);
    }

    /** Removes the entry at {@code pos} (lock held). */
    static void removeAt(final DataBlockDescriptor d, final long block, final int pos, final int count) {
        final int moved = count - pos - 1;
        if (moved > 0) {
            UnsafeApi.copyMemory(d.keyAddress(block, pos + 1), d.keyAddress(block, pos), (long) moved << 3);
            UnsafeApi.copyMemory(d.valueAddress(block, pos + 1), d.valueAddress(block, pos), (long) moved << 3);
        }
        setCount(block, count - 1);
        NarySearchTable.rebuild(d, block, pos, count - 1);
    }

    /**
     * Appends {@code keys[from, from + n)} and their values after the block's {@code count} entries: a sorted run
     * above every key of the block, as a conversion appends to the data layer (§IV-B). Lock held, or the block
     * not yet published.
     */
    static void append(final DataBlockDescriptor d, final long block, final int count, final long[] keys,
                       final long[] values, final int from, final int n) {
        if (n <= 0) {
            return;
        }
        if (count + n > d.capacity) {
            throw new IndexOutOfBoundsException("appending " + n + " entries to " + count + " exceeds the capacity "
                    + d.capacity);
        }
        java.util.Objects.checkFromIndexSize(from, n, keys.length);
        java.util.Objects.checkFromIndexSize(from, n, values.length);
        final long source = LONG_ARRAY_BASE + ((long) from << 3);
        UnsafeApi.copyMemory(keys, source, null, d.keyAddress(block, count), (long) n << 3);
        UnsafeApi.copyMemory(values, source, null, d.valueAddress(block, count), (long) n << 3);
        setCount(block, count + n);
        NarySearchTable.rebuild(d, block, count, count + n);
    }

    /**
     * Moves the entries from {@code from} on of a block with {@code count} entries to the empty block
     * {@code right} (a B+-tree leaf split, §IV-D). Both locked or unpublished; the caller links them.
     */
    static void moveTail(final DataBlockDescriptor d, final long block, final int from, final int count,
                         final long right) {
        final int n = count - from;
        UnsafeApi.copyMemory(d.keyAddress(block, from), d.keyAddress(right, 0), (long) n << 3);
        UnsafeApi.copyMemory(d.valueAddress(block, from), d.valueAddress(right, 0), (long) n << 3);
        setCount(right, n);
        NarySearchTable.rebuild(d, right, 0, n);
        setCount(block, from);
    }

    /**
     * Copies entries {@code [from, from + n)} into {@code keys} and {@code values} at {@code at}: an optimistic
     * reader's snapshot of the block, validated by the caller.
     */
    static void copyOut(final DataBlockDescriptor d, final long block, final int from, final int n,
                        final long[] keys, final long[] values, final int at) {
        if (n <= 0) {
            return;
        }
        // Never trust a racy count with heap memory: a copy past the arrays would corrupt the heap.
        java.util.Objects.checkFromIndexSize(at, n, keys.length);
        java.util.Objects.checkFromIndexSize(at, n, values.length);
        final long target = LONG_ARRAY_BASE + ((long) at << 3);
        UnsafeApi.copyMemory(null, d.keyAddress(block, from), keys, target, (long) n << 3);
        UnsafeApi.copyMemory(null, d.valueAddress(block, from), values, target, (long) n << 3);
    }
}
