package io.nearsort.core.sbtree;

/**
 * A cursor's merged copy of the segmented block it stands in (SB-Tree §III-C: a segmented block is not sorted, so
 * reading it means merging its per-thread data blocks, {@link SegmentedBlockMerge}). A seek that lands in a
 * segmented block keeps the merge here, and the cursor's next moves step through it instead of merging the block
 * again, as long as {@link SBTree#stepInSnapshot} finds the block unchanged: no conversion appended since (the
 * data layer's conversion sequence is the same, so the block is still linked, and no key of its range went
 * elsewhere) and every per-thread block holds the entries it held ({@link SegmentedBlockMerge#unchangedSince}).
 * Then the step gives exactly what a fresh seek would, at the cost of reading the block's slots, not of a merge.
 *
 * <p>Confined to its cursor's thread.
 */
final class CursorSnapshot {
    private final PerThreadBlockDescriptor d;
    /** Created by the first seek that lands in a segmented block. */
    private SegmentedBlockMerge merge;
    /** The segmented block merged, or 0 when the snapshot is not usable. */
    long block;
    /** The data layer's conversion sequence before the seek that merged it (even). */
    long sequence;
    /** Entries merged, and the cursor's position among them. */
    int size;
    int position;

    CursorSnapshot(final PerThreadBlockDescriptor d) {
        this.d = d;
    }

    SegmentedBlockMerge merge() {
        if (merge == null) {
            merge = new SegmentedBlockMerge(d);
        }
        return merge;
    }

    /** Keeps the merge just made of {@code segmented}, with the cursor at {@code at}. */
    void record(final long segmented, final long sequenceBefore, final int entries, final int at) {
        if ((sequenceBefore & 1) != 0) {
            block = 0; // a conversion was appending: the block may be leaving the list
            return;
        }
        block = segmented;
        sequence = sequenceBefore;
        size = entries;
        position = at;
    }

    void invalidate() {
        block = 0;
    }

    /** The position a step of {@code direction} (+1 or -1) would reach, or -1 when it leaves the snapshot. */
    int target(final int direction) {
        final int at = position + direction;
        return block != 0 && at >= 0 && at < size ? at : -1;
    }
}
