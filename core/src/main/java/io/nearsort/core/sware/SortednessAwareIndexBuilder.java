package io.nearsort.core.sware;

import io.nearsort.core.AppendableLongIndex;
import io.nearsort.core.Concurrency;
import io.nearsort.core.Indexes;
import io.nearsort.core.btree.BPlusTreeBuilder;
import io.nearsort.core.btree.PagedTree;
import io.nearsort.core.btree.TreeBuilder;
import io.nearsort.core.memory.SlabPool;
import io.nearsort.core.sortedness.AdaptiveSorter;

/**
 * Validated configuration of a {@link SortednessAwareIndex} over a B+-tree (the SA B+-tree, a.k.a. OSM-tree) or
 * a Bε-tree (the SA Bε-tree): the tree's settings are passed on to the {@link TreeBuilder} it is built with.
 * Defaults are SWARE §V "SWARE Tuning": flush 50% of the buffer when full, 80:20 leaf and internal splits,
 * bulk-loaded leaves filled to 95%, query-driven sorting at 10% of the buffer, Bloom filters with 10 bits per
 * entry, and the (K,L)-adaptive sort when K &lt; 20% or L &lt; 5% of the sorted run (§IV-C).
 */
public final class SortednessAwareIndexBuilder {
    /** Buffer capacity used when none is configured, in entries. */
    public static final int DEFAULT_BUFFER_CAPACITY = 1 << 20;
    /** Largest accepted buffer capacity, in entries. */
    public static final int MAX_BUFFER_CAPACITY = 1 << 28;

    private int bufferCapacity = DEFAULT_BUFFER_CAPACITY;
    private double flushFraction = 0.5;
    private boolean sortedBatchesPastBuffer = true;
    private double queryDrivenSortThreshold = 0.10;
    private int bloomBitsPerEntry = 10;
    private double sortKThreshold = AdaptiveSorter.DEFAULT_K_THRESHOLD;
    private double sortLThreshold = AdaptiveSorter.DEFAULT_L_THRESHOLD;
    private Concurrency concurrency = Concurrency.MULTI_WRITER;
    private double splitRatio = 0.8;
    private boolean adaptiveSplitRatio = true;
    private boolean adaptiveFlushFraction = true;
    private long maxBytes = TreeBuilder.NO_MEMORY_BOUND;
    private final TreeBuilder<?> tree;

    /** Use {@link Indexes#saBPlusTree()}. */
    public SortednessAwareIndexBuilder() {
        this(Indexes.bPlusTree().tailLeafInserts(true));
    }

    /**
     * SWARE over the trees {@code tree} builds ({@link Indexes#saBeTree()} passes a Bε-tree's builder), with the
     * tree tuning of §V applied to it: 80:20 splits, bulk-loaded nodes filled to 95%.
     *
     * @param tree the builder of the tree under the buffer; not null, and changed by this builder's settings
     * @throws IllegalArgumentException when {@code tree} is null
     */
    public SortednessAwareIndexBuilder(final TreeBuilder<?> tree) {
        if (tree == null) {
            throw new IllegalArgumentException("tree must not be null");
        }
        this.tree = tree.splitRatio(0.8).bulkFillFactor(TreeBuilder.DEFAULT_BULK_FILL_FACTOR);
    }

    /**
     * Entries the buffer holds, from 1 to 2^28 (default 2^20). The buffer is on the Java heap and its size
     * follows this: about 19.6 bytes per entry when built, about 150 once flushes have sorted it (merge buffers,
     * detached run, sort scratch), so the default takes 20 MiB of heap at first and about 150 MiB in use; see
     * {@link SortednessAwareIndex}'s "Memory" and {@code stats().heapBytes()}.
     *
     * @param entries the buffer's capacity in entries, from 1 to 2<sup>28</sup>
     * @return this builder
     * @throws IllegalArgumentException when {@code entries} is outside [1, 2<sup>28</sup>]
     */
    public SortednessAwareIndexBuilder bufferCapacity(final int entries) {
        if (entries < 1 || entries > MAX_BUFFER_CAPACITY) {
            throw new IllegalArgumentException("bufferCapacity must be in [1, " + MAX_BUFFER_CAPACITY + "] (got: "
                    + entries + ")");
        }
        this.bufferCapacity = entries;
        return this;
    }

    /**
     * Fraction of the (sorted) buffer flushed when it is full and not sorted enough to skip sorting, in (0, 1]
     * (default 0.5, SWARE §IV-A); the rest is kept to absorb entries that arrive late. A full buffer that has
     * received one strictly ascending run since its last flush is flushed whole: it had no late entry to absorb.
     * With {@link #adaptiveFlushFraction} (the default) this is the least a cycle flushes: cycles flush more while
     * the kept part absorbs too few late entries to pay for keeping it.
     *
     * @param fraction fraction of the buffer each flush writes to the tree, in (0, 1]
     * @return this builder
     * @throws IllegalArgumentException when {@code fraction} is outside (0, 1]
     */
    public SortednessAwareIndexBuilder flushFraction(final double fraction) {
        if (!(fraction > 0.0 && fraction <= 1.0)) {
            throw new IllegalArgumentException("flushFraction must be in (0, 1] (got: " + fraction + ")");
        }
        this.flushFraction = fraction;
        return this;
    }

    /**
     * Whether a {@code putAll} batch that is strictly ascending, finds the buffer empty and lies above every key
     * already indexed goes to the tree by one bulk append instead of through the buffer (default true). The
     * buffer would only hold such a batch until a flush cycle appended it to the tree unchanged (§IV-A flushes a
     * strictly ascending buffer whole); passing it by saves copying every entry through the buffer, which is
     * most of what a sorted stream written in batches costs. The price is the one a whole flush already pays: a
     * key that arrives later and belongs among a batch that went past is top-inserted rather than absorbed by the
     * buffer. With false, a batch leaves the buffer, the tree and every counter exactly as one {@code put} per
     * entry would.
     *
     * <p>Over a tree that takes point reads beside its writer (the B+-tree this builder makes), such a batch is
     * written to the tree beside point reads, which see none of it until all of it is there; a
     * {@link io.nearsort.core.Concurrency#SINGLE_WRITER} index's writer takes no buffer lock for it, a
     * multi-writer index's only while it checks the batch. Scans, sizes and statistics wait for it. (Until
     * 2026-11-27 the batch was appended under the buffer's exclusive lock, and a reader beside a writer of sorted
     * batches of 500 got a tenth of the lookups it got with this off.)
     *
     * @param enabled true to bulk-append such batches straight to the tree
     * @return this builder
     */
    public SortednessAwareIndexBuilder sortedBatchesPastBuffer(final boolean enabled) {
        this.sortedBatchesPastBuffer = enabled;
        return this;
    }

    /**
     * Size of the unsorted section, as a fraction of the buffer, above which the next read sorts it into a
     * query-sorted block (§IV-C), in [0, 1]; 0 turns query-driven sorting off (default 0.10).
     *
     * @param fraction the threshold as a fraction of the buffer's capacity, in [0, 1]; 0 for off
     * @return this builder
     * @throws IllegalArgumentException when {@code fraction} is outside [0, 1]
     */
    public SortednessAwareIndexBuilder queryDrivenSortThreshold(final double fraction) {
        if (!(fraction >= 0.0 && fraction <= 1.0)) {
            throw new IllegalArgumentException("queryDrivenSortThreshold must be in [0, 1] (got: " + fraction + ")");
        }
        this.queryDrivenSortThreshold = fraction;
        return this;
    }

    /**
     * Bits per entry of the global and per-zone Bloom filters, 0 to 64; 0 turns them off (default 10). The filters
     * keep each key's bits in one 64-bit word, so that a lookup's probe reads one cache line: about 3.5% of keys
     * not in the buffer pass them at 8 bits, 1.9% at 10, 1.1% at 12 and 0.45% at 16 (each such lookup then
     * searches the buffer before the tree). The filters live on the Java heap.
     *
     * @param bits filter bits per buffered entry, from 0 (no filters) to 64
     * @return this builder
     * @throws IllegalArgumentException when {@code bits} is outside [0, 64]
     */
    public SortednessAwareIndexBuilder bloomBitsPerEntry(final int bits) {
        if (bits < 0 || bits > 64) {
            throw new IllegalArgumentException("bloomBitsPerEntry must be in [0, 64] (got: " + bits + ")");
        }
        this.bloomBitsPerEntry = bits;
        return this;
    }

    /**
     * Thresholds of the sort choice (§IV-C): the (K,L)-adaptive sort runs when the estimated K is below
     * {@code kFraction} or the estimated L below {@code lFraction} of the run; both in [0, 1] (default 0.20,
     * 0.05; the OSM-tree paper used 0.10 for K).
     *
     * @param kFraction the K threshold as a fraction of the run length, in [0, 1]
     * @param lFraction the L threshold as a fraction of the run length, in [0, 1]
     * @return this builder
     * @throws IllegalArgumentException when either fraction is outside [0, 1]
     */
    public SortednessAwareIndexBuilder sortThresholds(final double kFraction, final double lFraction) {
        new AdaptiveSorter(kFraction, lFraction); // validates
        this.sortKThreshold = kFraction;
        this.sortLThreshold = lFraction;
        return this;
    }

    /**
     * Which threads may use the index at once (default {@link Concurrency#MULTI_WRITER}): {@link
     * Concurrency#SINGLE_WRITER} appends without a lock (one writer thread, any readers), {@link
     * Concurrency#PINNED_WRITER} also reads without a lock on the writer's thread, to which it pins writes and
     * close, {@link Concurrency#SINGLE_THREAD} drops all synchronisation. {@link SortednessAwareIndex} states the
     * guarantees.
     *
     * @param mode the threads that may use the index at once; not null
     * @return this builder
     * @throws IllegalArgumentException when {@code mode} is null
     */
    public SortednessAwareIndexBuilder concurrency(final Concurrency mode) {
        if (mode == null) {
            throw new IllegalArgumentException("concurrency must be one of " + java.util.Arrays.toString(
                    Concurrency.values()) + " (got: null)");
        }
        this.concurrency = mode;
        return this;
    }

    /**
     * Leaf and internal split ratio of the tree, in [0.5, 0.95] (default 0.8, SWARE §V): the ratio for in-order
     * data, and the upper end of the adaptive ratio ({@link #adaptiveSplitRatio}).
     *
     * @param ratio fraction of a full node's entries that stay in it on a split, in [0.5, 0.95]
     * @return this builder
     * @throws IllegalArgumentException when {@code ratio} is outside [0.5, 0.95]
     */
    public SortednessAwareIndexBuilder splitRatio(final double ratio) {
        tree.splitRatio(ratio);
        this.splitRatio = ratio;
        return this;
    }

    /**
     * Whether the tree's split ratio follows the data (default true). Each flush sets it between
     * {@link #splitRatio} and 50:50 by the share of the flushed entries that land inside the tree (top-inserts)
     * rather than past its end (bulk appends): 80:20 splits leave half-empty leaves behind entries that arrive
     * in no order, where the textbook 50:50 split does best (SWARE Table I, K = 100%: 1.27x the leaf splits of
     * 50:50). With false, {@link #splitRatio} holds throughout, as in the paper.
     *
     * @param enabled true to let each flush adjust the split ratio, false to keep {@link #splitRatio}
     * @return this builder
     */
    public SortednessAwareIndexBuilder adaptiveSplitRatio(final boolean enabled) {
        this.adaptiveSplitRatio = enabled;
        return this;
    }

    /**
     * Whether each flush cycle sizes the part of the buffer it keeps by what the last one's kept part absorbed
     * (default true). SWARE §IV-A keeps a fixed share, 1 − {@link #flushFraction}, so that entries arriving late
     * land among kept entries rather than being top-inserted; each kept entry is sorted, merged and moved again at
     * the next cycle. When few late entries land in the lower half of the kept part (they arrive later than the
     * buffer reaches back, or hardly any arrive late), a cycle keeps half as much, down to 1/16 of the buffer;
     * when entries land in as long a stretch just below it, it keeps twice as much again, up to
     * 1 − {@code flushFraction}. A stream of late events keeps what its lateness needs, one whose displaced keys
     * come back from further than any buffer holds keeps little. New keys count, rewrites of kept keys do not: a
     * stream rewriting recent keys sends more of its rewrites to leaves the tree has just written, which measured
     * faster than keeping them in the buffer. These cycles also flush no key that arrived ahead of the stream
     * (above the median of the buffer's newest appends, when those lie close together): flushed, it would make
     * every in-order key after it a top-insert. With false, {@code flushFraction} holds throughout, as in the
     * paper. ({@code stats()}: {@code keptPerFlush}, {@code keptShareHalvings}, {@code keptShareDoublings}.)
     *
     * @param enabled true to let each flush cycle size what it keeps, false to keep 1 − {@code flushFraction}
     * @return this builder
     */
    public SortednessAwareIndexBuilder adaptiveFlushFraction(final boolean enabled) {
        this.adaptiveFlushFraction = enabled;
        return this;
    }

    /**
     * Fill factor of bulk-loaded tree nodes, in [0.5, 1.0] (default 0.95).
     *
     * @param fillFactor fraction of a bulk-loaded node's capacity to fill, in [0.5, 1.0]
     * @return this builder
     * @throws IllegalArgumentException when {@code fillFactor} is outside [0.5, 1.0]
     */
    public SortednessAwareIndexBuilder bulkFillFactor(final double fillFactor) {
        tree.bulkFillFactor(fillFactor);
        return this;
    }

    /**
     * Tree node size: a power of two from 512 B to 1 MiB (default 4 KiB).
     *
     * @param pageSize bytes per tree node, a power of two from 512 to 1048576
     * @return this builder
     * @throws IllegalArgumentException when {@code pageSize} is not such a power of two
     */
    public SortednessAwareIndexBuilder pageSize(final int pageSize) {
        tree.pageSize(pageSize);
        return this;
    }

    /**
     * Where the tree's off-heap slabs come from and return to when the index is closed (default
     * {@link SlabPool#shared()}); see {@link TreeBuilder#slabPool}.
     *
     * @param slabPool the pool to take slabs from and return them to; not null
     * @return this builder
     * @throws IllegalArgumentException when {@code slabPool} is null
     */
    public SortednessAwareIndexBuilder slabPool(final SlabPool slabPool) {
        tree.slabPool(slabPool);
        return this;
    }

    /**
     * Whether flushed entries at or above the tree's tail-leaf minimum skip the traversal (default true over a
     * B+-tree; a Bε-tree accepts only false).
     *
     * @param enabled true to send such entries straight to the tail leaf
     * @return this builder
     * @throws IllegalArgumentException when {@code enabled} is true over a Bε-tree
     */
    public SortednessAwareIndexBuilder tailLeafInserts(final boolean enabled) {
        tree.tailLeafInserts(enabled);
        return this;
    }

    /**
     * A bound on the off-heap bytes of the tree's pages (default: none, {@link TreeBuilder#NO_MEMORY_BOUND}); the
     * buffer's heap is bounded by {@link #bufferCapacity} instead. Once the tree's pages reach it, a put or a batch
     * that needs a flush cycle (the buffer is full) is refused with {@link IllegalStateException}: a put changes
     * nothing, a {@code putAll} keeps the entries before the one refused (the message says how many). Reads go
     * on, removes are never refused, and {@link SortednessAwareIndex#flush()} still empties the buffer. A flush
     * cycle under way is never cut short, so the tree may pass the bound by the pages of what one write sends to
     * it: a flush cycle (at most the buffer's capacity of entries), or a sorted batch's run past the buffer (at most
     * eight capacities). Set it here, not on the tree's builder, whose bound would stop a flush cycle half-way.
     *
     * @param bytes the bound in bytes, at least {@value TreeBuilder#MIN_BOUND_PAGES} pages (checked again at
     *              build against the page size then)
     * @return this builder
     * @throws IllegalArgumentException when {@code bytes} is below {@value TreeBuilder#MIN_BOUND_PAGES} pages
     */
    public SortednessAwareIndexBuilder maxBytes(final long bytes) {
        TreeBuilder.checkMaxBytes(bytes, tree.pageSize());
        this.maxBytes = bytes;
        return this;
    }

    /**
     * A new, empty SA index (SA B+-tree or SA Bε-tree) that owns its memory.
     *
     * @return a new, empty index with this builder's settings; the caller closes it
     * @throws IllegalArgumentException when the tree's builder has a memory bound of its own, or
     *                                  {@link #maxBytes} is below {@value TreeBuilder#MIN_BOUND_PAGES} pages
     * @throws IllegalStateException    when the JVM lacks the Agrona export flag
     */
    public SortednessAwareIndex build() {
        if (tree.maxBytes() != TreeBuilder.NO_MEMORY_BOUND) {
            throw new IllegalArgumentException("the tree's builder has maxBytes = " + tree.maxBytes() + ": bound an "
                    + "SA index with SortednessAwareIndexBuilder.maxBytes, which a flush cycle respects");
        }
        TreeBuilder.checkMaxBytes(maxBytes, tree.pageSize()); // the page size may have grown since
        // Point reads go on beside a flush cycle's tree writes (SortednessAwareIndex, "Thread safety") over a
        // B+-tree, which keeps node versions for them; over a Bε-tree they wait for the tree's writer.
        if (tree instanceof BPlusTreeBuilder) {
            ((BPlusTreeBuilder) tree).concurrentReads(concurrency != Concurrency.SINGLE_THREAD);
        }
        return over(tree.build());
    }

    /**
     * A new SA index over {@code tree} (SWARE applies to any tree with bulk append); it takes ownership.
     *
     * @param tree the tree to put under the buffer, which the index closes with itself
     * @return a new index with this builder's buffer settings over {@code tree}
     */
    public SortednessAwareIndex over(final AppendableLongIndex tree) {
        if (tree instanceof PagedTree && ((PagedTree) tree).maxBytes() != TreeBuilder.NO_MEMORY_BOUND) {
            throw new IllegalArgumentException("the tree has maxBytes = " + ((PagedTree) tree).maxBytes()
                    + ": bound an SA index with SortednessAwareIndexBuilder.maxBytes, which a flush cycle respects");
        }
        return new SortednessAwareIndex(tree, this);
    }

    int bufferCapacity() {
        return bufferCapacity;
    }

    double flushFraction() {
        return flushFraction;
    }

    boolean sortedBatchesPastBuffer() {
        return sortedBatchesPastBuffer;
    }

    double queryDrivenSortThreshold() {
        return queryDrivenSortThreshold;
    }

    int bloomBitsPerEntry() {
        return bloomBitsPerEntry;
    }

    Concurrency concurrency() {
        return concurrency;
    }

    double splitRatio() {
        return splitRatio;
    }

    boolean adaptiveSplitRatio() {
        return adaptiveSplitRatio;
    }

    boolean adaptiveFlushFraction() {
        return adaptiveFlushFraction;
    }

    long maxBytes() {
        return maxBytes;
    }

    AdaptiveSorter newSorter() {
        return new AdaptiveSorter(sortKThreshold, sortLThreshold);
    }
}
