package io.nearsort.core.sbtree;

/**
 * The shortcut (SB-Tree §III-B): the data layer's pointer to its right-most block, the segmented block, with
 * the block's fence cached on the heap so that an in-order insert decides where it goes without reading the
 * block. Immutable; the index replaces its shortcut (a volatile field) when it installs a new segmented block
 * ahead of a conversion (§IV-B).
 */
final class Shortcut {
    /** Address of the segmented block. */
    final long block;
    /** Smallest key the segmented block takes. */
    final long fence;
    /** Whether the segmented block lies beyond {@code Long.MAX_VALUE} and takes no key. */
    final boolean beyondMax;
    /** Position of the segmented block in conversion order: conversions run in this order. */
    final long sequence;

    Shortcut(final long block, final long fence, final boolean beyondMax, final long sequence) {
        this.block = block;
        this.fence = fence;
        this.beyondMax = beyondMax;
        this.sequence = sequence;
    }

    /** Whether {@code key} belongs to the segmented block: an in-order insert (Algorithm 1, line 2). */
    boolean takes(final long key) {
        return key >= fence && !beyondMax;
    }
}
