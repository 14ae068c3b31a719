package io.nearsort.core.sbtree;

import org.agrona.UnsafeApi;

import static io.nearsort.core.sbtree.SegmentedBlockDescriptor.SEALED_SLOT;
import static io.nearsort.core.sbtree.SegmentedBlockDescriptor.slotAddress;

/**
 * Operations on segmented blocks (layout: {@link SegmentedBlockDescriptor}): handing out per-thread data blocks
 * (§IV-A), sealing them for the conversion (§IV-B), and point reads over them.
 *
 * <p>A segmented block needs no lock for inserts (§III-F): each thread appends to its own per-thread blocks. It
 * is read without validation: its per-thread blocks only grow until the conversion seals them, and
 * {@link EpochReclamation} keeps a segmented block and its per-thread blocks alive while a reader holds them.
 */
final class SegmentedBlock {
    /** {@link #lookup} found a live entry; its value is in {@code valueOut[0]}. */
    static final int FOUND = 1;
    /** {@link #lookup} found no entry. */
    static final int ABSENT = 0;
    /** {@link #lookup} found that the newest entry of the key is a tombstone (removed). */
    static final int REMOVED = -1;

    private SegmentedBlock() {
    }

    /** Formats an empty segmented block with room for {@code maxSlots} per-thread blocks. */
    static void format(final long block, final long fence, final boolean beyondMax, final long sequence,
                       final int maxSlots) {
        BlockHeader.initialize(block, BlockHeader.KIND_SEGMENTED, fence, beyondMax ? BlockHeader.FLAG_BEYOND_MAX : 0,
                0L);
        UnsafeApi.putInt(block + BlockHeader.SPECIFIC_INT_OFFSET, maxSlots);
        UnsafeApi.putLong(block + SegmentedBlockDescriptor.SEQUENCE_OFFSET, sequence);
        UnsafeApi.setMemory(slotAddress(block, 0), (long) maxSlots << 3, (byte) 0);
        UnsafeApi.storeFence();
    }

    static int maxSlots(final long block) {
        return UnsafeApi.getInt(block + BlockHeader.SPECIFIC_INT_OFFSET);
    }

    static long sequence(final long block) {
        return UnsafeApi.getLong(block + SegmentedBlockDescriptor.SEQUENCE_OFFSET);
    }

    /** Takes the next slot index; indexes from {@link #maxSlots} on mean the block is full (§IV-A). */
    static int claimSlot(final long block) {
        return UnsafeApi.getAndAddInt(null, block + BlockHeader.COUNT_OFFSET, 1);
    }

    /** Slot indexes taken so far, including those past the maximum. */
    static int slotsClaimed(final long block) {
        return UnsafeApi.getIntVolatile(null, block + BlockHeader.COUNT_OFFSET);
    }

    /** Slots that may hold a per-thread block. */
    static int slotsHandedOut(final long block) {
        return Math.min(UnsafeApi.getIntVolatile(null, block + BlockHeader.COUNT_OFFSET), maxSlots(block));
    }

    /** Installs a formatted per-thread block in slot {@code slot}; false when the conversion closed the slot. */
    static boolean install(final long block, final int slot, final long perThreadBlock) {
        return UnsafeApi.compareAndSetLong(null, slotAddress(block, slot), 0L, perThreadBlock);
    }

    /** The per-thread block in {@code slot}, or 0 (none yet, or closed). */
    static long perThreadBlock(final long block, final int slot) {
        final long address = UnsafeApi.getLongVolatile(null, slotAddress(block, slot));
        return address == SEALED_SLOT ? 0L : address;
    }

    /**
     * Closes every slot that has no block yet (§IV-B: the conversion prevents further inserts), so that a thread
     * that took a slot but has not installed its block yet fails to install it.
     */
    static void closeEmptySlots(final long block) {
        final int max = maxSlots(block);
        for (int slot = 0; slot < max; slot++) {
            UnsafeApi.compareAndSetLong(null, slotAddress(block, slot), 0L, SEALED_SLOT);
        }
    }

    /**
     * Point read over the per-thread blocks: the newest entry of {@code key} by write stamp (ties: the later
     * slot, then the later position, both later writes of one thread).
     *
     * @return {@link #FOUND}, {@link #ABSENT} or {@link #REMOVED}
     */
    static int lookup(final PerThreadBlockDescriptor d, final long block, final long key, final long[] valueOut) {
        final int slots = slotsHandedOut(block);
        boolean found = false;
        int bestStamp = 0;
        long bestValue = 0;
        for (int slot = 0; slot < slots; slot++) {
            final long ptb = perThreadBlock(block, slot);
            if (ptb == 0) {
                continue;
            }
            final int count = PerThreadBlock.published(d, ptb);
            final int pos = PerThreadBlock.findNewest(ptb, count, key);
            if (pos < 0) {
                continue;
            }
            final int stamp = PerThreadBlock.stamp(d, ptb, pos);
            if (!found || WriteStamps.isNewer(stamp, bestStamp) || WriteStamps.isSame(stamp, bestStamp)) {
                found = true;
                bestStamp = stamp;
                bestValue = PerThreadBlock.value(ptb, pos);
            }
        }
        if (!found) {
            return ABSENT;
        }
        if (PerThreadBlock.isTombstone(bestStamp)) {
            return REMOVED;
        }
        valueOut[0] = bestValue;
        return FOUND;
    }
}
