package io.nearsort.core.betree;

import io.nearsort.core.btree.BPlusTreeBuilder;

/**
 * The layout of a Bε-tree internal node in one arena page: pivots, child addresses and a message buffer. A page
 * that holds B entries as a leaf gives B<sup>ε</sup> of them to pivots and the rest to the buffer (Bender et
 * al., <em>An Introduction to Bε-trees and Write-Optimization</em>, SWARE's reference [8]; SWARE §V "Index
 * Design" uses ε = 1/2: about √B pivots). The sizes depend on the page size and ε, so one descriptor instance
 * describes the internal nodes of one tree. Leaves are B+-tree leaves ({@link io.nearsort.core.btree.Node}).
 *
 * <pre>
 *   0                   4                     8                      12                 16
 *   +-------------------+---------------------+----------------------+------------------+
 *   | kind (int) = 3    | pivot count (int)   | message count (int)  | unused (int)     |
 *   +-------------------+---------------------+----------------------+------------------+
 *   16: pivots[maxPivots]                  (long each, strictly ascending)
 *       message splits[maxPivots]          (int each, the region padded to 8 bytes)
 *       children[maxPivots + 1]            (long page addresses)
 *       message keys[bufferCapacity]       (long each, strictly ascending: one message per key)
 *       message values[bufferCapacity]     (long each; meaningless for a delete)
 *       message kinds[bufferCapacity]      (byte each: {@link #UPSERT} or {@link #DELETE})
 * </pre>
 *
 * <p>Child {@code i} holds the keys {@code k} with {@code pivots[i - 1] <= k < pivots[i]}, as in the B+-tree.
 * {@code splits[i]} is the index of the first message with a key {@code >= pivots[i]}, so the messages bound for
 * child {@code i} are {@code [splits[i - 1], splits[i])} (from 0, up to the message count): a read searches only
 * its child's messages, and a flush finds each child's share without searching. A
 * message's kind has its own byte, so every {@code long} stays a valid key and value: no key or value is reserved
 * to mean "deleted". A node keeps at most one message per key: a newer message for a key replaces the older one
 * in the same buffer, since upserts and deletes both decide the key's state alone.
 */
final class BeNodeDescriptor {
    static final int KIND_OFFSET = 0;
    static final int PIVOT_COUNT_OFFSET = 4;
    static final int MESSAGE_COUNT_OFFSET = 8;
    static final int HEADER_LENGTH = 16;
    /** The kind of an internal node; B+-tree nodes use 1 (leaf) and 2 (internal). */
    static final int KIND_INTERNAL = 3;

    /** A message that inserts its key or overwrites its value. */
    static final byte UPSERT = 1;
    /** A message that deletes its key. */
    static final byte DELETE = 2;

    /** Bytes one buffered message takes: key, value and kind. */
    static final int MESSAGE_BYTES = 2 * Long.BYTES + 1;

    final int pageSize;
    /** Pivots an internal node holds; it has one more child. */
    final int maxPivots;
    /** Messages an internal node's buffer holds. */
    final int bufferCapacity;
    private final int splitsBase;
    private final int childrenBase;
    private final int messageKeysBase;
    private final int messageValuesBase;
    private final int messageKindsBase;

    private BeNodeDescriptor(final int pageSize, final int maxPivots) {
        this.pageSize = pageSize;
        this.maxPivots = maxPivots;
        this.splitsBase = HEADER_LENGTH + maxPivots * Long.BYTES;
        this.childrenBase = splitsBase + (maxPivots * Integer.BYTES + Long.BYTES - 1) / Long.BYTES * Long.BYTES;
        this.messageKeysBase = childrenBase + (maxPivots + 1) * Long.BYTES;
        this.bufferCapacity = (pageSize - messageKeysBase) / MESSAGE_BYTES;
        this.messageValuesBase = messageKeysBase + bufferCapacity * Long.BYTES;
        this.messageKindsBase = messageValuesBase + bufferCapacity * Long.BYTES;
    }

    /**
     * The layout of internal nodes in {@code pageSize}-byte pages with the given ε: {@code max(2, floor(B^ε))}
     * pivots, B being the entries a leaf of that page holds, and the rest of the page for messages.
     */
    static BeNodeDescriptor of(final int pageSize, final double epsilon) {
        final int entries = BPlusTreeBuilder.leafCapacity(pageSize);
        return new BeNodeDescriptor(pageSize, Math.max(2, (int) Math.floor(Math.pow(entries, epsilon))));
    }

    int pivotOffset(final int index) {
        return HEADER_LENGTH + index * Long.BYTES;
    }

    int splitOffset(final int index) {
        return splitsBase + index * Integer.BYTES;
    }

    int childOffset(final int index) {
        return childrenBase + index * Long.BYTES;
    }

    int messageKeyOffset(final int index) {
        return messageKeysBase + index * Long.BYTES;
    }

    int messageValueOffset(final int index) {
        return messageValuesBase + index * Long.BYTES;
    }

    int messageKindOffset(final int index) {
        return messageKindsBase + index;
    }
}
