package io.nearsort.labtree.tree;

/**
 * Layout of data page 1, the array's metadata: what the array is (shape, linearization, leaf format and
 * capacities, default value) and where the tree is (root, height, counters, free list).
 *
 * <pre>
 * [0] long magic "LABMETA1"  [8] int dimensions  [12] int format  [16] int kappaSparse  [20] int kappaDense
 * [24] double defaultValue   [32] long root  [40] int height  [44] int splitStrategy
 * [48] long size  [56] long leafCount  [64] long denseLeafCount  [72] long splits  [80] long freeListHead
 * [88] int linearizationNameLength  [96] long × dimensions: shape  then the linearization name (UTF-8)
 * </pre>
 */
final class MetaPageDescriptor {
    static final long MAGIC = 0x4C41424D45544131L;
    static final long META_PAGE = 1;

    static final int MAGIC_OFFSET = 0;
    static final int DIMENSIONS_OFFSET = 8;
    static final int FORMAT_OFFSET = 12;
    static final int KAPPA_SPARSE_OFFSET = 16;
    static final int KAPPA_DENSE_OFFSET = 20;
    static final int DEFAULT_VALUE_OFFSET = 24;
    static final int ROOT_OFFSET = 32;
    static final int HEIGHT_OFFSET = 40;
    static final int SPLIT_STRATEGY_OFFSET = 44;
    static final int SIZE_OFFSET = 48;
    static final int LEAF_COUNT_OFFSET = 56;
    static final int DENSE_LEAF_COUNT_OFFSET = 64;
    static final int SPLITS_OFFSET = 72;
    static final int FREE_LIST_OFFSET = 80;
    static final int NAME_LENGTH_OFFSET = 88;
    static final int SHAPE_OFFSET = 96;
    /** Most dimensions a meta page describes (with room for a long linearization name). */
    static final int MAX_DIMENSIONS = 32;
    static final int MAX_NAME_BYTES = 1024;

    private MetaPageDescriptor() {
    }

    static int nameOffset(final int dimensions) {
        return SHAPE_OFFSET + Long.BYTES * dimensions;
    }
}
