package io.nearsort.labtree.tree;

import io.nearsort.labtree.storage.PageTrailerDescriptor;

/**
 * Layout of the LAB-tree's pages inside a page payload (little-endian; the storage trailer follows the payload).
 *
 * <pre>
 * every node page:   [0] int type  [4] int count
 * sparse leaf:       [8] long unused  [16] int unused        entries at 32: (long key, double value) × count, sorted
 * dense leaf:        [8] long start   [16] int length        values at 32: double × length for keys start … start+length-1
 * internal node:     entries at 16: (long low, long child page) × count; child i covers [low_i, low_{i+1})
 * free page:         [8] long next free page (0 ends the list)
 * </pre>
 *
 * A dense leaf's count is its number of non-default values; defaults inside its subrange are stored as such.
 */
final class NodePageDescriptor {
    static final int TYPE_SPARSE_LEAF = 1;
    static final int TYPE_DENSE_LEAF = 2;
    static final int TYPE_INTERNAL = 3;
    static final int TYPE_FREE = 4;

    static final int TYPE_OFFSET = 0;
    static final int COUNT_OFFSET = 4;
    static final int DENSE_START_OFFSET = 8;
    static final int DENSE_LENGTH_OFFSET = 16;
    static final int FREE_NEXT_OFFSET = 8;
    static final int LEAF_ENTRIES_OFFSET = 32;
    static final int SPARSE_ENTRY_LENGTH = 16;
    static final int DENSE_ENTRY_LENGTH = 8;
    static final int INTERNAL_ENTRIES_OFFSET = 16;
    static final int INTERNAL_ENTRY_LENGTH = 16;

    private NodePageDescriptor() {
    }

    /** The largest κs a page of this size holds. */
    static int maxSparseCapacity(final int pageSize) {
        return (PageTrailerDescriptor.payloadSize(pageSize) - LEAF_ENTRIES_OFFSET) / SPARSE_ENTRY_LENGTH;
    }

    /** The largest κd a page of this size holds. */
    static int maxDenseCapacity(final int pageSize) {
        return (PageTrailerDescriptor.payloadSize(pageSize) - LEAF_ENTRIES_OFFSET) / DENSE_ENTRY_LENGTH;
    }

    /** Children of an internal node. */
    static int internalFanout(final int pageSize) {
        return (PageTrailerDescriptor.payloadSize(pageSize) - INTERNAL_ENTRIES_OFFSET) / INTERNAL_ENTRY_LENGTH;
    }
}
