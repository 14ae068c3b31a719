package io.nearsort.core.sbtree;

import org.agrona.UnsafeApi;

/**
 * The layout of a search block, a node of the search layer's B+-tree (SB-Tree §III-A, Figure 3), and the
 * reads lock-free readers make of it.
 *
 * <pre>
 *   0                 4                 8                               8 + 8·c
 *   +-----------------+-----------------+-------------------------------+---------------------------------+
 *   | count (int)     | level (int):    | keys[c] (long), ascending     | children[c] (long): data blocks |
 *   | published       | 0 for leaves    |                               | (level 0) or search blocks      |
 *   +-----------------+-----------------+-------------------------------+---------------------------------+
 * </pre>
 *
 * <p>Entry {@code i} routes the keys from {@code keys[i]} up to the next entry's key to {@code children[i]}; in
 * a leaf, {@code keys[i]} is the low fence of data block {@code children[i]}. The left-most entry of every
 * level has the key {@link Long#MIN_VALUE} (the first data block, never removed), so every key is routed.
 * Under ROWEX (§III-F) only the search-layer thread writes: it writes an entry, then publishes
 * {@code count + 1} with a release store (readers load it with acquire semantics and read only below it);
 * anything else is copy-on-write, the new block linked with one release store of its parent's child pointer or
 * of the root. A separator equals the smallest key below it; when that entry leaves, the writer raises the
 * separator in place first.
 */
final class SearchBlockDescriptor {
    static final int COUNT_OFFSET = 0;
    static final int LEVEL_OFFSET = 4;
    static final int KEYS_OFFSET = 8;

    final int capacity;
    final int childrenOffset;

    SearchBlockDescriptor(final int blockSize) {
        this(blockSize, capacity(blockSize));
    }

    /** Search blocks holding at most {@code capacity} entries (tests use tiny ones to split constantly). */
    SearchBlockDescriptor(final int blockSize, final int capacity) {
        if (capacity < 2 || capacity > capacity(blockSize)) {
            throw new IllegalArgumentException("capacity must be in [2, " + capacity(blockSize) + "] (got: "
                    + capacity + ")");
        }
        this.capacity = capacity;
        this.childrenOffset = KEYS_OFFSET + capacity * Long.BYTES;
    }

    /** Entries a search block of {@code blockSize} bytes holds. */
    static int capacity(final int blockSize) {
        return (blockSize - KEYS_OFFSET) / (2 * Long.BYTES);
    }

    /** The published entry count (acquire), bounded by the capacity. */
    int count(final long node) {
        final int count = UnsafeApi.getIntAcquire(null, node + COUNT_OFFSET);
        return count < 0 ? 0 : Math.min(count, capacity);
    }

    static int level(final long node) {
        return UnsafeApi.getInt(node + LEVEL_OFFSET);
    }

    static long key(final long node, final int index) {
        return UnsafeApi.getLong(node + KEYS_OFFSET + ((long) index << 3));
    }

    /** Child pointer (acquire: the child it points to is fully formatted). */
    long child(final long node, final int index) {
        return UnsafeApi.getLongAcquire(null, node + childrenOffset + ((long) index << 3));
    }

    /**
     * Index of the last of the node's {@code count} keys that is {@code <= key}, or -1 when none is (a reader
     * routed here by a separator read just before the writer raised it: it starts over).
     */
    static int route(final long node, final int count, final long key) {
        int lo = 0;
        int hi = count;
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (key(node, mid) <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }

    // Writer side (the search-layer thread).

    static void format(final long node, final int level) {
        UnsafeApi.putInt(node + LEVEL_OFFSET, level);
        UnsafeApi.putIntRelease(null, node + COUNT_OFFSET, 0);
    }

    static void setKey(final long node, final int index, final long key) {
        UnsafeApi.putLong(node + KEYS_OFFSET + ((long) index << 3), key);
    }

    /** Raises a published separator in place (an atomic store readers may race with). */
    static void raiseKey(final long node, final int index, final long key) {
        UnsafeApi.putLongVolatile(null, node + KEYS_OFFSET + ((long) index << 3), key);
    }

    void setChild(final long node, final int index, final long child) {
        UnsafeApi.putLongRelease(null, node + childrenOffset + ((long) index << 3), child);
    }

    static void publishCount(final long node, final int count) {
        UnsafeApi.putIntRelease(null, node + COUNT_OFFSET, count);
    }
}
