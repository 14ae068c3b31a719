package io.nearsort.core.sbtree;

import io.nearsort.core.IndexStats;
import io.nearsort.core.LongCursor;
import io.nearsort.core.LongIndex;
import io.nearsort.core.LongLongConsumer;
import io.nearsort.core.memory.PageArena;
import io.nearsort.core.view.LongIndexMapView;

import java.util.ConcurrentModificationException;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * SB-Tree (Jung, Hwang, Na, Lee, Kim, <i>SB-Tree: A B+-Tree for In-Memory Time Series Databases With Segmented
 * Block</i>, IEEE Access 2025): a concurrent ordered map for time-series ingestion, where keys arrive mostly in
 * increasing order from many threads. Build one with {@link io.nearsort.core.Indexes#sbTree()}.
 *
 * <h2>Design (§III, §IV)</h2>
 * <ul>
 *   <li><b>Data layer</b> ({@link DataLayer}): data blocks in a linked list, each a sorted array of keys and one
 *   of values with an <b>N-ary search table</b> in front ({@link NarySearchTable}); the right-most block is the
 *   <b>segmented block</b>, whose <b>per-thread data blocks</b> take in-order inserts, one per thread, without
 *   contention (§III-C).</li>
 *   <li><b>Shortcut</b> ({@link Shortcut}): a put whose key is at or above the segmented block's fence goes
 *   straight to the thread's per-thread block, no traversal (Algorithm 1, §III-B).</li>
 *   <li><b>Conversion</b> ({@link Conversion}): when a segmented block has handed out its maximum of per-thread
 *   blocks, the next thread installs a new segmented block behind the shortcut, then merges and sorts the full
 *   one with the library's adaptive sort and appends it to the data layer as data blocks (§IV-B).</li>
 *   <li><b>Search layer</b> ({@link SearchLayer}): a B+-tree over the data blocks' fences, built bottom-up and
 *   updated asynchronously by one dedicated thread ({@link SearchLayerThread}) under ROWEX; data blocks it has
 *   not indexed yet are reached by walking the data layer (§IV-C).</li>
 *   <li><b>Delayed data</b>: a key below the shortcut's fence goes through the search layer and a data-layer
 *   walk to its data block, and is inserted under the block's version lock ({@link VersionLock}); a full block
 *   splits (§IV-D).</li>
 *   <li><b>Block allocator</b>: every block has the same size and comes from one {@link PageArena} in its
 *   concurrent mode, whose per-thread free lists make allocation and reuse cheap (§III-E).</li>
 * </ul>
 *
 * <h2>Thread safety and guarantees</h2>
 * Any number of threads may write and read at once.
 * <ul>
 *   <li>{@link #put}, {@link #remove}, {@link #getOrDefault} and {@link #containsKey} are linearizable. Once
 *   {@code put} returns, every read that starts afterwards, in any thread, sees the value or a later write's;
 *   a thread always reads its own writes. Of two writes of one key the later wins; writes that overlap in time
 *   are ordered one way or the other, the same way for every reader ({@link WriteStamps}).</li>
 *   <li>A reader never waits for a conversion: it reads the sealed segmented block until the converted data
 *   blocks replace it in the data layer, both with the same content. A write of a key in the range of a
 *   segmented block being converted waits until the conversion has appended its data blocks (microseconds to
 *   a millisecond); in-order writes go to the new segmented block meanwhile.</li>
 *   <li>{@link #forEachInRange}, {@link #scan} and cursors are weakly consistent, like
 *   {@link java.util.concurrent.ConcurrentSkipListMap}'s iterators: they visit keys in ascending order, each at
 *   most once; every entry present for the whole scan is visited; entries written or removed meanwhile may or may
 *   not be; a visited value is one its key held during the scan. Each data block is copied under its version, so
 *   the consumer may read the index; it must not write to it from inside the scan
 *   ({@link ConcurrentModificationException}).</li>
 *   <li>{@link #size()} is exact when no write overlaps it; under concurrent writes it is a value the index had
 *   around the call, as with {@code ConcurrentSkipListMap}. It merges the segmented block's entries, so it costs
 *   O(entries in the segmented blocks), not O(1).</li>
 * </ul>
 *
 * <h2>Where the paper is silent</h2>
 * <ul>
 *   <li><b>Deletes</b>: a key in the segmented block's range gets a tombstone entry in the thread's per-thread
 *   block (the conversion drops it with the key); a key below is removed from its data block under the lock. An
 *   emptied data block is unlinked by the search-layer thread (its predecessor's range extends over it) and its
 *   memory reused, so deleting old data (retention) gives memory back.</li>
 *   <li><b>Memory</b>: every block is off-heap, in the index's {@link PageArena}; nothing is on the heap per
 *   entry. Blocks that leave the index are freed once no reader can hold them ({@link EpochReclamation}).
 *   {@link SBTreeBuilder#maxBytes} bounds the memory softly: puts that need a new block are then refused with
 *   {@link IllegalStateException}, reads and removes go on (a remove's tombstone may take one per-thread block
 *   past the bound).</li>
 *   <li><b>Threads and closing</b>: the search-layer thread starts with the index's first background work (a
 *   few conversions in), so a small index costs no thread. {@link #close()} refuses new operations, waits for
 *   operations under way (and for every writer between its reservation and its publication), stops and joins
 *   the search-layer thread and frees every byte; any later call throws {@link IllegalStateException}. Calling
 *   it from inside a scan's consumer throws. <b>{@code close()} is required</b>: the index registers no
 *   {@link java.lang.ref.Cleaner}, so an index dropped without it keeps its off-heap memory and its (daemon,
 *   idle-parked) search-layer thread until the JVM exits.</li>
 * </ul>
 * Every {@code long} is a valid key and value; {@link Long#MAX_VALUE} in the segmented block makes the next one
 * take no key (every later key is delayed data), without any sentinel.
 */
public final class SBTree implements LongIndex {
    /** Segmented blocks converted into data blocks (§IV-B). */
    public static final String CONVERSIONS = "conversions";
    /** Entries the conversions appended to the data layer. */
    public static final String CONVERTED_ENTRIES = "convertedEntries";
    /** Puts that went through the shortcut into a per-thread data block (§III-B); removes are not counted. */
    public static final String SHORTCUT_INSERTS = "shortcutInserts";
    /** Removes that went through the shortcut as a tombstone entry in a per-thread data block. */
    public static final String SHORTCUT_REMOVES = "shortcutRemoves";
    /** New keys inserted into data blocks as delayed data (§IV-D). */
    public static final String DELAYED_INSERTS = "delayedInserts";
    /** Overwrites of keys already in data blocks (delayed path). */
    public static final String DELAYED_UPDATES = "delayedUpdates";
    /** Removes that took a key out of a data block (those in the segmented block's range are tombstones). */
    public static final String DATA_BLOCK_REMOVES = "dataBlockRemoves";
    /** Steps along the data layer after the search layer (§IV-C, §V-B: "data layer traversals"). */
    public static final String DATA_LAYER_WALK_STEPS = "dataLayerWalkSteps";
    /** Walks restarted from the search layer because they reached an unlinked block. */
    public static final String SEARCH_LAYER_RESTARTS = "searchLayerRestarts";
    /** Data blocks created and not yet indexed by the search-layer thread (§VI-A-1: "stale search layer"). */
    public static final String SEARCH_LAYER_LAG = "searchLayerLag";
    /** Data blocks split by delayed inserts. */
    public static final String BLOCK_SPLITS = "blockSplits";
    /** Of those, splits where an ascending stretch of delayed inserts landed rather than 50:50 (§IV-D). */
    public static final String ASCENDING_SPLITS = "ascendingSplits";
    /** Data blocks in the data layer. */
    public static final String DATA_BLOCKS = "dataBlocks";
    /** Search blocks (nodes of the search layer). */
    public static final String SEARCH_BLOCKS = "searchBlocks";
    /** Data blocks unlinked after deletes emptied them. */
    public static final String UNLINKED_BLOCKS = "unlinkedBlocks";
    /** Times a write or a conversion waited for a conversion to finish. */
    public static final String CONVERSION_WAITS = "conversionWaits";
    /** Blocks retired and not yet freed (waiting for readers to move on). */
    public static final String BLOCKS_AWAITING_RECLAMATION = "blocksAwaitingReclamation";

    private static final String NAME = "SB-Tree";
    private static final AtomicLong INDEXES = new AtomicLong();

    private final PageArena arena;
    private final int blockSize;
    private final int maxSlots;
    private final long maxBytes;
    private final PerThreadBlockDescriptor ptb;
    private final DataBlockDescriptor dataBlocks;
    private final WriteStamps stamps = new WriteStamps();
    private final ContextRegistry registry = new ContextRegistry();
    private final EpochReclamation reclamation = new EpochReclamation();
    private final SearchLayer searchLayer;
    private final DataLayer dataLayer;
    private final Conversion conversion;
    private final SearchLayerThread searchLayerThread;
    private final ThreadLocal<ThreadContext> contexts;
    private volatile Shortcut shortcut;
    private volatile boolean closed;
    private volatile NavigableMap<Long, Long> view;

    SBTree(final SBTreeBuilder config) {
        this.arena = config.newArena();
        this.blockSize = config.blockSize();
        this.maxSlots = config.maxPerThreadBlocks();
        this.maxBytes = config.maxBytes();
        this.ptb = new PerThreadBlockDescriptor(blockSize, config.perThreadBlockCapacity());
        this.dataBlocks = new DataBlockDescriptor(blockSize, config.searchTableBucket());
        final SearchBlockDescriptor searchBlocks = new SearchBlockDescriptor(blockSize);
        final int fillTarget = Math.max(1, (int) Math.floor(config.fillFactor() * dataBlocks.capacity));
        final long head = arena.allocate();
        final long segmented = arena.allocate();
        SegmentedBlock.format(segmented, Long.MIN_VALUE, false, 0, maxSlots);
        DataBlock.format(head, Long.MIN_VALUE, segmented);
        this.searchLayer = new SearchLayer(searchBlocks, arena, reclamation, head);
        this.dataLayer = new DataLayer(dataBlocks, ptb, arena, searchLayer, reclamation, fillTarget, head,
                this::mayAllocate);
        this.shortcut = new Shortcut(segmented, Long.MIN_VALUE, false, 0);
        this.searchLayerThread = new SearchLayerThread(searchLayer, reclamation, registry, arena,
                INDEXES.incrementAndGet());
        this.conversion = new Conversion(ptb, arena, registry, reclamation, dataLayer, s -> this.shortcut = s,
                searchLayerThread::noteWork);
        this.dataLayer.attach(searchLayerThread);
        this.searchLayerThread.attach(dataLayer);
        this.contexts = ThreadLocal.withInitial(() -> registry.register(Thread.currentThread()));
    }

    // ------------------------------------------------------------------ writes (Algorithm 1)

    @Override
    public void put(final long key, final long value) {
        write(key, value, false);
    }

    /**
     * Removes {@code key}: a tombstone in the segmented block's range, an in-place delete in a data block
     * otherwise.
     */
    @Override
    public void remove(final long key) {
        write(key, 0L, true);
    }

    private void write(final long key, final long value, final boolean tombstone) {
        final ThreadContext context = context();
        if (context.scanDepth > 0) {
            throw new ConcurrentModificationException("cannot write to the SBTree from inside one of its scans");
        }
        for (int spins = 0; ; spins++) {
            final Shortcut s = shortcut;
            if (s.takes(key)) {
                // ShortcutInsert (Algorithm 1, line 2).
                if (appendToSegmentedBlock(context, s, key, value, tombstone)) {
                    return;
                }
                if (shortcut == s) {
                    ensureUsable();
                    VersionLock.backOff(spins); // the converting thread is about to install the next block
                }
                continue;
            }
            // Delayed data (Algorithm 1, lines 4-7).
            reclamation.enter(context);
            try {
                ensureUsable();
                if (tombstone) {
                    dataLayer.remove(context, key);
                } else {
                    dataLayer.put(context, key, value);
                }
            } finally {
                reclamation.exit(context);
            }
            return;
        }
    }

    /**
     * Appends an entry to the thread's per-thread data block in segmented block {@code s} (§IV-A).
     *
     * @return false when the block is sealed or full and the shortcut must move on first
     */
    private boolean appendToSegmentedBlock(final ThreadContext context, final Shortcut s, final long key,
                                           final long value, final boolean tombstone) {
        if (context.shortcut != s && !acquirePerThreadBlock(context, s, tombstone)) {
            return false;
        }
        long word = context.wordPlain();
        if (ThreadContext.count(word) == ptb.capacity && !ThreadContext.isBlocked(word)) {
            // Full: a fresh per-thread block in the same segmented block (§IV-A).
            if (!acquirePerThreadBlock(context, s, tombstone)) {
                return false;
            }
            word = context.wordPlain();
        }
        final int stamp = stamps.stamp(context.id, key) << 1 | (tombstone ? PerThreadBlockDescriptor.TOMBSTONE : 0);
        if (ThreadContext.isBlocked(word) || !context.casWord(word, word + 1)) {
            blocked(context);
            return false;
        }
        final int index = ThreadContext.count(word);
        final long block = context.perThreadBlock;
        final boolean ascending = context.blockAscending && (index == 0 || key > context.blockMax);
        final boolean newMin = key < context.blockMin;
        final boolean newMax = key > context.blockMax;
        PerThreadBlock.write(ptb, block, index, key, value, stamp, ascending, newMin, newMax);
        PerThreadBlock.publish(block, index + 1);
        context.blockAscending = ascending;
        if (newMin) {
            context.blockMin = key;
        }
        if (newMax) {
            context.blockMax = key;
        }
        if (tombstone) {
            context.shortcutRemoves++;
        } else {
            context.shortcutInserts++;
        }
        return true;
    }

    /** The reservation word is sealed or closed: forget the block, or report the close. */
    private void blocked(final ThreadContext context) {
        if ((context.word() & ThreadContext.CLOSED) != 0) {
            throw closedException();
        }
        context.shortcut = null;
    }

    /**
     * Takes a slot of segmented block {@code s} and installs a fresh per-thread data block in it, or, for the
     * thread that takes the slot past the maximum, converts the segmented block (§IV-A, §IV-B).
     *
     * <p>The memory bound ({@link SBTreeBuilder#maxBytes}) refuses the block to a put, never to a remove: a
     * tombstone needs a per-thread block like a put does, and refusing it would refuse the very writes that give
     * memory back. A remove may so take one block past the bound.
     *
     * @return whether the thread now has a block in {@code s}
     */
    private boolean acquirePerThreadBlock(final ThreadContext context, final Shortcut s, final boolean tombstone) {
        reclamation.enter(context);
        try {
            ensureUsable();
            if (shortcut != s) {
                return false; // read inside the epoch: s's block cannot be freed while we use it
            }
            if (SegmentedBlock.slotsClaimed(s.block) > maxSlots) {
                context.shortcut = null;
                return false; // full, and converting: its thread is about to install the next block
            }
            final int slot = SegmentedBlock.claimSlot(s.block);
            if (slot > maxSlots) {
                context.shortcut = null;
                return false;
            }
            if (slot == maxSlots) {
                context.shortcut = null;
                conversion.convert(context, s);
                return false;
            }
            if (!tombstone) {
                checkMemory();
            }
            final long block = arena.allocate();
            final int generation = (context.generation + 1) & ThreadContext.GENERATION_MASK;
            PerThreadBlock.format(block, context.id, generation, slot);
            while (true) {
                final long word = context.word();
                if ((word & ThreadContext.CLOSED) != 0) {
                    arena.free(block);
                    throw closedException();
                }
                if (context.casWord(word, ThreadContext.word(generation, 0))) {
                    break;
                }
            }
            // After the word: close() reads the block of a word that has reservations, and there are none in this
            // generation until this thread makes them, after this store.
            context.perThreadBlock = block;
            context.generation = generation;
            if (!SegmentedBlock.install(s.block, slot, block)) {
                // The conversion closed the slot first: the block was never visible.
                context.seal(generation, ThreadContext.SEALED);
                context.shortcut = null;
                arena.free(block);
                return false;
            }
            context.shortcut = s;
            context.blockMin = Long.MAX_VALUE;
            context.blockMax = Long.MIN_VALUE;
            context.blockAscending = true;
            return true;
        } finally {
            reclamation.exit(context);
        }
    }

    private void checkMemory() {
        if (!mayAllocate()) {
            throw new IllegalStateException("SBTree memory limit reached: " + arena.bytesInUse()
                    + " bytes in use, maxBytes = " + maxBytes + " (SBTreeBuilder.maxBytes); remove entries or "
                    + "raise the limit");
        }
    }

    /** Whether the memory bound lets a write allocate a block ({@link SBTreeBuilder#maxBytes}). */
    private boolean mayAllocate() {
        return maxBytes == Long.MAX_VALUE || arena.bytesInUse() < maxBytes;
    }

    // ------------------------------------------------------------------ reads (Algorithms 2 and 3)

    @Override
    public long getOrDefault(final long key, final long defaultValue) {
        final ThreadContext context = context();
        reclamation.enter(context);
        try {
            ensureUsable();
            return lookup(context, key) == SegmentedBlock.FOUND ? context.valueOut[0] : defaultValue;
        } finally {
            reclamation.exit(context);
        }
    }

    @Override
    public boolean containsKey(final long key) {
        final ThreadContext context = context();
        reclamation.enter(context);
        try {
            ensureUsable();
            return lookup(context, key) == SegmentedBlock.FOUND;
        } finally {
            reclamation.exit(context);
        }
    }

    /** Inside an epoch: the shortcut for recent keys (§III-B), the search and data layers for the others. */
    private int lookup(final ThreadContext context, final long key) {
        final Shortcut s = shortcut;
        return s.takes(key) ? SegmentedBlock.lookup(ptb, s.block, key, context.valueOut)
                : dataLayer.lookup(context, key);
    }

    @Override
    public long forEachInRange(final long lo, final long hi, final LongLongConsumer consumer) {
        Objects.requireNonNull(consumer, "consumer");
        final ThreadContext context = context();
        if (lo > hi) {
            ensureUsableOutside(context);
            return 0;
        }
        return scanFrom(context, lo, hi, Long.MAX_VALUE, consumer);
    }

    /**
     * {@code Scan(startKey, count)} of Algorithm 3: visits up to {@code count} entries from the first key
     * {@code >= startKey} on, in ascending order, with the guarantees of {@link #forEachInRange}.
     *
     * @param startKey the smallest key to visit, inclusive; any long
     * @param count the most entries to visit, {@code >= 0}
     * @param consumer receives each entry's key and value; not null
     * @return the number of entries visited
     * @throws IllegalArgumentException when {@code count} is negative
     */
    public long scan(final long startKey, final long count, final LongLongConsumer consumer) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0 (got: " + count + ")");
        }
        Objects.requireNonNull(consumer, "consumer");
        final ThreadContext context = context();
        if (count == 0) {
            ensureUsableOutside(context);
            return 0;
        }
        return scanFrom(context, startKey, Long.MAX_VALUE, count, consumer);
    }

    private long scanFrom(final ThreadContext context, final long lo, final long hi, final long limit,
                          final LongLongConsumer consumer) {
        reclamation.enter(context);
        final boolean nested = context.scanDepth > 0;
        context.scanDepth++;
        try {
            ensureUsable();
            return dataLayer.scan(context, lo, hi, limit, consumer, nested);
        } finally {
            context.scanDepth--;
            reclamation.exit(context);
        }
    }

    /**
     * The smallest entry with a key {@code >= key} into {@code out}, for cursors; a segmented block that gives it
     * is kept merged in {@code snapshot}.
     */
    boolean seekCeiling(final long key, final long[] out, final CursorSnapshot snapshot) {
        final ThreadContext context = context();
        reclamation.enter(context);
        final boolean nested = context.scanDepth > 0;
        context.scanDepth++;
        try {
            ensureUsable();
            return dataLayer.scan(context, key, Long.MAX_VALUE, 1, (k, v) -> {
                out[0] = k;
                out[1] = v;
            }, nested, snapshot) == 1;
        } finally {
            context.scanDepth--;
            reclamation.exit(context);
        }
    }

    /** Throws when the index is closed or unusable (for cursor moves that read nothing). */
    void ensureOpen() {
        ensureUsableOutside(context());
    }

    /**
     * The largest entry with a key {@code <= key} into {@code out}, for cursors; a segmented block that gives it
     * is kept merged in {@code snapshot}.
     */
    boolean seekFloor(final long key, final long[] out, final CursorSnapshot snapshot) {
        final ThreadContext context = context();
        reclamation.enter(context);
        try {
            ensureUsable();
            return dataLayer.floor(context, key, out, context.scanDepth > 0, snapshot);
        } finally {
            reclamation.exit(context);
        }
    }

    /**
     * Moves a cursor one entry ({@code direction} +1 or -1) within its snapshot of a segmented block, into
     * {@code out}, if the block is unchanged since the snapshot was merged: then the entry is the one a fresh
     * seek would find now. Inside an epoch, so the block cannot be freed while its slots are read: if it had left
     * the list, the conversion sequence would have moved first.
     *
     * @return false when the cursor must seek instead (the step leaves the snapshot, or the block changed)
     */
    boolean stepInSnapshot(final CursorSnapshot snapshot, final int direction, final long[] out) {
        final int at = snapshot.target(direction);
        if (at < 0) {
            return false;
        }
        final ThreadContext context = context();
        reclamation.enter(context);
        try {
            ensureUsable();
            if (dataLayer.conversionSequence() != snapshot.sequence
                    || !snapshot.merge().unchangedSince(snapshot.block)) {
                snapshot.invalidate();
                return false;
            }
            snapshot.position = at;
            out[0] = snapshot.merge().keys()[at];
            out[1] = snapshot.merge().values()[at];
            return true;
        } finally {
            reclamation.exit(context);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Sums the entries of the data blocks (kept per thread) and merges the segmented blocks not yet converted.
     */
    @Override
    public long size() {
        final ThreadContext context = context();
        reclamation.enter(context);
        try {
            ensureUsable();
            final SegmentedBlockMerge merge = context.scanDepth > 0 ? new SegmentedBlockMerge(ptb)
                    : dataLayer.merge(context);
            for (int spins = 0; ; spins++) {
                final long before = dataLayer.conversionSequence();
                if ((before & 1) != 0) {
                    VersionLock.backOff(spins);
                    continue;
                }
                long size = dataEntries();
                for (long block = BlockHeader.next(dataLayer.tail()); block != 0; block = BlockHeader.next(block)) {
                    if (BlockHeader.isSegmented(block)) {
                        size += merge.mergeSegmentedBlock(block, Long.MIN_VALUE, Long.MAX_VALUE);
                    }
                }
                if (dataLayer.conversionSequence() == before) {
                    return size;
                }
            }
        } finally {
            reclamation.exit(context);
        }
    }

    private long dataEntries() {
        final long[] sum = new long[1];
        registry.withRetired(retired -> {
            sum[0] = retired.dataEntries();
            for (final ThreadContext c : registry.snapshot()) {
                sum[0] += c.dataEntries();
            }
        });
        return sum[0];
    }

    @Override
    public LongCursor cursor() {
        ensureUsableOutside(context());
        return new SBTreeCursor(this);
    }

    @Override
    public NavigableMap<Long, Long> asNavigableMap() {
        ensureUsableOutside(context());
        NavigableMap<Long, Long> v = view;
        if (v == null) {
            v = new LongIndexMapView(this);
            view = v;
        }
        return v;
    }

    // ------------------------------------------------------------------ statistics

    /**
     * {@inheritDoc}
     *
     * <p>Counters are summed over threads without stopping them; under concurrent writes they are a recent, not
     * an atomic, picture. {@code height} counts the search layer's levels plus the data layer.
     */
    @Override
    public IndexStats stats() {
        final ThreadContext context = context();
        ensureUsableOutside(context);
        final ThreadContext sum = new ThreadContext(0, null);
        registry.withRetired(retired -> {
            sum.addStatistics(retired);
            for (final ThreadContext c : registry.snapshot()) {
                sum.addStatistics(c);
            }
        });
        final long dataBlockCount = 1 + sum.blocksCreated - searchLayerThread.blocksUnlinked();
        final long dataEntries = sum.dataEntries;
        final long size = size();
        return IndexStats.builder(NAME)
                .counter(IndexStats.SIZE, size)
                .counter(IndexStats.HEIGHT, searchLayer.height() + 1L)
                .counter(IndexStats.LEAF_COUNT, dataBlockCount)
                .counter(IndexStats.INTERNAL_NODE_COUNT, searchLayer.searchBlocks())
                .counter(IndexStats.LEAF_SPLITS, sum.blockSplits)
                .counter(IndexStats.TAIL_LEAF_INSERTS, sum.shortcutInserts)
                .counter(IndexStats.TOP_INSERTS, sum.delayedInserts)
                .counter(CONVERSIONS, sum.conversions)
                .counter(CONVERTED_ENTRIES, sum.convertedEntries)
                .counter(SHORTCUT_INSERTS, sum.shortcutInserts)
                .counter(SHORTCUT_REMOVES, sum.shortcutRemoves)
                .counter(DELAYED_INSERTS, sum.delayedInserts)
                .counter(DELAYED_UPDATES, sum.delayedUpdates)
                .counter(DATA_BLOCK_REMOVES, sum.removes)
                .counter(DATA_LAYER_WALK_STEPS, sum.walkSteps)
                .counter(SEARCH_LAYER_RESTARTS, sum.searchLayerRestarts)
                .counter(SEARCH_LAYER_LAG, Math.max(0, sum.blocksCreated - searchLayerThread.blocksIndexed()))
                .counter(BLOCK_SPLITS, sum.blockSplits)
                .counter(ASCENDING_SPLITS, sum.ascendingSplits)
                .counter(DATA_BLOCKS, dataBlockCount)
                .counter(SEARCH_BLOCKS, searchLayer.searchBlocks())
                .counter(UNLINKED_BLOCKS, searchLayerThread.blocksUnlinked())
                .counter(CONVERSION_WAITS, sum.conversionWaits)
                .counter(BLOCKS_AWAITING_RECLAMATION, reclamation.blocksInLimbo())
                .counter(IndexStats.BYTES_ALLOCATED, arena.bytesAllocated())
                .counter(IndexStats.BYTES_IN_USE, arena.bytesInUse())
                .averageLeafFill(Math.max(0.0, Math.min(1.0, (double) dataEntries
                        / ((double) dataBlockCount * dataBlocks.capacity))))
                .build();
    }

    /**
     * Off-heap bytes in blocks in use (data, segmented, per-thread, search and retired blocks); 0 after close.
     *
     * @return the bytes of the blocks in use; 0 after close
     */
    public long bytesInUse() {
        return arena.bytesInUse();
    }

    /**
     * Off-heap bytes obtained for slabs; 0 after close.
     *
     * @return the bytes of every slab the index holds; 0 after close
     */
    public long bytesAllocated() {
        return arena.bytesAllocated();
    }

    /**
     * Entries a data block holds.
     *
     * @return the data block capacity, fixed by the block size
     */
    public int dataBlockCapacity() {
        return dataBlocks.capacity;
    }

    /**
     * Entries a per-thread data block holds.
     *
     * @return the per-thread data block capacity: {@link SBTreeBuilder#perThreadBlockCapacity} or all that fit
     */
    public int perThreadBlockCapacity() {
        return ptb.capacity;
    }

    /** The block allocator, for tests that make an allocation fail. */
    PageArena arena() {
        return arena;
    }

    /** The search-layer thread, for tests that check it ends with the index. */
    Thread searchLayerThread() {
        return searchLayerThread.thread();
    }

    /**
     * Waits until the search-layer thread has applied every request made so far (tests and benchmarks that
     * want the search layer caught up).
     *
     * @return false when it did not within {@code timeoutMillis}
     */
    boolean awaitSearchLayer(final long timeoutMillis) {
        final long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        searchLayerThread.start();
        for (int spins = 0; !searchLayerThread.isIdle(); spins++) {
            if (System.nanoTime() > deadline || searchLayerThread.failure() != null) {
                return false;
            }
            searchLayerThread.wake();
            VersionLock.backOff(spins);
        }
        return true;
    }

    /** Holds the search-layer thread back, or lets it go on (tests of a lagging search layer). */
    void pauseSearchLayer(final boolean pause) {
        if (pause) {
            searchLayerThread.pause();
        } else {
            searchLayerThread.resume();
        }
    }

    DataLayer dataLayer() {
        return dataLayer;
    }

    SearchLayer searchLayer() {
        return searchLayer;
    }

    DataBlockDescriptor dataBlockDescriptor() {
        return dataBlocks;
    }

    PerThreadBlockDescriptor perThreadBlockDescriptor() {
        return ptb;
    }

    Shortcut shortcut() {
        return shortcut;
    }

    long sumDataEntries() {
        return dataEntries();
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * Refuses new operations, waits for those under way, stops the search-layer thread and frees every off-heap
     * byte. Idempotent.
     *
     * @throws IllegalStateException when called from inside one of this index's scans
     */
    @Override
    public void close() {
        final ThreadContext[] all;
        synchronized (this) {
            if (closed) {
                return;
            }
            for (final ThreadContext c : registry.snapshot()) {
                if (c.owner() == Thread.currentThread() && c.epochDepth > 0) {
                    throw new IllegalStateException("cannot close the SBTree from inside one of its scans");
                }
            }
            closed = true;
            all = registry.close();
        }
        // The search-layer thread first: it frees retired blocks and drops the contexts of ended threads, and
        // below we read per-thread blocks outside any epoch; once it is joined, no block is freed until the
        // arena closes.
        searchLayerThread.stop();
        // Writers: no reservation after this, and every reservation made is published before memory goes.
        for (final ThreadContext c : all) {
            while (true) {
                final long word = c.word();
                if ((word & ThreadContext.CLOSED) != 0) {
                    break;
                }
                if (c.casWord(word, word | ThreadContext.CLOSED)) {
                    final int reserved = ThreadContext.count(word);
                    // An ended thread published every entry it reserved (it writes and publishes in one call), and
                    // a conversion that found its context dropped did not seal its word: its block may be freed.
                    if ((word & ThreadContext.SEALED) == 0 && reserved > 0 && !c.ownerGone()) {
                        for (int spins = 0; PerThreadBlock.published(ptb, c.perThreadBlock) < reserved; spins++) {
                            VersionLock.backOff(spins);
                        }
                    }
                    break;
                }
            }
        }
        // Readers and delayed writers: they check the flag after entering, so waiting for them to leave suffices.
        for (final ThreadContext c : all) {
            for (int spins = 0; c.epoch() != 0; spins++) {
                VersionLock.backOff(spins);
            }
        }
        arena.close();
    }

    private ThreadContext context() {
        try {
            return contexts.get();
        } catch (final IllegalStateException e) {
            throw closedException(); // registration refused after close
        }
    }

    /** Inside an epoch: throws when closed or when the background work failed. */
    private void ensureUsable() {
        if (closed) {
            throw closedException();
        }
        final Throwable failed = searchLayerThread.failure();
        if (failed != null) {
            throw new IllegalStateException("the SBTree's search-layer thread failed; the index is unusable", failed);
        }
        final Throwable conversionFailed = conversion.failure();
        if (conversionFailed != null) {
            throw new IllegalStateException("a conversion failed; the SBTree is unusable", conversionFailed);
        }
    }

    private void ensureUsableOutside(final ThreadContext context) {
        reclamation.enter(context);
        try {
            ensureUsable();
        } finally {
            reclamation.exit(context);
        }
    }

    private static IllegalStateException closedException() {
        return new IllegalStateException("SBTree is closed");
    }

    @Override
    public String toString() {
        return closed ? NAME + "{closed}" : NAME + "{blockSize=" + blockSize + ", maxPerThreadBlocks=" + maxSlots + "}";
    }
}
