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
 *   32: flags (int)   36: kind-specific (int)   40: high fence (long): the next block's low fence
 *   48: kind-specific layout
 * </pre>
 *
 * <p>A block holds the keys {@code k} with {@code lowFence <= k < highFence}: the low fence is fixed when the
 * block is formatted and never changes; the high fence is a copy of the next block's low fence, written with the
 * next pointer ({@link #link}), so that {@code Covers(block.nextBlock, key)} of Algorithms 1–3 reads only the
 * block a walk is on, not its successor (one cache miss less per step). The first block of the data layer has
 * the low fence {@link Long#MIN_VALUE}; a segmented block whose range lies beyond {@link Long#MAX_VALUE} (its
 * predecessor holds {@code Long.MAX_VALUE}) has the flag {@link #FLAG_BEYOND_MAX} and covers no key; a block
 * without a successor that covers keys has {@link #FLAG_HIGH_OPEN}. {@code count} is the number of entries of a
 * data block and the per-thread-block slots handed out by a segmented block.
 */
final class BlockHeader {
    static final int VERSION_OFFSET = 0;
    static final int KIND_OFFSET = 8;
    static final int COUNT_OFFSET = 12;
    static final int NEXT_OFFSET = 16;
    static final int LOW_FENCE_OFFSET = 24;
    static final int FLAGS_OFFSET = 32;
    static final int SPECIFIC_INT_OFFSET = 36;
    static final int HIGH_FENCE_OFFSET = 40;
    static final int LENGTH = 48;

    static final int KIND_DATA = 1;
    static final int KIND_SEGMENTED = 2;

    /** A segmented block that covers no key: its fence would be {@code Long.MAX_VALUE + 1}. */
    static final int FLAG_BEYOND_MAX = 1;
    /** No block after this one covers any key: no high fence. */
    static final int FLAG_HIGH_OPEN = 2;

    private BlockHeader() {
    }

    /**
     * Formats the common header, linked to {@code next} (0 for none, or a formatted block); the version lock
     * starts unlocked at version 0.
     */
    static void initialize(final long block, final int kind, final long lowFence, final int flags, final long next) {
        UnsafeApi.putInt(block + KIND_OFFSET, kind);
        UnsafeApi.putInt(block + COUNT_OFFSET, 0);
        UnsafeApi.putLong(block + LOW_FENCE_OFFSET, lowFence);
        UnsafeApi.putInt(block + FLAGS_OFFSET, flags);
        UnsafeApi.putInt(block + SPECIFIC_INT_OFFSET, 0);
        link(block, next);
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

    /**
     * Links {@code block} to {@code next} (0 for none), copying {@code next}'s low fence as this block's high fence;
     * the next pointer is stored last, with a release store, so a reader that follows it sees {@code next} fully
     * formatted. Under the block's lock, or before the block is published.
     */
    static void link(final long block, final long next) {
        final int flags = flags(block);
        if (next == 0 || (flags(next) & FLAG_BEYOND_MAX) != 0) {
            UnsafeApi.putInt(block + FLAGS_OFFSET, flags | FLAG_HIGH_OPEN);
        } else {
            UnsafeApi.putLong(block + HIGH_FENCE_OFFSET, lowFence(next));
            UnsafeApi.putInt(block + FLAGS_OFFSET, flags & ~FLAG_HIGH_OPEN);
        }
        UnsafeApi.putLongRelease(null, block + NEXT_OFFSET, next);
    }

    static long highFence(final long block) {
        return UnsafeApi.getLong(block + HIGH_FENCE_OFFSET);
    }

    /**
     * Whether {@code key} lies beyond this block, at or above its successor's low fence: {@code Covers(block
     * .nextBlock, key)}, read from this block alone (validate the version of the read).
     */
    static boolean beyond(final long block, final long key) {
        return (flags(block) & FLAG_HIGH_OPEN) == 0 && key >= highFence(block);
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
}
