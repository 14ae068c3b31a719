package io.nearsort.labtree.tree;

import io.nearsort.core.CorruptFileException;
import io.nearsort.labtree.LeafFormat;
import io.nearsort.labtree.SplitStrategy;
import io.nearsort.labtree.leaf.LeafCapacity;
import io.nearsort.labtree.storage.BufferPool;
import io.nearsort.labtree.storage.PageFile;

import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the meta page ({@link MetaPageDescriptor}) records about an array: its definition and the tree's state.
 */
final class ArrayMeta {
    long[] shape;
    String linearization;
    LeafCapacity capacity;
    SplitStrategy strategy;
    double defaultValue;
    final LabTree.TreeState tree = new LabTree.TreeState();

    void write(final BufferPool.Frame frame) {
        final ByteBuffer b = frame.payload();
        final byte[] name = linearization.getBytes(StandardCharsets.UTF_8);
        b.putLong(MetaPageDescriptor.MAGIC_OFFSET, MetaPageDescriptor.MAGIC);
        b.putInt(MetaPageDescriptor.DIMENSIONS_OFFSET, shape.length);
        b.putInt(MetaPageDescriptor.FORMAT_OFFSET, capacity.format().ordinal());
        b.putInt(MetaPageDescriptor.KAPPA_SPARSE_OFFSET, capacity.sparse());
        b.putInt(MetaPageDescriptor.KAPPA_DENSE_OFFSET, capacity.dense());
        b.putDouble(MetaPageDescriptor.DEFAULT_VALUE_OFFSET, defaultValue);
        b.putLong(MetaPageDescriptor.ROOT_OFFSET, tree.root);
        b.putInt(MetaPageDescriptor.HEIGHT_OFFSET, tree.height);
        b.putInt(MetaPageDescriptor.SPLIT_STRATEGY_OFFSET, strategy.ordinal());
        b.putLong(MetaPageDescriptor.SIZE_OFFSET, tree.size);
        b.putLong(MetaPageDescriptor.LEAF_COUNT_OFFSET, tree.leafCount);
        b.putLong(MetaPageDescriptor.DENSE_LEAF_COUNT_OFFSET, tree.denseLeafCount);
        b.putLong(MetaPageDescriptor.SPLITS_OFFSET, tree.splits);
        b.putLong(MetaPageDescriptor.FREE_LIST_OFFSET, tree.freeListHead);
        b.putInt(MetaPageDescriptor.NAME_LENGTH_OFFSET, name.length);
        for (int k = 0; k < shape.length; k++) {
            b.putLong(MetaPageDescriptor.SHAPE_OFFSET + k * Long.BYTES, shape[k]);
        }
        b.put(MetaPageDescriptor.nameOffset(shape.length), name);
        frame.markDirty();
    }

    private static UncheckedIOException corrupt(final BufferPool.Frame frame, final BufferPool pool,
                                                final String problem) {
        final int pageSize = pool.file().pageSize();
        return PageFile.unchecked(CorruptFileException.inPage(pool.file().path(), frame.page(),
                frame.page() * pageSize, problem));
    }

    static ArrayMeta read(final BufferPool.Frame frame, final BufferPool pool) {
        final ByteBuffer b = frame.payload();
        if (b.getLong(MetaPageDescriptor.MAGIC_OFFSET) != MetaPageDescriptor.MAGIC) {
            throw corrupt(frame, pool, "not a LAB-tree array meta page");
        }
        final ArrayMeta meta = new ArrayMeta();
        final int dimensions = b.getInt(MetaPageDescriptor.DIMENSIONS_OFFSET);
        final int nameLength = b.getInt(MetaPageDescriptor.NAME_LENGTH_OFFSET);
        final int format = b.getInt(MetaPageDescriptor.FORMAT_OFFSET);
        final int strategy = b.getInt(MetaPageDescriptor.SPLIT_STRATEGY_OFFSET);
        if (dimensions < 1 || dimensions > MetaPageDescriptor.MAX_DIMENSIONS || nameLength < 0
                || nameLength > MetaPageDescriptor.MAX_NAME_BYTES || format < 0 || format >= LeafFormat.values().length
                || strategy < 0 || strategy >= SplitStrategy.values().length) {
            throw corrupt(frame, pool, "meta page fields out of range");
        }
        meta.shape = new long[dimensions];
        for (int k = 0; k < dimensions; k++) {
            meta.shape[k] = b.getLong(MetaPageDescriptor.SHAPE_OFFSET + k * Long.BYTES);
        }
        final byte[] name = new byte[nameLength];
        b.get(MetaPageDescriptor.nameOffset(dimensions), name);
        meta.linearization = new String(name, StandardCharsets.UTF_8);
        meta.capacity = new LeafCapacity(b.getInt(MetaPageDescriptor.KAPPA_SPARSE_OFFSET),
                b.getInt(MetaPageDescriptor.KAPPA_DENSE_OFFSET), LeafFormat.values()[format]);
        meta.strategy = SplitStrategy.values()[strategy];
        meta.defaultValue = b.getDouble(MetaPageDescriptor.DEFAULT_VALUE_OFFSET);
        meta.tree.root = b.getLong(MetaPageDescriptor.ROOT_OFFSET);
        meta.tree.height = b.getInt(MetaPageDescriptor.HEIGHT_OFFSET);
        meta.tree.size = b.getLong(MetaPageDescriptor.SIZE_OFFSET);
        meta.tree.leafCount = b.getLong(MetaPageDescriptor.LEAF_COUNT_OFFSET);
        meta.tree.denseLeafCount = b.getLong(MetaPageDescriptor.DENSE_LEAF_COUNT_OFFSET);
        meta.tree.splits = b.getLong(MetaPageDescriptor.SPLITS_OFFSET);
        meta.tree.freeListHead = b.getLong(MetaPageDescriptor.FREE_LIST_OFFSET);
        return meta;
    }
}
