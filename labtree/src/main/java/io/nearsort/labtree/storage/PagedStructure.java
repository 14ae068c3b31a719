package io.nearsort.labtree.storage;

import io.nearsort.core.CorruptFileException;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A structure kept in a buffer pool's page file: it owns the pool, writes its in-memory state to pages on
 * {@link #flush()} and {@link #close()}, and fails clearly once closed.
 */
public abstract class PagedStructure implements AutoCloseable {
    private final BufferPool pool;
    private final String kind;
    private boolean closed;

    /**
     * Binds the structure to its pool, which it then owns and closes.
     *
     * @param pool the open buffer pool over the structure's page file
     * @param kind what the structure is, for messages (e.g. {@code "LAB-tree array"})
     */
    protected PagedStructure(final BufferPool pool, final String kind) {
        this.pool = pool;
        this.kind = kind;
    }

    /**
     * The buffer pool (its counters are the structure's I/O counts).
     *
     * @return the pool this structure owns
     */
    public final BufferPool pool() {
        return pool;
    }

    /** Moves what the structure holds in memory (buffered updates, metadata) into its pages. */
    protected abstract void saveState();

    /**
     * Writes every dirty page and the metadata and commits them atomically: once this returns, a process kill
     * loses none of it, and a kill before it returns leaves the file at the previous flush (or this one, if its
     * commit point passed).
     */
    public final void flush() {
        checkOpen();
        saveState();
        pool.flush();
    }

    /** Throws if the structure is closed. */
    protected final void checkOpen() {
        if (closed) {
            throw new IllegalStateException(kind + " " + pool.file().path() + " is closed");
        }
    }

    /**
     * Saves, flushes and closes the file; frees the pool's memory. If saving fails, nothing is committed (the file
     * stays at the last flush) and the pool is still closed and freed. Later calls do nothing.
     */
    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            final ReleaseChain chain = new ReleaseChain().run(this::saveState);
            chain.run(chain.failed() ? pool::discard : pool::close).rethrow();
        } catch (final CorruptFileException e) {
            throw PageFile.unchecked(e);
        } catch (final IOException e) {
            throw new UncheckedIOException("closing " + pool.file().path() + " failed", e);
        }
    }
}
