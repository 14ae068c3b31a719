package io.nearsort.labtree.storage;

import io.nearsort.core.CorruptFileException;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A structure kept in a buffer pool's page file: it owns the pool, writes its in-memory state to pages on
 * {@link #flush()} and {@link #close()}, and fails clearly once closed.
 *
 * <p>I/O faults (issue 22): a change that fails midway (a page read or an eviction's write failing inside a split,
 * say) can leave the in-memory structure half updated and pages pinned, and a failed flush leaves the file refusing
 * further commits. Either way the structure then refuses every further use ({@link #checkOpen()} throws an
 * {@link IllegalStateException} naming the file and the first failure), and {@link #close()} releases everything
 * without committing, so reopening the file gives its last flush. A failure of a read that changes nothing leaves
 * the structure usable.
 */
public abstract class PagedStructure implements AutoCloseable {
    private final BufferPool pool;
    private final String kind;
    private boolean closed;
    /** The first failure of a change or a flush, after which the structure refuses use; null while usable. */
    private String failure;

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
        try {
            saveState();
            pool.flush();
        } catch (final RuntimeException e) {
            throw failed(e);
        }
    }

    /**
     * Throws if the structure is closed, or refuses use after a change or a flush failed.
     *
     * @throws IllegalStateException naming the file: closed, or (with the first failure) refusing use
     */
    protected final void checkOpen() {
        if (closed) {
            throw new IllegalStateException(kind + " " + pool.file().path() + " is closed");
        }
        if (failure != null) {
            throw new IllegalStateException(kind + " " + pool.file().path() + " refuses use after a failure ("
                    + failure + "); close it and reopen it, which gives its last flush");
        }
    }

    /**
     * Records that a change failed midway, after which the structure refuses use (see the class comment), and
     * returns the failure for the caller to throw.
     *
     * @param <T> the failure's type
     * @param e   what a change threw
     * @return {@code e}
     */
    protected final <T extends Throwable> T failed(final T e) {
        if (failure == null) {
            failure = e.toString();
        }
        return e;
    }

    /**
     * Saves, flushes and closes the file; frees the pool's memory. If saving fails, nothing is committed (the file
     * stays at the last flush) and the pool is still closed and freed. After an earlier failure (see the class
     * comment) it commits nothing, releases everything and throws an {@link IllegalStateException} saying so. Later
     * calls do nothing.
     *
     * @throws UncheckedIOException  naming the file, if saving, committing or closing it fails (everything is
     *                               still released)
     * @throws IllegalStateException naming the file, if an earlier failure left the changes since the last flush
     *                               uncommitted (everything is still released)
     */
    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (failure != null) {
                pool.discard();
                throw new IllegalStateException(kind + " " + pool.file().path() + " closed without committing the "
                        + "changes since its last flush, after a failure (" + failure + ")");
            }
            final ReleaseChain chain = new ReleaseChain().run(this::saveState);
            chain.run(chain.failed() ? pool::discard : pool::close).rethrow();
        } catch (final CorruptFileException e) {
            throw PageFile.unchecked(e);
        } catch (final IOException e) {
            throw new UncheckedIOException("closing " + pool.file().path() + " failed", e);
        }
    }
}
