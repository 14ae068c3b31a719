package io.nearsort.labtree;

import io.nearsort.core.io.FileIo;
import io.nearsort.core.sortedness.StableMergeSort;
import io.nearsort.labtree.batch.UpdateBuffer;
import io.nearsort.labtree.leaf.LeafCapacity;
import io.nearsort.labtree.linearization.Layout;
import io.nearsort.labtree.storage.BufferPool;
import io.nearsort.labtree.storage.PagedStructure;
import io.nearsort.labtree.tree.ArrayFile;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * A disk-resident d-dimensional array of doubles stored in a LAB-tree (LAB-tree §3): element i lives under key
 * f(i) of the array's {@link Linearization}; elements equal to the default value are not stored, and setting one
 * to the default deletes it. {@link #close()} flushes every page and forces the file to disk; reopening returns
 * the same array. Confined to one thread.
 *
 * <p>Crash consistency: once {@link #flush()} or {@link #close()} returns, the array as it was then survives a
 * process kill; a process killed at any other moment leaves a file that opens at the last completed flush (or at
 * the flush in progress, if it passed its commit point). Writes between flushes may reach the disk (the buffer
 * pool evicts pages) but go to the journal {@code <file>.journal} until the next flush commits them. The file must
 * not be opened by two processes at once.
 *
 * <p>Errors: every I/O failure is an {@link UncheckedIOException} naming the file. A page or header that fails its
 * checksum, or a page that holds another page, is one whose cause is an {@link io.nearsort.core.CorruptFileException}
 * naming the file, the page and its byte offset (the type the LDI column store throws as it is); nothing read from
 * it is returned as data. A read that fails leaves the array usable; a write, a flush or an iteration that had to
 * flush the update buffer that fails leaves it refusing every further use with an {@link IllegalStateException}
 * naming the file, and {@link #close()} then releases it without committing (it throws an
 * {@link IllegalStateException} saying so): reopening gives the last flush, or the flush that failed if it had
 * passed its commit point.
 *
 * <p>I/O faults: files are opened, renamed and deleted through the builder's {@link Builder#fileIo(FileIo)}, which
 * tests use to inject faults ({@code docs/reliability.md}, "I/O faults").
 *
 * <pre>{@code
 * try (LabArray a = LabArray.builder(path).shape(rows, cols).linearization(Linearization.rowMajor())
 *         .splitStrategy(SplitStrategy.ALIGNED).leafFormat(LeafFormat.DYNAMIC).build()) {
 *     a.set(1.5, i, j);
 *     double v = a.get(i, j);
 * }
 * }</pre>
 */
public final class LabArray extends PagedStructure {
    private final BufferPool pool;
    private final ArrayFile file;
    private final Layout layout;
    private final UpdateBuffer buffer;
    private boolean visiting;

    LabArray(final BufferPool pool, final ArrayFile file, final Layout layout, final UpdateBuffer buffer) {
        super(pool, "LAB-tree array");
        this.pool = pool;
        this.file = file;
        this.layout = layout;
        this.buffer = buffer;
    }

    /** A buffered request wins over the tree: reads see buffered values (§5). */
    private double read(final long key) {
        return buffer != null && buffer.contains(key) ? buffer.get(key, Double.NaN) : file.tree().get(key);
    }

    /** A change fails as a whole: if it throws midway the array refuses further use (see {@link #flush()}). */
    private void write(final long key, final double value) {
        try {
            if (buffer == null) {
                file.tree().set(key, value);
            } else {
                buffer.put(key, value);
            }
        } catch (final RuntimeException e) {
            throw failed(e);
        }
    }

    /**
     * A builder for the array file at {@code path} (created if missing, opened otherwise).
     *
     * @param path the array's file, not null; its journal is {@code <path>.journal}
     * @return a builder with the defaults; nothing is opened until {@link Builder#build()}
     */
    public static Builder builder(final Path path) {
        return new Builder(path);
    }

    /**
     * The element at {@code index} (one coordinate per dimension).
     *
     * @param index one coordinate per dimension, coordinate k in [0, N_k)
     * @return the element's value, the default value if it is not stored
     * @throws IndexOutOfBoundsException if a coordinate is outside the shape
     */
    public double get(final long... index) {
        checkOpen();
        return read(layout.index(index));
    }

    /**
     * Sets the element at {@code index}; the default value deletes it.
     *
     * @param value the new value; any double
     * @param index one coordinate per dimension, coordinate k in [0, N_k)
     * @throws IndexOutOfBoundsException if a coordinate is outside the shape
     */
    public void set(final double value, final long... index) {
        checkWritable();
        write(layout.index(index), value);
    }

    /**
     * The element with linearized index {@code key} (f(i) = key).
     *
     * @param key the linearized index, in [0, N)
     * @return the element's value, the default value if it is not stored
     * @throws IndexOutOfBoundsException if {@code key} is outside [0, N)
     */
    public double getLinear(final long key) {
        checkOpen();
        checkKey(key);
        return read(key);
    }

    /**
     * Sets the element with linearized index {@code key}.
     *
     * @param value the new value; the default value deletes the element
     * @param key   the linearized index, in [0, N)
     * @throws IndexOutOfBoundsException if {@code key} is outside [0, N)
     */
    public void setLinear(final double value, final long key) {
        checkWritable();
        checkKey(key);
        write(key, value);
    }

    /** Receives elements during an iteration; must not modify the array. */
    @FunctionalInterface
    public interface ElementVisitor {
        /**
         * Receives one element.
         *
         * @param position    the element's position in the access order (its index under g)
         * @param coordinates its array index (reused between calls: copy it to keep it)
         * @param value       its value
         */
        void visit(long position, long[] coordinates, double value);
    }

    /**
     * Visits the elements in the order of {@code accessOrder} g (LAB-tree §3, access type 2): the i-th element
     * visited has key f(g⁻¹(i)). When g is the storage order f the leaves are scanned in key order. With
     * {@code nonDefaultOnly}, only stored elements are visited, still in g's order (sorted by g when g differs
     * from f, which holds their positions in memory).
     *
     * @param accessOrder    the order g to visit in, bound to the array's shape (which it must support)
     * @param nonDefaultOnly true to visit only the stored (non-default) elements, false to visit all N
     * @param visitor        receives each element; must not modify the array
     * @throws IllegalStateException if {@code nonDefaultOnly} and g is not the storage order while more than 2^31
     *                               elements are stored
     */
    public void forEach(final Linearization accessOrder, final boolean nonDefaultOnly, final ElementVisitor visitor) {
        checkOpen();
        final Layout g = accessOrder.layout(layout.shape());
        final long[] c = new long[layout.shape().length];
        final boolean sameOrder = accessOrder.name().equals(file.linearization());
        if (buffer != null) {
            try {
                buffer.flushAll(); // iteration scans the tree's leaves
            } catch (final RuntimeException e) {
                throw failed(e);
            }
        }
        visiting = true;
        try {
            if (sameOrder && nonDefaultOnly) {
                file.tree().scan(0, layout.size(), (key, value) -> {
                    layout.coordinates(key, c);
                    visitor.visit(key, c, value);
                });
            } else if (sameOrder) {
                final long[] next = {0};
                final double defaultValue = file.defaultValue();
                file.tree().scan(0, layout.size(), (key, value) -> {
                    for (; next[0] < key; next[0]++) {
                        layout.coordinates(next[0], c);
                        visitor.visit(next[0], c, defaultValue);
                    }
                    layout.coordinates(key, c);
                    visitor.visit(key, c, value);
                    next[0] = key + 1;
                });
                for (; next[0] < layout.size(); next[0]++) {
                    layout.coordinates(next[0], c);
                    visitor.visit(next[0], c, defaultValue);
                }
            } else if (nonDefaultOnly) {
                visitStoredInOrder(g, c, visitor);
            } else {
                // Incremental: g's next element by g.next (an odometer for the major orders), its key by f.
                g.coordinates(0, c);
                for (long i = 0; i < g.size(); i++) {
                    if (i > 0) {
                        g.next(c);
                    }
                    visitor.visit(i, c, file.tree().get(layout.index(c)));
                }
            }
        } finally {
            visiting = false;
        }
    }

    private void visitStoredInOrder(final Layout g, final long[] c, final ElementVisitor visitor) {
        final long stored = file.state().size;
        if (stored > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("more than 2^31 stored elements: iterate in the storage order instead");
        }
        // Positions under g with the values' bits alongside, sorted by position: no boxing, no per-entry objects.
        final long[] positions = new long[(int) stored];
        final long[] valueBits = new long[(int) stored];
        final int[] n = {0};
        file.tree().scan(0, layout.size(), (key, value) -> {
            layout.coordinates(key, c);
            positions[n[0]] = g.index(c);
            valueBits[n[0]++] = Double.doubleToRawLongBits(value);
        });
        StableMergeSort.sortStable(positions, valueBits, 0, n[0]);
        for (int i = 0; i < n[0]; i++) {
            g.coordinates(positions[i], c);
            visitor.visit(positions[i], c, Double.longBitsToDouble(valueBits[i]));
        }
    }

    /**
     * Reads the hyper-rectangle [lo, hi] (inclusive corners) into {@code out} in row-major order of the rectangle
     * (LAB-tree §3, access type 3). Runs of consecutive keys are read with one leaf scan each.
     *
     * @param lo  the rectangle's lower corner, one coordinate per dimension, {@code 0 <= lo[k] <= hi[k]}
     * @param hi  the rectangle's upper corner (inclusive), {@code hi[k] < N_k}
     * @param out receives the rectangle's cells; its length must be their number, below 2^31
     * @throws IndexOutOfBoundsException if a corner is outside the shape or {@code lo[k] > hi[k]}
     * @throws IllegalArgumentException  if a corner has the wrong number of coordinates or {@code out} the wrong
     *                                   length
     */
    public void readRectangle(final long[] lo, final long[] hi, final double[] out) {
        checkOpen();
        final long cells = checkRectangle(lo, hi, out.length);
        final long[] c = lo.clone();
        final double defaultValue = file.defaultValue();
        int i = 0;
        while (i < cells) {
            // Extend a run while the rectangle's next cell has the next key.
            final long first = layout.index(c);
            int runStart = i;
            long key = first;
            do {
                i++;
                if (i == cells) {
                    break;
                }
                advance(c, lo, hi);
            } while (layout.index(c) == ++key);
            final long runEnd = first + (i - runStart);
            java.util.Arrays.fill(out, runStart, i, defaultValue);
            file.tree().scan(first, runEnd, (k, value) -> out[runStart + (int) (k - first)] = value);
            if (buffer != null) {
                buffer.forEachPending(first, runEnd, (k, value) -> out[runStart + (int) (k - first)] = value);
            }
        }
    }

    /**
     * Writes {@code values} (row-major over the rectangle [lo, hi]) into the array.
     *
     * @param lo     the rectangle's lower corner, one coordinate per dimension, {@code 0 <= lo[k] <= hi[k]}
     * @param hi     the rectangle's upper corner (inclusive), {@code hi[k] < N_k}
     * @param values one value per cell of the rectangle, row-major; the default value deletes the element
     * @throws IndexOutOfBoundsException if a corner is outside the shape or {@code lo[k] > hi[k]}
     * @throws IllegalArgumentException  if a corner has the wrong number of coordinates or {@code values} the
     *                                   wrong length
     */
    public void writeRectangle(final long[] lo, final long[] hi, final double[] values) {
        checkWritable();
        final long cells = checkRectangle(lo, hi, values.length);
        final long[] c = lo.clone();
        for (int i = 0; i < cells; i++) {
            write(layout.index(c), values[i]);
            if (i + 1 < cells) {
                advance(c, lo, hi);
            }
        }
    }

    private long checkRectangle(final long[] lo, final long[] hi, final int length) {
        final long[] shape = layout.shape();
        if (lo.length != shape.length || hi.length != shape.length) {
            throw new IllegalArgumentException("rectangle corners need " + shape.length + " coordinates (got "
                    + lo.length + " and " + hi.length + ")");
        }
        long cells = 1;
        for (int k = 0; k < shape.length; k++) {
            if (lo[k] < 0 || hi[k] >= shape[k] || lo[k] > hi[k]) {
                throw new IndexOutOfBoundsException("rectangle dimension " + k + " must satisfy 0 <= lo <= hi < "
                        + shape[k] + " (got [" + lo[k] + ", " + hi[k] + "])");
            }
            cells *= hi[k] - lo[k] + 1;
            if (cells > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("rectangle has more than 2^31 cells");
            }
        }
        if (length != cells) {
            throw new IllegalArgumentException("values must hold the rectangle's " + cells + " cells (got " + length
                    + ")");
        }
        return cells;
    }

    /** Steps {@code c} to the next cell of the rectangle in row-major order. */
    private static void advance(final long[] c, final long[] lo, final long[] hi) {
        for (int k = c.length - 1; k >= 0; k--) {
            if (c[k] < hi[k]) {
                c[k]++;
                return;
            }
            c[k] = lo[k];
        }
    }

    private void checkWritable() {
        checkOpen();
        if (visiting) {
            throw new java.util.ConcurrentModificationException("the array cannot be written from inside forEach");
        }
    }

    private void checkKey(final long key) {
        if (key < 0 || key >= layout.size()) {
            throw new IndexOutOfBoundsException("linear index must be in [0, " + layout.size() + ") (got " + key + ")");
        }
    }

    /**
     * The array's layout (shape, f and f⁻¹).
     *
     * @return the storage linearization bound to the array's shape
     */
    public Layout layout() {
        return layout;
    }

    /**
     * The value of elements never set; storing it deletes an element.
     *
     * @return the default value recorded in the file
     */
    public double defaultValue() {
        return file.defaultValue();
    }

    /**
     * The leaf capacities the array was created with.
     *
     * @return κs, κd and the leaf format recorded in the file
     */
    public LeafCapacity leafCapacity() {
        return file.capacity();
    }

    /**
     * The array's counters now: its tree, the buffer pool's I/O and the update buffer (zeros without one).
     *
     * @return a snapshot of the counters
     */
    public LabStats stats() {
        checkOpen();
        final var s = file.state();
        return new LabStats(s.size, s.height, s.leafCount, s.denseLeafCount, s.splits, pool.logicalAccesses(),
                pool.pageReads(), pool.pageWrites(), pool.file().pageCount(),
                buffer == null ? 0 : buffer.buffered(), buffer == null ? 0 : buffer.flushes(),
                buffer == null ? 0 : buffer.pagesFlushed(), buffer == null ? 0 : buffer.requestsFlushed(),
                buffer == null ? 0 : buffer.partialLookups());
    }

    @Override
    protected void saveState() {
        if (buffer != null) {
            buffer.flushAll();
        }
        file.saveMeta();
    }

    /** Configures and opens a {@link LabArray}. */
    public static final class Builder {
        private final Path path;
        private long[] shape;
        private Linearization linearization = Linearization.rowMajor();
        private SplitStrategy splitStrategy;
        private LeafFormat leafFormat;
        private int kappaSparse;
        private int kappaDense;
        private int pageSize = 8192;
        private int bufferPoolPages = 4096;
        private Double defaultValue;
        private boolean directIo = true;
        private int updateBufferCapacity;
        private FlushPolicy flushPolicy = FlushPolicy.ALL;
        private int pageInfoCache = -1;
        private long flushSeed = 42;
        private FileIo fileIo = FileIo.standard();

        private Builder(final Path path) {
            this.path = Objects.requireNonNull(path, "path");
        }

        /**
         * Extents of the dimensions (required).
         *
         * @param extents one extent per dimension, each >= 1, at most 2^62 elements in all (checked at build);
         *                copied
         * @return this builder
         */
        public Builder shape(final long... extents) {
            this.shape = extents.clone();
            return this;
        }

        /**
         * The storage layout (default row-major); an existing file must have been created with the same one.
         *
         * @param linearization the storage linearization f, not null
         * @return this builder
         */
        public Builder linearization(final Linearization linearization) {
            this.linearization = Objects.requireNonNull(linearization, "linearization");
            return this;
        }

        /**
         * How leaves split (default {@link SplitStrategy#ALIGNED}).
         *
         * @param strategy the split strategy, not null; must match an existing file's
         * @return this builder
         */
        public Builder splitStrategy(final SplitStrategy strategy) {
            this.splitStrategy = Objects.requireNonNull(strategy, "splitStrategy");
            return this;
        }

        /**
         * Sparse-only or dynamic leaves (default {@link LeafFormat#DYNAMIC}).
         *
         * @param format the leaf format, not null; must match an existing file's
         * @return this builder
         */
        public Builder leafFormat(final LeafFormat format) {
            this.leafFormat = Objects.requireNonNull(format, "leafFormat");
            return this;
        }

        /**
         * κs and κd; otherwise the most a page holds. With sparse-only leaves κd must equal κs.
         *
         * @param kappaSparse κs, records per sparse leaf, at least 2 and at most what a page holds (checked at build)
         * @param kappaDense  κd, keys per dense leaf: above κs for dynamic leaves, equal to it for sparse-only ones
         * @return this builder
         */
        public Builder leafCapacities(final int kappaSparse, final int kappaDense) {
            this.kappaSparse = kappaSparse;
            this.kappaDense = kappaDense;
            return this;
        }

        /**
         * Page size in bytes, a power of two in [512, 1 MiB] (default 8192).
         *
         * @param bytes bytes per page, a power of two from 512 to 1048576 (checked at build); must match an existing
         *              file's
         * @return this builder
         */
        public Builder pageSize(final int bytes) {
            this.pageSize = bytes;
            return this;
        }

        /**
         * Buffer pool size in pages, at least 8 (default 4096).
         *
         * @param pages frames in the buffer pool, at least 8
         * @return this builder
         * @throws IllegalArgumentException if {@code pages} is below 8
         */
        public Builder bufferPoolPages(final int pages) {
            if (pages < 8) {
                throw new IllegalArgumentException("bufferPoolPages must be >= 8 (got: " + pages + ")");
            }
            this.bufferPoolPages = pages;
            return this;
        }

        /**
         * The value of elements never set (default 0); stored in the file.
         *
         * @param value any double, NaN included; must match an existing file's (compared by {@link Double#compare},
         *              so -0.0 differs from 0.0)
         * @return this builder
         */
        public Builder defaultValue(final double value) {
            this.defaultValue = value;
            return this;
        }

        /**
         * Batches writes in a buffer of {@code capacity} requests flushed by {@code policy} (§5); 0 (the default)
         * writes through.
         *
         * @param capacity K, buffered requests, >= 0; when above 0 it must exceed the page-information cache by at
         *                 least 2 (checked at build)
         * @param policy   the flush policy, not null
         * @return this builder
         * @throws IllegalArgumentException if {@code capacity} is negative
         */
        public Builder updateBuffer(final int capacity, final FlushPolicy policy) {
            if (capacity < 0) {
                throw new IllegalArgumentException("updateBuffer capacity must be >= 0 (got: " + capacity + ")");
            }
            this.updateBufferCapacity = capacity;
            this.flushPolicy = Objects.requireNonNull(policy, "flushPolicy");
            return this;
        }

        /**
         * Pages whose identity and range the update buffer remembers between flushes, charged against its capacity
         * (§5.2); default 0 for {@link FlushPolicy#ALL}, which needs none, and 4% of the capacity otherwise (the
         * paper's 8,000 pages next to 200,000 requests).
         *
         * @param pages pages remembered, >= 0
         * @return this builder
         * @throws IllegalArgumentException if {@code pages} is negative
         */
        public Builder pageInfoCache(final int pages) {
            if (pages < 0) {
                throw new IllegalArgumentException("pageInfoCache must be >= 0 (got: " + pages + ")");
            }
            this.pageInfoCache = pages;
            return this;
        }

        /**
         * Seed of LPP's random choices (default 42).
         *
         * @param seed any long; with {@link FlushPolicy#LPP}, the same seed and writes give the same flushes
         * @return this builder
         */
        public Builder flushSeed(final long seed) {
            this.flushSeed = seed;
            return this;
        }

        /**
         * Whether to try O_DIRECT (default true; buffered I/O where the file system refuses it).
         *
         * @param enabled true to try direct I/O, false for buffered I/O
         * @return this builder
         */
        public Builder directIo(final boolean enabled) {
            this.directIo = enabled;
            return this;
        }

        /**
         * How the array's file and its journal are opened, renamed and deleted (default {@link FileIo#standard()}):
         * the seam through which tests inject I/O faults (issue 22, {@link io.nearsort.core.io.FaultInjectingFileIo}).
         *
         * @param io the file system access to use, not null
         * @return this builder
         * @throws IllegalArgumentException if {@code io} is null
         */
        public Builder fileIo(final FileIo io) {
            if (io == null) {
                throw new IllegalArgumentException("fileIo must not be null");
            }
            this.fileIo = io;
            return this;
        }

        /**
         * Creates or opens the array.
         *
         * @return the open array; close it to commit and release the file
         * @throws IllegalArgumentException for a bad configuration or one that differs from the existing file's
         * @throws UncheckedIOException     if the file cannot be opened, or (caused by a
         *                                  {@link io.nearsort.core.CorruptFileException}) is corrupt
         */
        public LabArray build() {
            if (shape == null) {
                throw new IllegalArgumentException("shape is required, e.g. shape(rows, cols)");
            }
            final Layout layout = linearization.layout(shape);
            LeafCapacity capacity = null;
            final LeafFormat format = leafFormat != null ? leafFormat : LeafFormat.DYNAMIC;
            if (kappaSparse != 0 || kappaDense != 0) {
                capacity = new LeafCapacity(kappaSparse, kappaDense, format);
            } else if (leafFormat != null) {
                capacity = ArrayFile.capacityFor(pageSize, format);
            }
            final BufferPool pool = BufferPool.open(path, pageSize, directIo, bufferPoolPages, fileIo);
            try {
                final ArrayFile file = ArrayFile.open(pool, new ArrayFile.Definition(shape, linearization.name(),
                        capacity, splitStrategy, defaultValue), layout.size(), ArrayFile.capacityFor(pageSize, format));
                UpdateBuffer buffer = null;
                if (updateBufferCapacity > 0) {
                    final int cache = pageInfoCache >= 0 ? pageInfoCache
                            : flushPolicy == FlushPolicy.ALL ? 0 : updateBufferCapacity / 25;
                    buffer = new UpdateBuffer(file.tree(), flushPolicy, updateBufferCapacity, cache, flushSeed);
                }
                return new LabArray(pool, file, layout, buffer);
            } catch (final RuntimeException e) {
                throw pool.closeAfter(e);
            }
        }

        @Override
        public String toString() {
            return "LabArray.Builder{" + path + ", shape " + Arrays.toString(shape) + "}";
        }
    }
}
