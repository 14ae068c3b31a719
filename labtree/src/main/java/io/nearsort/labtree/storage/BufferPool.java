package io.nearsort.labtree.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A buffer pool of page frames over a {@link PageFile} with LRU replacement (LAB-tree Remark B.5). Callers pin a
 * page, use its payload, and unpin it, marking it dirty if they changed it; dirty pages are written when evicted
 * and by {@link #flush()}. Counts logical page accesses (pins), page reads and page writes, so that the paper's
 * I/O counts can be reproduced. The frames are off-heap and freed by {@link #close()}. Confined to one thread.
 */
public final class BufferPool implements AutoCloseable {
    private final PageFile file;
    private final int capacity;
    /** Resident frames in LRU order (least recently used first). */
    private final LinkedHashMap<Long, Frame> frames = new LinkedHashMap<>(16, 0.75f, true);
    private final ArrayDeque<AlignedBuffer> spare = new ArrayDeque<>();
    private int allocatedFrames;
    private long logicalAccesses;
    private long pageReads;
    private long pageWrites;
    private boolean closed;

    /** A resident page. */
    public static final class Frame {
        private final long page;
        private final AlignedBuffer memory;
        private final ByteBuffer buffer;
        private int pins;
        private boolean dirty;

        private Frame(final long page, final AlignedBuffer memory) {
            this.page = page;
            this.memory = memory;
            this.buffer = memory.page();
        }

        /**
         * The number of the page this frame holds.
         *
         * @return the page number, >= 1
         */
        public long page() {
            return page;
        }

        /**
         * The page's payload: {@link PageTrailerDescriptor#payloadSize} bytes, little-endian, absolute access.
         *
         * @return the frame's buffer, valid while the page is pinned
         */
        public ByteBuffer payload() {
            return buffer;
        }

        /** Records that the payload was changed, so the page is written back when evicted or flushed. */
        public void markDirty() {
            dirty = true;
        }
    }

    /**
     * Creates an empty pool of {@code capacity} frames over {@code file}; pages are read in as they are pinned.
     *
     * @param file     the page file the pool reads and writes; closed with the pool
     * @param capacity frames, at least 2
     * @throws IllegalArgumentException if {@code capacity} is below 2
     */
    public BufferPool(final PageFile file, final int capacity) {
        if (capacity < 2) {
            throw new IllegalArgumentException("bufferPoolPages must be >= 2 (got: " + capacity + ")");
        }
        this.file = file;
        this.capacity = capacity;
    }

    /**
     * Opens (or creates) the page file at {@code path} behind a pool of {@code frames} pages.
     *
     * @param path     the page file
     * @param pageSize bytes per page, a power of two from {@value PageFile#MIN_PAGE_SIZE} to
     *                 {@value PageFile#MAX_PAGE_SIZE}; must match an existing file's
     * @param directIo whether to try O_DIRECT (buffered I/O where the file system refuses it)
     * @param frames   the pool's capacity in pages, at least 2
     * @return the open pool, owning the file
     * @throws IllegalArgumentException     if {@code frames} is below 2 or {@code pageSize} is invalid or differs
     *                                       from the existing file's
     * @throws java.io.UncheckedIOException if the file cannot be opened, or (caused by a
     *                                       {@link io.nearsort.core.CorruptFileException}) is corrupt
     */
    public static BufferPool open(final java.nio.file.Path path, final int pageSize, final boolean directIo,
                                  final int frames) {
        return open(path, pageSize, directIo, frames, io.nearsort.core.io.FileIo.standard());
    }

    /**
     * Opens (or creates) the page file at {@code path} behind a pool of {@code frames} pages, reaching the file and
     * its journal through {@code io}.
     *
     * @param path     the page file
     * @param pageSize bytes per page, a power of two from {@value PageFile#MIN_PAGE_SIZE} to
     *                 {@value PageFile#MAX_PAGE_SIZE}; must match an existing file's
     * @param directIo whether to try O_DIRECT (buffered I/O where the file system refuses it)
     * @param frames   the pool's capacity in pages, at least 2
     * @param io       how the file and its journal are opened, renamed and deleted, not null
     * @return the open pool, owning the file
     * @throws IllegalArgumentException     if {@code frames} is below 2 or {@code pageSize} is invalid or differs
     *                                       from the existing file's
     * @throws java.io.UncheckedIOException if the file cannot be opened, or (caused by a
     *                                       {@link io.nearsort.core.CorruptFileException}) is corrupt
     */
    public static BufferPool open(final java.nio.file.Path path, final int pageSize, final boolean directIo,
                                  final int frames, final io.nearsort.core.io.FileIo io) {
        if (frames < 2) {
            throw new IllegalArgumentException("bufferPoolPages must be >= 2 (got: " + frames + ")");
        }
        try {
            return new BufferPool(PageFile.open(path, pageSize, directIo, io), frames);
        } catch (final io.nearsort.core.CorruptFileException e) {
            throw PageFile.unchecked(e);
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException("opening " + path + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Discards this pool after {@code failure} happened while setting up a structure in it (nothing of the set-up
     * is committed); returns the failure.
     *
     * @param failure what went wrong during the set-up
     * @return {@code failure}, with any failure of the discard added as suppressed, for the caller to throw
     */
    public RuntimeException closeAfter(final RuntimeException failure) {
        try {
            discard();
        } catch (final IOException | RuntimeException suppressed) {
            failure.addSuppressed(suppressed);
        }
        return failure;
    }

    /**
     * Pins page {@code page}, reading it if it is not resident.
     *
     * @param page a data page number, in [1, {@link PageFile#pageCount()}]
     * @return the page's frame, pinned once more; unpin it when done
     * @throws java.io.UncheckedIOException if reading fails, or (caused by a
     *                                       {@link io.nearsort.core.CorruptFileException}) the page is corrupt
     * @throws IllegalStateException        if the pool is closed or every frame is pinned
     */
    public Frame pin(final long page) {
        checkOpen();
        logicalAccesses++;
        Frame frame = frames.get(page);
        if (frame == null) {
            frame = new Frame(page, freeBuffer());
            try {
                file.read(page, frame.buffer);
            } catch (final IOException e) {
                spare.push(frame.memory);
                throw file.failure("reading page " + page, e);
            } catch (final RuntimeException e) {
                spare.push(frame.memory);
                throw e;
            }
            pageReads++;
            frames.put(page, frame);
        }
        frame.pins++;
        return frame;
    }

    /**
     * Allocates a new page at the end of the file, pinned, zeroed and dirty.
     *
     * @return the new page's frame, pinned once
     */
    public Frame pinNew() {
        checkOpen();
        return fresh(file.allocate());
    }

    /**
     * Pins page {@code page} as a zeroed dirty page without reading it, extending the file as needed: for a page
     * the caller knows was never written (lazy allocation in a directly addressable file).
     *
     * @param page the page number, >= 1, of a page never written
     * @return the page's frame, pinned once
     * @throws IllegalStateException if the page is resident (so it has been written) or the pool is closed
     */
    public Frame pinUnwritten(final long page) {
        checkOpen();
        if (frames.containsKey(page)) {
            throw new IllegalStateException("page " + page + " is resident, so it has been written");
        }
        file.extendTo(page);
        return fresh(page);
    }

    private Frame fresh(final long page) {
        logicalAccesses++;
        final AlignedBuffer memory = freeBuffer();
        final ByteBuffer buffer = memory.page();
        for (int i = 0; i < buffer.capacity(); i += Long.BYTES) {
            buffer.putLong(i, 0);
        }
        final Frame frame = new Frame(page, memory);
        frame.dirty = true;
        frame.pins = 1;
        frames.put(frame.page, frame);
        return frame;
    }

    /**
     * Releases one pin of {@code frame}.
     *
     * @param frame a frame this pool returned, still pinned
     * @throws IllegalStateException if the frame is not pinned
     */
    public void unpin(final Frame frame) {
        if (frame.pins <= 0) {
            throw new IllegalStateException("page " + frame.page + " is not pinned");
        }
        frame.pins--;
    }

    private AlignedBuffer freeBuffer() {
        if (!spare.isEmpty()) {
            return spare.pop();
        }
        if (allocatedFrames < capacity) {
            allocatedFrames++;
            return PageFile.allocatePageBuffer(file.pageSize());
        }
        final Iterator<Map.Entry<Long, Frame>> lru = frames.entrySet().iterator();
        while (lru.hasNext()) {
            final Frame victim = lru.next().getValue();
            if (victim.pins == 0) {
                writeBack(victim);
                lru.remove();
                return victim.memory;
            }
        }
        throw new IllegalStateException("buffer pool of " + capacity + " pages exhausted: every page is pinned");
    }

    private void writeBack(final Frame frame) {
        if (!frame.dirty) {
            return;
        }
        try {
            file.write(frame.page, frame.buffer);
        } catch (final IOException e) {
            throw file.failure("writing page " + frame.page, e);
        }
        frame.dirty = false;
        pageWrites++;
    }

    /** Writes every dirty page and commits them with the header atomically ({@link PageFile#sync()}). */
    public void flush() {
        checkOpen();
        for (final Frame frame : frames.values()) {
            writeBack(frame);
        }
        try {
            file.sync();
        } catch (final IOException e) {
            throw file.failure("syncing", e);
        }
    }

    /**
     * Pins taken since the pool opened (logical page accesses).
     *
     * @return the number of pins, new pages included
     */
    public long logicalAccesses() {
        return logicalAccesses;
    }

    /**
     * Pages read from the file.
     *
     * @return the number of page reads since the pool opened
     */
    public long pageReads() {
        return pageReads;
    }

    /**
     * Pages written to the file.
     *
     * @return the number of dirty pages written back (on eviction or flush) since the pool opened
     */
    public long pageWrites() {
        return pageWrites;
    }

    /**
     * Frames allocated (at most the capacity).
     *
     * @return the number of frames allocated so far, from 0 up to the capacity
     */
    public int allocatedFrames() {
        return allocatedFrames;
    }

    /**
     * The page file behind this pool.
     *
     * @return the file, owned by the pool
     */
    public PageFile file() {
        return file;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("buffer pool of " + file.path() + " is closed");
        }
    }

    /**
     * Flushes, frees every frame and closes the file. Each step runs even if an earlier one fails (a failed flush
     * still frees the frames and closes the file, which stays at its last commit); the first failure is thrown with
     * the others suppressed.
     */
    @Override
    public void close() throws IOException {
        if (!closed) {
            release(new ReleaseChain().run(this::flush));
        }
    }

    /**
     * Closes without writing anything: frees every frame and closes the file, which stays at its last commit (for
     * an owner whose state could not be saved). Each step runs even if an earlier one fails.
     *
     * @throws IOException if closing the file fails and that is the first failure (later ones are suppressed in it)
     */
    public void discard() throws IOException {
        if (!closed) {
            release(new ReleaseChain());
        }
    }

    private void release(final ReleaseChain chain) throws IOException {
        closed = true;
        for (final Frame frame : frames.values()) {
            chain.run(frame.memory::free);
        }
        for (final AlignedBuffer buffer : spare) {
            chain.run(buffer::free);
        }
        frames.clear();
        spare.clear();
        chain.run(file::close).rethrow();
    }
}
