package io.nearsort.core.sbtree;

import org.agrona.UnsafeApi;

/**
 * The header every block of the data layer starts with: data blocks ({@link DataBlockDescriptor}) and
 * segmented blocks ({@link SegmentedBlockDescriptor}) are linked in one list in key order (SB-Tree §III-A,
 * Figure 3), the segmented block last, so that a walk along the list can treat both alike.
 *
 * <pre>
 *   0                        8             12            16                       24                       32
 *   +------------------------+-------------+-------------+------------------------+------------------------+
 *   | version lock (long)    | kind (int)  | count (int) | next block (long)      | low fence (long)       |
 *   +------------------------+-------------+-------------+------------------------+------------------------+
 *   32: flags (int)   36: kind-specific (int)   40: kind-specific layout
 * </pre>
 *
 * <p>A block holds the keys {@code k} with {@code lowFence <= k < lowFence(next)}: the low fence is fixed when
 * the block is formatted and never changes, so a walk that reads {@code next}'s fence always compares against
 * the right bound ({@code Covers} of Algorithms 1–3). The first block of the data layer has the fence
 * {@link Long#MIN_VALUE}; a segmented block whose range lies beyond {@link Long#MAX_VALUE} (its predecessor
 * holds {@code Long.MAX_VALUE}) has the flag {@link #FLAG_BEYOND_MAX} and covers no key. {@code count} is the
 * number of entries of a data block and the per-thread-block slots handed out by a segmented block.
 */
final class BlockHeader {
    static final int VERSION_OFFSET = 0;
    static final int KIND_OFFSET = 8;
    static final int COUNT_OFFSET = 12;
    static final int NEXT_OFFSET = 16;
    static final int LOW_FENCE_OFFSET = 24;
    static final int FLAGS_OFFSET = 32;
    static final int SPECIFIC_INT_OFFSET = 36;
    static final int LENGTH = 40;

    static final int KIND_DATA = 1;
    static final int KIND_SEGMENTED = 2;

    /** A segmented block that covers no key: its fence would be {@code Long.MAX_VALUE + 1}. */
    static final int FLAG_BEYOND_MAX = 1;

    private BlockHeader() {
    }

    /** Formats the common header; the version lock starts unlocked at version 0. */
    static void initialize(final long block, final int kind, final long lowFence, final int flags, final long next) {
        UnsafeApi.putInt(block + KIND_OFFSET, kind);
        UnsafeApi.putInt(block + COUNT_OFFSET, 0);
        UnsafeApi.putLong(block + NEXT_OFFSET, next);
        UnsafeApi.putLong(block + LOW_FENCE_OFFSET, lowFence);
        UnsafeApi.putInt(block + FLAGS_OFFSET, flags);
        UnsafeApi.putInt(block + SPECIFIC_INT_OFFSET, 0);
        VersionLock.initialize(block);
    }

    static int kind(final long block) {
        return UnsafeApi.getInt(block + KIND_OFFSET);
    }

    static boolean isSegmented(final long block) {
        return kind(block) == KIND_SEGMENTED;
    }

    /** The next block; read under a version (validate it) or with the block locked. */
    static long next(final long block) {
        return UnsafeApi.getLongAcquire(null, block + NEXT_OFFSET);
    }

    /** Sets the next block with a release store: a reader that follows it sees the block fully formatted. */
    static void setNext(final long block, final long next) {
        UnsafeApi.putLongRelease(null, block + NEXT_OFFSET, next);
    }

    /** Sets the fence of a block not yet linked into the data layer (it never changes afterwards). */
    static void setLowFence(final long block, final long lowFence) {
        UnsafeApi.putLong(block + LOW_FENCE_OFFSET, lowFence);
    }

    static long lowFence(final long block) {
        return UnsafeApi.getLong(block + LOW_FENCE_OFFSET);
    }

    static int flags(final long block) {
        return UnsafeApi.getInt(block + FLAGS_OFFSET);
    }

    /**
     * {@code Covers(block, key)} of Algorithms 1–3: whether {@code key} is at or above the block's low fence,
     * so that a walk that reached the block's predecessor must move on to it.
     */
    static boolean covers(final long block, final long key) {
        return (flags(block) & FLAG_BEYOND_MAX) == 0 && lowFence(block) <= key;
    }
}
