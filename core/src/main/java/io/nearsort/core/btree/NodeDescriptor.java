package io.nearsort.core.btree;

/**
 * The layout of a B+-tree node in one arena page. Keys and values (or child addresses) are kept in separate
 * arrays so that a binary search touches only keys.
 *
 * <pre>
 *   0                   4                   8                           16                          24                 32
 *   +-------------------+-------------------+---------------------------+---------------------------+------------------+
 *   | kind (int)        | count (int)       | next leaf address (long)  | previous leaf address     | version (long)   |
 *   +-------------------+-------------------+---------------------------+---------------------------+------------------+
 *   32: keys[capacity]  (long each)
 *   leaf:      values[capacity]        (long each) at 32 + 8 * capacity
 *   internal:  children[capacity + 1]  (long page addresses) at 32 + 8 * capacity
 * </pre>
 *
 * <p>{@code count} is the number of entries in a leaf and the number of keys in an internal node (which then
 * has {@code count + 1} children). Child {@code i} holds the keys {@code k} with
 * {@code keys[i - 1] <= k < keys[i]}. Addresses are raw arena page addresses; 0 means none. {@code version}
 * serves readers that run beside the writer ({@code BPlusTreeBuilder.concurrentReads}): odd while the writer
 * changes the node, advanced by two per change (a sequence lock per node, see {@link BPlusTree}).
 */
final class NodeDescriptor {
    static final int KIND_OFFSET = 0;
    static final int COUNT_OFFSET = 4;
    static final int NEXT_OFFSET = 8;
    static final int PREV_OFFSET = 16;
    static final int VERSION_OFFSET = 24;
    static final int HEADER_LENGTH = 32;

    static final int KIND_LEAF = 1;
    static final int KIND_INTERNAL = 2;

    private NodeDescriptor() {
    }

    /** Entries a leaf of {@code pageSize} bytes holds. */
    static int leafCapacity(final int pageSize) {
        return (pageSize - HEADER_LENGTH) / (2 * Long.BYTES);
    }

    /** Keys an internal node of {@code pageSize} bytes holds (it has one more child). */
    static int internalCapacity(final int pageSize) {
        return (pageSize - HEADER_LENGTH - Long.BYTES) / (2 * Long.BYTES);
    }

    static int keyOffset(final int index) {
        return HEADER_LENGTH + index * Long.BYTES;
    }

    /** Offset of value {@code index} (leaf) or child {@code index} (internal) for a node of given capacity. */
    static int slotOffset(final int capacity, final int index) {
        return HEADER_LENGTH + (capacity + index) * Long.BYTES;
    }
}
