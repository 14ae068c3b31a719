package io.nearsort.core.btree;

import io.nearsort.core.AppendableLongIndex;
import io.nearsort.core.IndexStats;
import io.nearsort.core.memory.PageArena;
import io.nearsort.core.view.LongIndexMapView;

import java.util.Locale;
import java.util.NavigableMap;
import java.util.Objects;

/**
 * What the two trees of SWARE's evaluation share as owners of their memory: every node is a page of the tree's
 * own {@link PageArena}, which {@link #close()} returns whole; the {@link NavigableMap} view; the argument checks
 * of bulk append; the node and split counters of {@link #stats()}. {@link BPlusTree} and
 * {@code io.nearsort.core.betree.BeTree} extend it.
 */
public abstract class PagedTree implements AppendableLongIndex {
    /** The arena every node lives in; the tree owns it. */
    protected final PageArena arena;
    private final String name;
    /** {@link TreeBuilder#maxBytes}: no write that needs a page may start at or past it. */
    private final long maxBytes;
    private boolean closed;
    private NavigableMap<Long, Long> view;

    // Counted by the writer for stats() (SWARE §III: splits, top-inserts and bulk loading are what it changes).
    /** Leaves in the tree. */
    protected long leafCount;
    /** Internal nodes in the tree. */
    protected long internalCount;
    /** Leaf splits so far. */
    protected long leafSplits;
    /** Internal node splits so far. */
    protected long internalSplits;
    /** Entries written through the root (top-inserts). */
    protected long topInserts;
    /** Entries written by bulk append. */
    protected long bulkLoadedEntries;

    /**
     * A tree called {@code name} whose nodes are pages of the size {@code config} names.
     *
     * @param name the tree's name in statistics and {@link #toString()}, e.g. {@code "B+-tree"}
     * @param config the validated settings; its page size and slab pool configure the tree's arena
     */
    protected PagedTree(final String name, final TreeBuilder<?> config) {
        TreeBuilder.checkMaxBytes(config.maxBytes(), config.pageSize()); // the page size may have grown since
        this.name = name;
        this.maxBytes = config.maxBytes();
        this.arena = PageArena.builder().pageSize(config.pageSize()).slabPool(config.slabPool()).build();
    }

    @Override
    public NavigableMap<Long, Long> asNavigableMap() {
        ensureOpen();
        if (view == null) {
            view = new LongIndexMapView(this);
        }
        return view;
    }

    /**
     * The checks of {@link #bulkAppend}: {@code [from, to)} within both arrays, keys strictly ascending, the
     * first one above {@link #lastKey()}.
     *
     * @param keys the run's keys
     * @param values the run's values
     * @param from the first index of the run, inclusive
     * @param to the end of the run, exclusive
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of both arrays
     * @throws IllegalArgumentException when the keys are not strictly ascending or the first does not exceed
     *                                  {@link #lastKey()} of a non-empty tree
     */
    protected final void checkRun(final long[] keys, final long[] values, final int from, final int to) {
        Objects.checkFromToIndex(from, to, keys.length);
        Objects.checkFromToIndex(from, to, values.length);
        if (from < to && !isEmpty() && keys[from] <= lastKey()) {
            throw new IllegalArgumentException("keys[" + from + "] must exceed the tree's largest key " + lastKey()
                    + " (got: " + keys[from] + ")");
        }
        for (int i = from + 1; i < to; i++) {
            if (keys[i] <= keys[i - 1]) {
                throw new IllegalArgumentException("keys must be strictly ascending: keys[" + i + "] = " + keys[i]
                        + " follows " + keys[i - 1]);
            }
        }
    }

    /**
     * The statistics both trees report first: {@code size}, {@code height}, node counts, splits, top-inserts and
     * bulk-loaded entries. The tree adds its own counters and ends with {@link #finishStats}.
     *
     * @param size the entries in the tree
     * @param height the tree's levels from root to leaves
     * @return a builder holding those counters, for the tree to add its own
     */
    protected final IndexStats.Builder treeStats(final long size, final int height) {
        return IndexStats.builder(name)
                .counter(IndexStats.SIZE, size)
                .counter(IndexStats.HEIGHT, height)
                .counter(IndexStats.LEAF_COUNT, leafCount)
                .counter(IndexStats.INTERNAL_NODE_COUNT, internalCount)
                .counter(IndexStats.LEAF_SPLITS, leafSplits)
                .counter(IndexStats.INTERNAL_SPLITS, internalSplits)
                .counter(IndexStats.TOP_INSERTS, topInserts)
                .counter(IndexStats.BULK_LOADED_ENTRIES, bulkLoadedEntries);
    }

    /**
     * Adds the arena's bytes and the average fill of leaves of {@code leafCapacity} holding {@code leafEntries}.
     *
     * @param stats the builder {@link #treeStats} returned, with the tree's own counters added
     * @param leafEntries the entries held in all leaves together
     * @param leafCapacity the entries one leaf holds
     * @return the finished snapshot
     */
    protected final IndexStats finishStats(final IndexStats.Builder stats, final long leafEntries,
                                           final int leafCapacity) {
        return stats.counter(IndexStats.BYTES_ALLOCATED, arena.bytesAllocated())
                .counter(IndexStats.BYTES_IN_USE, arena.bytesInUse())
                .averageLeafFill((double) leafEntries / ((double) leafCount * leafCapacity))
                .build();
    }

    /**
     * Bytes still held in pages; 0 after {@link #close()}.
     *
     * @return the bytes of the arena's pages in use; 0 after {@link #close()}
     */
    @Override
    public long bytesInUse() {
        return arena.bytesInUse();
    }

    /**
     * The bound on {@link #bytesInUse()} set by {@link TreeBuilder#maxBytes}.
     *
     * @return the bound in bytes, or {@link TreeBuilder#NO_MEMORY_BOUND} when there is none
     */
    public long maxBytes() {
        return maxBytes;
    }

    /**
     * Refuses a write that needs {@code pages} new pages when they would take {@link #bytesInUse()} past
     * {@link #maxBytes()}; the caller has changed nothing yet.
     *
     * The message is formatted only when the write is refused: callers pass a format and its number rather than a
     * string built on every call (a split of the baseline tree's put built one, ~4% of its time).
     *
     * @param pages   the most pages the write can allocate
     * @param what    the write, for the message, a format with one {@code %d}, e.g. {@code "inserting key %d"}
     * @param operand the number {@code what} names
     * @throws IllegalStateException when the pages do not fit under the bound
     */
    protected final void requirePages(final long pages, final String what, final long operand) {
        if (maxBytes != TreeBuilder.NO_MEMORY_BOUND
                && arena.bytesInUse() > maxBytes - pages * arena.pageSize()) {
            throw memoryBoundReached(String.format(Locale.ROOT, what, operand) + " needs up to " + pages
                    + " new page(s)");
        }
    }

    /**
     * Whether {@link #bytesInUse()} has reached {@link #maxBytes()}.
     *
     * @return true when the tree is bounded and at or past its bound
     */
    protected final boolean atMemoryBound() {
        return maxBytes != TreeBuilder.NO_MEMORY_BOUND && arena.bytesInUse() >= maxBytes;
    }

    /**
     * The exception a write refused by the memory bound throws.
     *
     * @param what the write and what it needs, for the message
     * @return the exception, naming the bytes in use, the bound and the builder option
     */
    protected final IllegalStateException memoryBoundReached(final String what) {
        return new IllegalStateException(name + " memory bound reached: " + what + ", " + arena.bytesInUse()
                + " bytes in use, maxBytes = " + maxBytes + " (TreeBuilder.maxBytes); remove entries or raise the "
                + "bound");
    }

    /**
     * Bytes obtained from the operating system; 0 after {@link #close()}.
     *
     * @return the bytes the arena holds; 0 after {@link #close()}
     */
    public long bytesAllocated() {
        return arena.bytesAllocated();
    }

    /** Returns every page to the arena's slab pool. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }

    /**
     * Fails once the tree is closed.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    public final void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(getClass().getSimpleName() + " is closed");
        }
    }

    /**
     * The tree's name in statistics, e.g. {@code "B+-tree"}.
     *
     * @return the name given to the constructor
     */
    protected final String name() {
        return name;
    }

    @Override
    public String toString() {
        return closed ? name + "{closed}" : name + "{" + shape() + "}";
    }

    /**
     * The tree's shape for {@link #toString()}, e.g. {@code "size=10, height=1"}.
     *
     * @return comma-separated {@code name=value} pairs, without braces
     */
    protected abstract String shape();
}
