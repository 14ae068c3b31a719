package io.nearsort.labtree.daf;

import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FileIo;
import io.nearsort.labtree.Linearization;
import io.nearsort.labtree.linearization.Layout;
import io.nearsort.labtree.storage.BufferPool;
import io.nearsort.labtree.storage.PageFile;
import io.nearsort.labtree.storage.PagedStructure;
import io.nearsort.labtree.storage.PageTrailerDescriptor;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;

/**
 * The directly addressable file (DAF), LAB-tree §4.3's baseline: element f(i) of the linearized array is stored at a
 * fixed slot, value i of page 2 + b + f(i) / perPage, with no index at all. Pages are allocated when first written
 * and the others stay holes of a sparse file; a presence bitmap (pages 2 … 1 + b) says which exist, so an
 * unwritten page reads as zeros without touching the disk and a damaged one is still caught by its checksum.
 * Shares the page file and buffer pool of the LAB-tree, so their I/O counts compare directly. Confined to one
 * thread.
 */
public final class DirectlyAddressableFile extends PagedStructure {
    private final BufferPool pool;
    private final Layout layout;
    private final int perPage;
    private final long bitmapPages;
    private final BitSet present;
    private final long blocks;

    private DirectlyAddressableFile(final BufferPool pool, final Layout layout, final long bitmapPages,
                                    final BitSet present) {
        super(pool, "directly addressable file");
        this.pool = pool;
        this.layout = layout;
        this.perPage = PageTrailerDescriptor.payloadSize(pool.file().pageSize()) / Double.BYTES;
        this.bitmapPages = bitmapPages;
        this.present = present;
        this.blocks = (layout.size() + perPage - 1) / perPage;
    }

    /**
     * Creates or opens the DAF at {@code path} for an array of {@code shape} stored in {@code linearization}.
     *
     * @param path            the page file, created if missing
     * @param linearization   the storage layout f; an existing file must have been created with the same one
     * @param pageSize        bytes per page, a power of two from {@value PageFile#MIN_PAGE_SIZE} to
     *                        {@value PageFile#MAX_PAGE_SIZE}
     * @param bufferPoolPages the buffer pool's capacity in pages, at least 2
     * @param shape           one extent per dimension, each >= 1; must match an existing file's
     * @return the open file, owning its buffer pool
     * @throws IllegalArgumentException if an existing file describes another array
     */
    public static DirectlyAddressableFile open(final Path path, final Linearization linearization, final int pageSize,
                                               final int bufferPoolPages, final long... shape) {
        return open(path, linearization, pageSize, bufferPoolPages, FileIo.standard(), shape);
    }

    /**
     * Creates or opens the DAF at {@code path} as {@link #open(Path, Linearization, int, int, long...)} does,
     * reaching its page file and journal through {@code io} (issue 22's I/O-fault seam).
     *
     * @param path            the page file, created if missing
     * @param linearization   the storage layout f; an existing file must have been created with the same one
     * @param pageSize        bytes per page, a power of two from {@value PageFile#MIN_PAGE_SIZE} to
     *                        {@value PageFile#MAX_PAGE_SIZE}
     * @param bufferPoolPages the buffer pool's capacity in pages, at least 2
     * @param io              how the files are opened, renamed and deleted, not null
     * @param shape           one extent per dimension, each >= 1; must match an existing file's
     * @return the open file, owning its buffer pool
     * @throws IllegalArgumentException if an existing file describes another array, or {@code io} is null
     */
    public static DirectlyAddressableFile open(final Path path, final Linearization linearization, final int pageSize,
                                               final int bufferPoolPages, final FileIo io, final long... shape) {
        if (io == null) {
            throw new IllegalArgumentException("io must not be null");
        }
        final Layout layout = linearization.layout(shape);
        final BufferPool pool = BufferPool.open(path, pageSize, true, bufferPoolPages, io);
        try {
            final int payload = PageTrailerDescriptor.payloadSize(pageSize);
            final long blocks = (layout.size() + payload / Double.BYTES - 1) / (payload / Double.BYTES);
            if (blocks > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("a directly addressable file holds at most 2^31 pages (shape "
                        + Arrays.toString(shape) + " needs " + blocks + ")");
            }
            final long bitmapPages = (blocks + 8L * payload - 1) / (8L * payload);
            if (pool.file().pageCount() == 0) {
                create(pool, layout, linearization.name(), bitmapPages);
                return new DirectlyAddressableFile(pool, layout, bitmapPages, new BitSet());
            }
            return new DirectlyAddressableFile(pool, layout, bitmapPages, load(pool, layout, linearization.name(),
                    bitmapPages));
        } catch (final RuntimeException e) {
            throw pool.closeAfter(e);
        }
    }

    private static void create(final BufferPool pool, final Layout layout, final String name,
                               final long bitmapPages) {
        final BufferPool.Frame meta = pool.pinNew();
        final ByteBuffer b = meta.payload();
        final long[] shape = layout.shape();
        final byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
        b.putLong(DafMetaDescriptor.MAGIC_OFFSET, DafMetaDescriptor.MAGIC);
        b.putInt(DafMetaDescriptor.DIMENSIONS_OFFSET, shape.length);
        b.putInt(DafMetaDescriptor.NAME_LENGTH_OFFSET, nameBytes.length);
        b.putLong(DafMetaDescriptor.BITMAP_PAGES_OFFSET, bitmapPages);
        for (int k = 0; k < shape.length; k++) {
            b.putLong(DafMetaDescriptor.SHAPE_OFFSET + k * Long.BYTES, shape[k]);
        }
        b.put(DafMetaDescriptor.SHAPE_OFFSET + shape.length * Long.BYTES, nameBytes);
        pool.unpin(meta);
        for (long p = 0; p < bitmapPages; p++) {
            pool.unpin(pool.pinNew());
        }
    }

    private static BitSet load(final BufferPool pool, final Layout layout, final String name,
                               final long bitmapPages) {
        final Path path = pool.file().path();
        final BufferPool.Frame meta = pool.pin(DafMetaDescriptor.META_PAGE);
        try {
            final ByteBuffer b = meta.payload();
            if (b.getLong(DafMetaDescriptor.MAGIC_OFFSET) != DafMetaDescriptor.MAGIC) {
                throw PageFile.unchecked(CorruptFileException.inPage(path, DafMetaDescriptor.META_PAGE,
                        DafMetaDescriptor.META_PAGE * pool.file().pageSize(), "not a directly addressable file"));
            }
            final int dimensions = b.getInt(DafMetaDescriptor.DIMENSIONS_OFFSET);
            final long[] shape = new long[Math.max(0, Math.min(dimensions, 64))];
            for (int k = 0; k < shape.length; k++) {
                shape[k] = b.getLong(DafMetaDescriptor.SHAPE_OFFSET + k * Long.BYTES);
            }
            final byte[] stored = new byte[Math.max(0, Math.min(b.getInt(DafMetaDescriptor.NAME_LENGTH_OFFSET), 1024))];
            b.get(DafMetaDescriptor.SHAPE_OFFSET + shape.length * Long.BYTES, stored);
            if (!Arrays.equals(shape, layout.shape()) || !new String(stored, StandardCharsets.UTF_8).equals(name)
                    || b.getLong(DafMetaDescriptor.BITMAP_PAGES_OFFSET) != bitmapPages) {
                throw new IllegalArgumentException(path + " holds a " + Arrays.toString(shape) + " array in "
                        + new String(stored, StandardCharsets.UTF_8) + "; shape and linearization must match (got: "
                        + Arrays.toString(layout.shape()) + " in " + name + ")");
            }
        } finally {
            pool.unpin(meta);
        }
        final BitSet present = new BitSet();
        final int payloadLongs = PageTrailerDescriptor.payloadSize(pool.file().pageSize()) / Long.BYTES;
        for (long p = 0; p < bitmapPages; p++) {
            final BufferPool.Frame frame = pool.pin(DafMetaDescriptor.META_PAGE + 1 + p);
            final long[] words = new long[payloadLongs];
            for (int w = 0; w < payloadLongs; w++) {
                words[w] = frame.payload().getLong(w * Long.BYTES);
            }
            pool.unpin(frame);
            final BitSet part = BitSet.valueOf(words);
            for (int bit = part.nextSetBit(0); bit >= 0; bit = part.nextSetBit(bit + 1)) {
                present.set((int) (p * payloadLongs * 64L + bit));
            }
        }
        return present;
    }

    private long pageOf(final long block) {
        return DafMetaDescriptor.META_PAGE + 1 + bitmapPages + block;
    }

    /**
     * The element at {@code index} (one coordinate per dimension).
     *
     * @param index one coordinate per dimension, coordinate k in [0, N_k)
     * @return the element's value; 0 if it was never set
     * @throws IndexOutOfBoundsException if a coordinate is outside the shape
     */
    public double get(final long... index) {
        return getLinear(layout.index(index));
    }

    /**
     * Sets the element at {@code index}, allocating its page on first write.
     *
     * @param value the new value; any double, 0 included (it is stored, not deleted)
     * @param index one coordinate per dimension, coordinate k in [0, N_k)
     * @throws IndexOutOfBoundsException if a coordinate is outside the shape
     */
    public void set(final double value, final long... index) {
        setLinear(value, layout.index(index));
    }

    /**
     * The element at linearized index {@code key}; 0 if its page was never written.
     *
     * @param key the linearized index f(i), in [0, N); not range-checked
     * @return the element's value; 0 if it was never set
     */
    public double getLinear(final long key) {
        checkOpen();
        final long block = key / perPage;
        if (!present.get((int) block)) {
            return 0.0;
        }
        final BufferPool.Frame frame = pool.pin(pageOf(block));
        final double value = frame.payload().getDouble((int) (key % perPage) * Double.BYTES);
        pool.unpin(frame);
        return value;
    }

    /**
     * Sets the element at linearized index {@code key}, allocating its page on first write.
     *
     * @param value the new value; any double
     * @param key   the linearized index f(i), in [0, N); not range-checked
     */
    public void setLinear(final double value, final long key) {
        checkOpen();
        final long block = key / perPage;
        final BufferPool.Frame frame;
        try {
            if (present.get((int) block)) {
                frame = pool.pin(pageOf(block));
            } else {
                frame = pool.pinUnwritten(pageOf(block));
                present.set((int) block);
            }
        } catch (final RuntimeException e) {
            throw failed(e); // the page may be allocated but never written: refuse further use (PagedStructure)
        }
        frame.payload().putDouble((int) (key % perPage) * Double.BYTES, value);
        frame.markDirty();
        pool.unpin(frame);
    }

    /**
     * Data pages allocated (written at least once).
     *
     * @return the number of data pages written at least once
     */
    public long allocatedPages() {
        return present.cardinality();
    }

    /**
     * Data pages the full array would take.
     *
     * @return ceil(N / values per page), values per page being the page payload over 8 bytes
     */
    public long addressablePages() {
        return blocks;
    }

    @Override
    protected void saveState() {
        final int payloadLongs = PageTrailerDescriptor.payloadSize(pool.file().pageSize()) / Long.BYTES;
        final long[] words = present.toLongArray();
        for (long p = 0; p < bitmapPages; p++) {
            final BufferPool.Frame frame = pool.pin(DafMetaDescriptor.META_PAGE + 1 + p);
            for (int w = 0; w < payloadLongs; w++) {
                final long index = p * payloadLongs + w;
                frame.payload().putLong(w * Long.BYTES, index < words.length ? words[(int) index] : 0L);
            }
            frame.markDirty();
            pool.unpin(frame);
        }
    }
}
