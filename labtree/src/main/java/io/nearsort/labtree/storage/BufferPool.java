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

        public long page() {
            return page;
        }

        /** The page's payload: {@link PageTrailerDescriptor#payloadSize} bytes, little-endian, absolute access. */
        public ByteBuffer payload() {
            return buffer;
        }

        public void markDirty() {
            dirty = true;
        }
    }

    /** @param capacity frames, at least 2 */
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
     * @throws java.io.UncheckedIOException if the file cannot be opened, or (caused by a
     *                                       {@link io.nearsort.core.CorruptFileException}) is corrupt
     */
    public static BufferPool open(final java.nio.file.Path path, final int pageSize, final boolean directIo,
                                  final int frames) {
        if (frames < 2) {
            throw new IllegalArgumentException("bufferPoolPages must be >= 2 (got: " + frames + ")");
        }
        try {
            return new BufferPool(PageFile.open(path, pageSize, directIo), frames);
        } catch (final io.nearsort.core.CorruptFileException e) {
            throw PageFile.unchecked(e);
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException("opening " + path + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Discards this pool after {@code failure} happened while setting up a structure in it (nothing of the set-up
     * is committed); returns the failure.
     */
    public RuntimeException closeAfter(final RuntimeException failure) {
        try {
            discard();
        } catch (final IOException | RuntimeException suppressed) {
            failure.addSuppressed(suppressed);
        }
        return failure;
    }

    /** Pins page {@code page}, reading it if it is not resident. */
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

    /** Allocates a new page at the end of the file, pinned, zeroed and dirty. */
    public Frame pinNew() {
        checkOpen();
        return fresh(file.allocate());
    }

    /**
     * Pins page {@code page} as a zeroed dirty page without reading it, extending the file as needed: for a page
     * the caller knows was never written (lazy allocation in a directly addressable file).
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

    /** Releases one pin of {@code frame}. */
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

    /** Pins taken since the pool opened (logical page accesses). */
    public long logicalAccesses() {
        return logicalAccesses;
    }

    /** Pages read from the file. */
    public long pageReads() {
        return pageReads;
    }

    /** Pages written to the file. */
    public long pageWrites() {
        return pageWrites;
    }

    /** Frames allocated (at most the capacity). */
    public int allocatedFrames() {
        return allocatedFrames;
    }

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
