package io.nearsort.core.betree;

import io.nearsort.core.btree.Node;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

import static io.nearsort.core.betree.BeNodeDescriptor.KIND_INTERNAL;
import static io.nearsort.core.betree.BeNodeDescriptor.KIND_OFFSET;
import static io.nearsort.core.betree.BeNodeDescriptor.MESSAGE_COUNT_OFFSET;
import static io.nearsort.core.betree.BeNodeDescriptor.PIVOT_COUNT_OFFSET;

/**
 * Access to Bε-tree internal nodes (layout in {@link BeNodeDescriptor}): a reusable flyweight for the writer and
 * stateless reads for the read paths, which many threads may run at once while no thread writes. It never owns
 * a page.
 */
final class BeNode {
    private static final long LONG_ARRAY_BASE = UnsafeApi.arrayBaseOffset(long[].class);
    private static final long BYTE_ARRAY_BASE = UnsafeApi.arrayBaseOffset(byte[].class);

    private final BeNodeDescriptor layout;
    private final UnsafeBuffer buffer = new UnsafeBuffer();
    private long address;
    /** replacedBefore[j]: how many of a merge's first j newer messages replaced one of the node's. */
    private int[] replacedBefore;

    BeNode(final BeNodeDescriptor layout) {
        this.layout = layout;
        this.replacedBefore = new int[layout.bufferCapacity + 1];
    }

    BeNode wrap(final long page) {
        buffer.wrap(page, layout.pageSize);
        address = page;
        return this;
    }

    /** Formats {@code page} as an internal node with no pivot, an empty buffer and {@code firstChild}. */
    BeNode init(final long page, final long firstChild) {
        wrap(page);
        buffer.putInt(KIND_OFFSET, KIND_INTERNAL);
        buffer.putInt(PIVOT_COUNT_OFFSET, 0);
        buffer.putInt(MESSAGE_COUNT_OFFSET, 0);
        setChild(0, firstChild);
        return this;
    }

    int pivotCount() {
        return buffer.getInt(PIVOT_COUNT_OFFSET);
    }

    void setPivotCount(final int count) {
        buffer.putInt(PIVOT_COUNT_OFFSET, count);
    }

    void setPivot(final int index, final long pivot) {
        buffer.putLong(layout.pivotOffset(index), pivot);
    }

    /** Sets the index of the first message at or above pivot {@code index}. */
    void setSplit(final int index, final int messageIndex) {
        buffer.putInt(layout.splitOffset(index), messageIndex);
    }

    long child(final int index) {
        return buffer.getLong(layout.childOffset(index));
    }

    void setChild(final int index, final long page) {
        buffer.putLong(layout.childOffset(index), page);
    }

    int messageCount() {
        return buffer.getInt(MESSAGE_COUNT_OFFSET);
    }

    long messageKey(final int index) {
        return buffer.getLong(layout.messageKeyOffset(index));
    }

    /** Overwrites message {@code index} with a newer one for the same key. */
    void setMessage(final int index, final long value, final byte kind) {
        buffer.putLong(layout.messageValueOffset(index), value);
        buffer.putByte(layout.messageKindOffset(index), kind);
    }

    /**
     * Inserts a message at {@code index} of a buffer of {@code count < bufferCapacity} messages; its key is bound
     * for child {@code child}, so the splits of the pivots from {@code child} on move up by one.
     */
    void insertMessage(final int index, final int count, final int child, final long key, final long value,
                       final byte kind) {
        final int moved = count - index;
        move(layout.messageKeyOffset(index), layout.messageKeyOffset(index + 1), moved * Long.BYTES);
        move(layout.messageValueOffset(index), layout.messageValueOffset(index + 1), moved * Long.BYTES);
        move(layout.messageKindOffset(index), layout.messageKindOffset(index + 1), moved);
        putMessage(index, key, value, kind);
        buffer.putInt(MESSAGE_COUNT_OFFSET, count + 1);
        final int pivots = pivotCount();
        for (int i = child; i < pivots; i++) {
            setSplit(i, buffer.getInt(layout.splitOffset(i)) + 1);
        }
    }

    /**
     * Merges {@code newer} (sorted) into this node's buffer in place, from the back, when the sum fits the
     * buffer; a newer message replaces the node's message for the same key. Returns how many were replaced.
     */
    int mergeNewer(final Messages newer) {
        final int count = messageCount();
        if (replacedBefore.length <= newer.count) {
            replacedBefore = new int[newer.count + 1];
        }
        int i = count - 1;
        int j = newer.count - 1;
        int k = count + newer.count - 1;
        int replaced = 0;
        while (j >= 0) {
            final long key = newer.keys[j];
            final long own = i >= 0 ? messageKey(i) : 0L;
            if (i >= 0 && own > key) {
                putMessage(k--, own, buffer.getLong(layout.messageValueOffset(i)),
                        buffer.getByte(layout.messageKindOffset(i)));
                i--;
                continue;
            }
            if (i >= 0 && own == key) {
                i--;
                replaced++;
            }
            putMessage(k--, key, newer.values[j], newer.kinds[j]);
            replacedBefore[j] = replaced; // for now: replacements among newer[j, count)
            j--;
        }
        for (int m = 0; m < newer.count; m++) {
            replacedBefore[m] = replaced - replacedBefore[m]; // now: among newer[0, m), as the name says
        }
        replacedBefore[newer.count] = replaced;
        if (replaced > 0) {
            // The merged messages start at k + 1, `replaced` slots above the node's untouched prefix [0, i].
            final int n = count + newer.count - 1 - k;
            move(layout.messageKeyOffset(k + 1), layout.messageKeyOffset(i + 1), n * Long.BYTES);
            move(layout.messageValueOffset(k + 1), layout.messageValueOffset(i + 1), n * Long.BYTES);
            move(layout.messageKindOffset(k + 1), layout.messageKindOffset(i + 1), n);
        }
        buffer.putInt(MESSAGE_COUNT_OFFSET, count + newer.count - replaced);
        // Each split moves up by the newer messages below its pivot that did not replace one of the node's.
        final int pivots = pivotCount();
        for (int p = 0; p < pivots; p++) {
            final int below = newer.lowerBound(buffer.getLong(layout.pivotOffset(p)), 0);
            setSplit(p, buffer.getInt(layout.splitOffset(p)) + below - replacedBefore[below]);
        }
        return replaced;
    }

    private void putMessage(final int index, final long key, final long value, final byte kind) {
        buffer.putLong(layout.messageKeyOffset(index), key);
        buffer.putLong(layout.messageValueOffset(index), value);
        buffer.putByte(layout.messageKindOffset(index), kind);
    }


    /** Copies the pivots and children into the arrays (sized for them) and the buffer into {@code messages}. */
    void read(final long[] pivots, final long[] children, final Messages messages) {
        final int pivotCount = pivotCount();
        copyOut(layout.pivotOffset(0), pivots, LONG_ARRAY_BASE, pivotCount * Long.BYTES, pivots.length * Long.BYTES);
        copyOut(layout.childOffset(0), children, LONG_ARRAY_BASE, (pivotCount + 1) * Long.BYTES,
                children.length * Long.BYTES);
        final int n = messageCount();
        messages.ensureCapacity(n);
        copyOut(layout.messageKeyOffset(0), messages.keys, LONG_ARRAY_BASE, n * Long.BYTES,
                messages.keys.length * Long.BYTES);
        copyOut(layout.messageValueOffset(0), messages.values, LONG_ARRAY_BASE, n * Long.BYTES,
                messages.values.length * Long.BYTES);
        copyOut(layout.messageKindOffset(0), messages.kinds, BYTE_ARRAY_BASE, n, messages.kinds.length);
        messages.count = n;
    }

    /**
     * Formats the viewed page as the internal node with pivots {@code [firstPivot, firstPivot + pivotCount)},
     * their {@code pivotCount + 1} children from {@code firstPivot}, and messages {@code [from, to)}.
     */
    void write(final long[] pivots, final long[] children, final int firstPivot, final int pivotCount,
               final Messages messages, final int from, final int to) {
        if (pivotCount > layout.maxPivots || to - from > layout.bufferCapacity) {
            throw new IndexOutOfBoundsException(pivotCount + " pivots and " + (to - from) + " messages exceed the "
                    + "node's " + layout.maxPivots + " pivots and " + layout.bufferCapacity + " messages");
        }
        java.util.Objects.checkFromIndexSize(firstPivot, pivotCount, pivots.length);
        java.util.Objects.checkFromIndexSize(firstPivot, pivotCount + 1, children.length);
        java.util.Objects.checkFromToIndex(from, to, messages.count);
        buffer.putInt(KIND_OFFSET, KIND_INTERNAL);
        buffer.putInt(PIVOT_COUNT_OFFSET, pivotCount);
        buffer.putInt(MESSAGE_COUNT_OFFSET, to - from);
        copyIn(pivots, LONG_ARRAY_BASE + (long) firstPivot * Long.BYTES, layout.pivotOffset(0),
                pivotCount * Long.BYTES);
        copyIn(children, LONG_ARRAY_BASE + (long) firstPivot * Long.BYTES, layout.childOffset(0),
                (pivotCount + 1) * Long.BYTES);
        copyIn(messages.keys, LONG_ARRAY_BASE + (long) from * Long.BYTES, layout.messageKeyOffset(0),
                (to - from) * Long.BYTES);
        copyIn(messages.values, LONG_ARRAY_BASE + (long) from * Long.BYTES, layout.messageValueOffset(0),
                (to - from) * Long.BYTES);
        copyIn(messages.kinds, BYTE_ARRAY_BASE + from, layout.messageKindOffset(0), to - from);
        int m = from;
        for (int i = 0; i < pivotCount; i++) {
            final long pivot = pivots[firstPivot + i];
            while (m < to && messages.keys[m] < pivot) {
                m++;
            }
            setSplit(i, m - from);
        }
    }

    private void copyOut(final int offset, final Object array, final long arrayBase, final int bytes,
                         final int arrayBytes) {
        if (bytes > arrayBytes) {
            throw new IndexOutOfBoundsException(bytes + " bytes do not fit an array of " + arrayBytes);
        }
        if (UnsafeBuffer.SHOULD_BOUNDS_CHECK) {
            buffer.boundsCheck(offset, bytes);
        }
        UnsafeApi.copyMemory(null, address + offset, array, arrayBase, bytes);
    }

    private void copyIn(final Object array, final long arrayOffset, final int offset, final int bytes) {
        if (UnsafeBuffer.SHOULD_BOUNDS_CHECK) {
            buffer.boundsCheck(offset, bytes);
        }
        UnsafeApi.copyMemory(array, arrayOffset, null, address + offset, bytes);
    }

    private void move(final int fromOffset, final int toOffset, final int bytes) {
        if (bytes <= 0) {
            return;
        }
        if (UnsafeBuffer.SHOULD_BOUNDS_CHECK) {
            buffer.boundsCheck(fromOffset, bytes);
            buffer.boundsCheck(toOffset, bytes);
        }
        // Unsafe.copyMemory has memmove semantics, so overlapping shifts are safe.
        UnsafeApi.copyMemory(address + fromOffset, address + toOffset, bytes);
    }

    // ------------------------------------------------------------------ stateless reads

    /** Whether {@code page} is an internal node (not a leaf). */
    static boolean isInternal(final long page) {
        return UnsafeApi.getInt(page + KIND_OFFSET) == KIND_INTERNAL;
    }

    static int pivotCountAt(final long page) {
        return UnsafeApi.getInt(page + PIVOT_COUNT_OFFSET);
    }

    static int messageCountAt(final long page) {
        return UnsafeApi.getInt(page + MESSAGE_COUNT_OFFSET);
    }

    static long pivotAt(final BeNodeDescriptor layout, final long page, final int index) {
        return UnsafeApi.getLong(page + layout.pivotOffset(index));
    }

    static long childAt(final BeNodeDescriptor layout, final long page, final int index) {
        return UnsafeApi.getLong(page + layout.childOffset(index));
    }

    static long messageKeyAt(final BeNodeDescriptor layout, final long page, final int index) {
        return UnsafeApi.getLong(page + layout.messageKeyOffset(index));
    }

    static long messageValueAt(final BeNodeDescriptor layout, final long page, final int index) {
        return UnsafeApi.getLong(page + layout.messageValueOffset(index));
    }

    static byte messageKindAt(final BeNodeDescriptor layout, final long page, final int index) {
        return UnsafeApi.getByte(page + layout.messageKindOffset(index));
    }

    /** The child that holds {@code key}: the index of the first pivot {@code > key}, in [0, pivotCount]. */
    static int childIndexAt(final BeNodeDescriptor layout, final long page, final long key) {
        return Node.upperBoundOf(page + layout.pivotOffset(0), 0, pivotCountAt(page), key);
    }

    /**
     * {@link #childIndexAt(BeNodeDescriptor, long, long)} with the pivots searched below {@code fence}, a key at or
     * above every pivot of the node ({@link Node#lowerBoundOf(long, int, int, long, long)}).
     */
    static int childIndexAt(final BeNodeDescriptor layout, final long page, final long key, final long fence) {
        return Node.upperBoundOf(page + layout.pivotOffset(0), 0, pivotCountAt(page), key, fence);
    }

    static int splitAt(final BeNodeDescriptor layout, final long page, final int index) {
        return UnsafeApi.getInt(page + layout.splitOffset(index));
    }

    /** Index of the first message with a key {@code >= key}, in [0, messageCount]. */
    static int messageLowerBoundAt(final BeNodeDescriptor layout, final long page, final long key) {
        return messageLowerBoundAt(layout, page, key, childIndexAt(layout, page, key));
    }

    /**
     * {@link #messageLowerBoundAt(BeNodeDescriptor, long, long)} when {@code key} is bound for {@code child}: only
     * that child's messages are searched.
     */
    static int messageLowerBoundAt(final BeNodeDescriptor layout, final long page, final long key, final int child) {
        final int from = child == 0 ? 0 : splitAt(layout, page, child - 1);
        final int to = child < pivotCountAt(page) ? splitAt(layout, page, child) : messageCountAt(page);
        return Node.lowerBoundOf(page + layout.messageKeyOffset(0), from, to, key);
    }

    /** Index of the message for {@code key}, which is bound for {@code child}, or -1. */
    static int findMessageAt(final BeNodeDescriptor layout, final long page, final long key, final int child) {
        final int count = messageCountAt(page);
        if (count == 0) {
            return -1;
        }
        final int pos = messageLowerBoundAt(layout, page, key, child);
        return pos < count && messageKeyAt(layout, page, pos) == key ? pos : -1;
    }
}
