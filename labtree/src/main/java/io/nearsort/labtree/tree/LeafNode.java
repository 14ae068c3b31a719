package io.nearsort.labtree.tree;

import io.nearsort.labtree.LeafFormat;
import io.nearsort.labtree.leaf.LeafCapacity;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A leaf decoded from its page: the non-default elements as sorted keys and values, and the format the page had.
 * Writing picks the format by §4.2's switching rules, with hysteresis: a dense leaf stays dense while its keys span
 * at most κd, a sparse leaf stays sparse while it holds at most κs; only an overflow switches.
 */
final class LeafNode {
    long[] keys;
    double[] values;
    int count;
    boolean dense;

    static LeafNode read(final ByteBuffer page, final double defaultValue) {
        final LeafNode leaf = new LeafNode();
        final int type = page.getInt(NodePageDescriptor.TYPE_OFFSET);
        leaf.count = page.getInt(NodePageDescriptor.COUNT_OFFSET);
        leaf.keys = new long[leaf.count + 1];
        leaf.values = new double[leaf.count + 1];
        if (type == NodePageDescriptor.TYPE_DENSE_LEAF) {
            leaf.dense = true;
            final long start = page.getLong(NodePageDescriptor.DENSE_START_OFFSET);
            final int length = page.getInt(NodePageDescriptor.DENSE_LENGTH_OFFSET);
            int n = 0;
            for (int i = 0; i < length; i++) {
                final double v = page.getDouble(NodePageDescriptor.LEAF_ENTRIES_OFFSET + i * NodePageDescriptor.DENSE_ENTRY_LENGTH);
                if (Double.compare(v, defaultValue) != 0) {
                    leaf.keys[n] = start + i;
                    leaf.values[n++] = v;
                }
            }
            leaf.count = n;
        } else {
            for (int i = 0; i < leaf.count; i++) {
                final int at = NodePageDescriptor.LEAF_ENTRIES_OFFSET + i * NodePageDescriptor.SPARSE_ENTRY_LENGTH;
                leaf.keys[i] = page.getLong(at);
                leaf.values[i] = page.getDouble(at + Long.BYTES);
            }
        }
        return leaf;
    }

    /** The value at {@code key} read straight from a leaf page, without decoding it. */
    static double lookup(final ByteBuffer page, final long key, final double defaultValue) {
        if (page.getInt(NodePageDescriptor.TYPE_OFFSET) == NodePageDescriptor.TYPE_DENSE_LEAF) {
            final long offset = key - page.getLong(NodePageDescriptor.DENSE_START_OFFSET);
            return offset >= 0 && offset < page.getInt(NodePageDescriptor.DENSE_LENGTH_OFFSET)
                    ? page.getDouble(denseAt(offset)) : defaultValue;
        }
        final int found = sparseFind(page, key);
        return found >= 0 ? page.getDouble(sparseAt(found) + Long.BYTES) : defaultValue;
    }

    /** The index of {@code key} in a sparse leaf page, or -(insertion point) - 1. */
    private static int sparseFind(final ByteBuffer page, final long key) {
        int lo = 0;
        int hi = page.getInt(NodePageDescriptor.COUNT_OFFSET) - 1;
        while (lo <= hi) {
            final int mid = (lo + hi) >>> 1;
            final long k = page.getLong(sparseAt(mid));
            if (k < key) {
                lo = mid + 1;
            } else if (k > key) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -lo - 1;
    }

    private static int sparseAt(final int i) {
        return NodePageDescriptor.LEAF_ENTRIES_OFFSET + i * NodePageDescriptor.SPARSE_ENTRY_LENGTH;
    }

    private static int denseAt(final long offset) {
        return NodePageDescriptor.LEAF_ENTRIES_OFFSET + (int) offset * NodePageDescriptor.DENSE_ENTRY_LENGTH;
    }

    /** Visits the non-default entries of a leaf page with keys in [from, to), in key order, without decoding it. */
    static void scan(final ByteBuffer page, final long from, final long to, final double defaultValue,
                     final LabTree.EntryVisitor visitor) {
        if (page.getInt(NodePageDescriptor.TYPE_OFFSET) == NodePageDescriptor.TYPE_DENSE_LEAF) {
            final long start = page.getLong(NodePageDescriptor.DENSE_START_OFFSET);
            final long end = Math.min(to, start + page.getInt(NodePageDescriptor.DENSE_LENGTH_OFFSET));
            for (long k = Math.max(from, start); k < end; k++) {
                final double v = page.getDouble(denseAt(k - start));
                if (Double.compare(v, defaultValue) != 0) {
                    visitor.visit(k, v);
                }
            }
            return;
        }
        final int count = page.getInt(NodePageDescriptor.COUNT_OFFSET);
        final int found = sparseFind(page, from);
        for (int i = found >= 0 ? found : -found - 1; i < count; i++) {
            final long k = page.getLong(sparseAt(i));
            if (k >= to) {
                return;
            }
            visitor.visit(k, page.getDouble(sparseAt(i) + Long.BYTES));
        }
    }

    /** What {@link #updateInPlace} returns when the change needs the leaf decoded (insertions, removals). */
    static final int NOT_IN_PLACE = Integer.MIN_VALUE;

    /**
     * Applies a write that does not change the leaf's shape directly to its page: an overwrite in a sparse leaf, any
     * write inside a dense leaf's subrange that leaves it non-empty, or an insertion that extends the subrange within
     * κd. Returns the change in stored elements, or {@link #NOT_IN_PLACE}.
     */
    static int updateInPlace(final ByteBuffer page, final long key, final double value, final double defaultValue,
                             final int kappaDense) {
        final boolean toDefault = Double.compare(value, defaultValue) == 0;
        if (page.getInt(NodePageDescriptor.TYPE_OFFSET) == NodePageDescriptor.TYPE_DENSE_LEAF) {
            final long offset = key - page.getLong(NodePageDescriptor.DENSE_START_OFFSET);
            final int length = page.getInt(NodePageDescriptor.DENSE_LENGTH_OFFSET);
            if (offset >= length && offset < kappaDense && !toDefault) {
                // Appending past the subrange within κd (sequential fill): extend it with defaults up to the key.
                for (long gap = length; gap < offset; gap++) {
                    page.putDouble(denseAt(gap), defaultValue);
                }
                page.putDouble(denseAt(offset), value);
                page.putInt(NodePageDescriptor.DENSE_LENGTH_OFFSET, (int) offset + 1);
                page.putInt(NodePageDescriptor.COUNT_OFFSET, page.getInt(NodePageDescriptor.COUNT_OFFSET) + 1);
                return 1;
            }
            if (offset < 0 || offset >= length) {
                return NOT_IN_PLACE;
            }
            final boolean wasDefault = Double.compare(page.getDouble(denseAt(offset)), defaultValue) == 0;
            final int count = page.getInt(NodePageDescriptor.COUNT_OFFSET);
            final int delta = (wasDefault ? 0 : -1) + (toDefault ? 0 : 1);
            if (count + delta == 0) {
                return NOT_IN_PLACE; // the leaf empties: it is removed (Remark B.3)
            }
            page.putDouble(denseAt(offset), value);
            page.putInt(NodePageDescriptor.COUNT_OFFSET, count + delta);
            return delta;
        }
        if (toDefault) {
            return NOT_IN_PLACE;
        }
        final int found = sparseFind(page, key);
        if (found < 0) {
            return NOT_IN_PLACE;
        }
        page.putDouble(sparseAt(found) + Long.BYTES, value);
        return 0;
    }

    /** Index of {@code key}, or -(insertion point) - 1. */
    int find(final long key) {
        return Arrays.binarySearch(keys, 0, count, key);
    }

    /** Sets {@code key} to a non-default value; returns whether it was new. */
    boolean put(final long key, final double value) {
        final int at = find(key);
        if (at >= 0) {
            values[at] = value;
            return false;
        }
        final int insert = -at - 1;
        if (count == keys.length) {
            keys = Arrays.copyOf(keys, count * 2 + 1);
            values = Arrays.copyOf(values, count * 2 + 1);
        }
        System.arraycopy(keys, insert, keys, insert + 1, count - insert);
        System.arraycopy(values, insert, values, insert + 1, count - insert);
        keys[insert] = key;
        values[insert] = value;
        count++;
        return true;
    }

    /** Removes {@code key}; returns whether it was present. */
    boolean remove(final long key) {
        final int at = find(key);
        if (at < 0) {
            return false;
        }
        System.arraycopy(keys, at + 1, keys, at, count - at - 1);
        System.arraycopy(values, at + 1, values, at, count - at - 1);
        count--;
        return true;
    }

    /**
     * The format keys[from, to) would be written in, or null if they overflow both: dense stays dense while the span
     * fits κd, sparse stays sparse while the count fits κs (§4.2).
     */
    static Boolean denseFormat(final long[] keys, final int from, final int to, final boolean wasDense,
                               final LeafCapacity capacity) {
        final int n = to - from;
        final boolean sparseFits = n <= capacity.sparse();
        final boolean denseFits = capacity.format() == LeafFormat.DYNAMIC && n > 0
                && LeafCapacity.span(keys[from], keys[to - 1]) <= capacity.dense();
        if (wasDense && denseFits) {
            return Boolean.TRUE;
        }
        if (sparseFits) {
            return Boolean.FALSE;
        }
        return denseFits ? Boolean.TRUE : null;
    }

    /** Writes entries [from, to) to {@code page} in the given format. */
    void write(final ByteBuffer page, final int from, final int to, final boolean denseFormat,
               final double defaultValue) {
        final int n = to - from;
        page.putInt(NodePageDescriptor.COUNT_OFFSET, n);
        if (denseFormat) {
            page.putInt(NodePageDescriptor.TYPE_OFFSET, NodePageDescriptor.TYPE_DENSE_LEAF);
            final long start = keys[from];
            final int length = (int) (keys[to - 1] - start + 1);
            page.putLong(NodePageDescriptor.DENSE_START_OFFSET, start);
            page.putInt(NodePageDescriptor.DENSE_LENGTH_OFFSET, length);
            for (int i = 0; i < length; i++) {
                page.putDouble(NodePageDescriptor.LEAF_ENTRIES_OFFSET + i * NodePageDescriptor.DENSE_ENTRY_LENGTH,
                        defaultValue);
            }
            for (int i = from; i < to; i++) {
                page.putDouble(NodePageDescriptor.LEAF_ENTRIES_OFFSET + (int) (keys[i] - start)
                        * NodePageDescriptor.DENSE_ENTRY_LENGTH, values[i]);
            }
        } else {
            page.putInt(NodePageDescriptor.TYPE_OFFSET, NodePageDescriptor.TYPE_SPARSE_LEAF);
            for (int i = from; i < to; i++) {
                final int at = NodePageDescriptor.LEAF_ENTRIES_OFFSET + (i - from) * NodePageDescriptor.SPARSE_ENTRY_LENGTH;
                page.putLong(at, keys[i]);
                page.putDouble(at + Long.BYTES, values[i]);
            }
        }
    }
}
