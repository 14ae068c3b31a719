package io.nearsort.core.sware;

import io.nearsort.core.AppendableLongIndex;
import io.nearsort.core.Concurrency;
import io.nearsort.core.IndexStats;
import io.nearsort.core.LongCursor;
import io.nearsort.core.LongIndex;
import io.nearsort.core.LongLongConsumer;
import io.nearsort.core.btree.TreeBuilder;
import io.nearsort.core.sortedness.AdaptiveSorter;
import io.nearsort.core.sortedness.StableMergeSort;
import io.nearsort.core.view.LongIndexMapView;

import java.util.ConcurrentModificationException;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A sortedness-aware index (SWARE, ICDE; OSM-tree, VLDB): the SWARE buffer in front of any tree that supports
 * bulk append. Over a B+-tree ({@link io.nearsort.core.Indexes#saBPlusTree()}) this is the SA B+-tree, over a
 * Bε-tree ({@link io.nearsort.core.Indexes#saBeTree()}) the SA Bε-tree.
 *
 * <p>Writes go to the buffer; when it is full, the sorted prefix up to {@code lastSortedZone} is flushed
 * without sorting if it lies in the first half, otherwise the buffer is sorted ((K,L)-adaptive or merge sort,
 * §IV-C) and the first {@code flushFraction} is flushed (all of it when the buffer has received one strictly
 * ascending run since its last flush: no late entry to absorb; more of it while the kept part absorbs too few
 * late entries to pay for itself, {@link FlushRetention}); each flushed zone is bulk-appended when its
 * first key exceeds the tree's largest key and top-inserted otherwise, re-checking every zone (§IV-A). Point
 * reads check the buffer's zonemap, the unsorted section newest-first behind Bloom filters and zonemaps, the
 * sorted runs with interpolation search, then the tree (§IV-B). Unlike the paper, appends do not feed the
 * Bloom filters: the first lookup after a run of appends adds them, so ingest-only phases skip that cost
 * (about 23 ns per append on the reference machine) and lookups see the same filters. Deletes inside the
 * buffer's key range are buffered as tombstones, others go to the tree (§IV-D).
 *
 * <h2>Memory</h2>
 * The tree's nodes are off-heap, in its arena; the buffer is on the Java heap and sized by
 * {@link SortednessAwareIndexBuilder#bufferCapacity}: 17 bytes per entry of capacity for the entries plus its
 * Bloom filters (2.5 bytes per entry at 10 bits) as soon as the index is built, about 19.6 MiB for the default
 * 2<sup>20</sup> entries; the first flush that sorts adds merge buffers and a detached run (17 bytes per entry
 * each) and sort scratch (up to about 100 bytes per entry sorted). Measured with the default capacity: 114.8 MiB
 * after 4M nearly sorted puts, 156.2 MiB after 4M scrambled ones, so budget about 150 bytes per entry of capacity.
 * {@link #stats()} reports it as {@link io.nearsort.core.IndexStats#HEAP_BYTES}, the tree's off-heap bytes as
 * {@link io.nearsort.core.IndexStats#BYTES_ALLOCATED}. {@link #close} frees the off-heap memory; the heap arrays
 * are collected with the index object. {@link SortednessAwareIndexBuilder#maxBytes} bounds the tree's pages: once
 * they reach it, writes that need a flush cycle are refused.
 *
 * <h2>Thread safety and guarantees</h2>
 * Chosen on the builder ({@link SortednessAwareIndexBuilder#concurrency}):
 * <ul>
 *   <li>{@link Concurrency#MULTI_WRITER} (the default): any number of threads, described below.</li>
 *   <li>{@link Concurrency#SINGLE_WRITER}: one thread writes at a time, any number read meanwhile. A write that
 *   appends to a buffer with room for it (the common case: all but one in {@code flushFraction × capacity}
 *   writes) takes no lock and no atomic read-modify-write: the writer fills the buffer's arrays and publishes
 *   the new size with an ordered store, and readers read only the entries below the size they loaded (see
 *   {@link SwareBuffer}'s "Publication"). Point reads ({@link #getOrDefault}, {@link #containsKey}) take no lock
 *   either: each marks a slot of its thread's own ({@code ReadIndicator}: a volatile store and a release store,
 *   no compare-and-set; {@link #getAll} marks once per chunk of keys), and every holder of the exclusive lock
 *   first stops new marks and waits until no slot is marked, so a point read excludes reorganisations exactly
 *   as the shared lock does; while a writer holds the exclusive lock, point reads take the shared lock and wait
 *   for it. A marked read reads the tree without the version checks that let it read beside the tree's writer
 *   ({@link io.nearsort.core.AppendableLongIndex#getOrDefaultByWriter}) unless the one tree write a marked read
 *   cannot see coming, a sorted batch past the empty buffer, is running: the writer announces it and waits for
 *   the lookups reading without checks, one lookup at most each ({@code ReadIndicator.readsAlone}); a flush
 *   cycle's run on its way to the tree is read with the checks, as in the default mode. Scans, sizes and
 *   statistics take the shared lock. Writes that reorganise (a flush cycle, a delete,
 *   {@link #flush}) take the exclusive lock as in the default mode, but the writer sorts a full buffer for its
 *   flush cycle before it takes the lock, into buffers no reader reads ({@code SwareBuffer.sortAhead}), so that
 *   readers wait only for the cycle's install, detach and reset. Reads do not sort the buffer in place (the
 *   writer may be appending to it): a read that would set off query-driven sorting (§IV-C) asks the writer to do
 *   it at its next write, and a range read merges a private sorted copy of the unsorted entries in its range.
 *   Two threads found writing at once get a {@link ConcurrentModificationException} (a best-effort check, as
 *   {@code HashMap}'s: a race it misses may corrupt the buffer).</li>
 *   <li>{@link Concurrency#PINNED_WRITER}: as {@link Concurrency#SINGLE_WRITER}, with the writer pinned to the
 *   first thread that writes. Another thread's write, or its close while that thread is alive, gets an
 *   {@link IllegalStateException} (checked under the exclusive lock: none escapes it once the first write has
 *   returned). In exchange the owner's point reads ({@link #getOrDefault}, {@link #containsKey}) take no lock
 *   and mark no slot, and read the tree without the version checks that let other threads read it beside its
 *   writer ({@link io.nearsort.core.AppendableLongIndex#getOrDefaultByWriter}): nothing but the owner changes the
 *   buffer or the tree, or frees them. Other threads read as beside a single writer; the owner's scans, sizes
 *   and statistics take the shared lock as theirs do.</li>
 *   <li>{@link Concurrency#SINGLE_THREAD}: no synchronisation at all, reads included, and read counters are
 *   plain counts, so a lookup executes no atomic instruction; the same best-effort check of two writers.</li>
 * </ul>
 * The guarantees below hold in every mode, for the threads the mode allows.
 *
 * <p>With {@link Concurrency#MULTI_WRITER}, safe for any number of threads. Writes ({@link #put},
 * {@link #remove}) change the buffer under its exclusive
 * lock, reads hold its shared lock; a read that triggers query-driven sorting (§IV-C) takes the exclusive lock for
 * the sort and downgrades. A flush cycle sorts the buffer and detaches the entries to flush under the exclusive
 * lock, then releases it and writes them to the tree holding only the tree's lock: meanwhile other threads append
 * to the buffer and read. A point read ({@link #getOrDefault}, {@link #containsKey}) does not wait: it looks in
 * the buffer, then in the detached entries, then in the tree, whose nodes the B+-tree's readers validate against
 * its writer's changes ({@code BPlusTreeBuilder.concurrentReads}; over a tree that cannot be read beside its
 * writer, it waits). A read that finds neither such a run nor a sorted batch on its way to the tree reads it
 * without those checks: both are set up under the exclusive lock, so neither can start while it holds the shared
 * one. A scan, {@link #size} and any other tree write wait for those entries to arrive (so no scan
 * misses them and no tree write overtakes them). The writer whose append set off the cycle returns once the
 * detached entries are in the tree. This replaces the paper's per-zone append locks
 * (§IV-D): appends, a few nanoseconds each, stay serialised, but the tree writes of a flush (about half its cost
 * at K=5%/L=5%) no longer hold them up; {@code ConcurrentIngestBenchmark} measures the difference. A strictly
 * ascending batch that goes past the empty buffer ({@link SortednessAwareIndexBuilder#sortedBatchesPastBuffer})
 * is written to the tree the same way, beside point reads, which see none of it until all of it is there (a
 * single-writer index's writer takes no buffer lock for it at all); writers, scans and sizes wait for it. A
 * writer tries an exclusive lock for a few microseconds before it queues for it (a lookup holds the shared lock
 * about a microsecond; parking and waking a thread takes longer).
 *
 * <p>Every operation is linearizable: a {@code put} that returned is visible to every later read in any thread,
 * and a thread always reads its own writes. (A lock-free append of a single-writer index takes effect at its
 * ordered store; a thread that learns through any synchronisation that the {@code put} returned sees it.)
 * {@link #putAll} is atomic per chunk of at least {@value #PUT_ALL_CHUNK}
 * entries: a concurrent reader sees a batch of up to that size entirely or not at all, a longer batch chunk by
 * chunk in order. A scan's consumer and a cursor's caller may read the index but must not write to it from inside
 * a scan ({@link ConcurrentModificationException}). If the tree fails to take a detached run (off-heap memory
 * exhausted, say), the index refuses every later operation but {@link #close} with an
 * {@link IllegalStateException} carrying the cause, rather than answer without those entries.
 */
public final class SortednessAwareIndex implements LongIndex {
    /** "SA " and the tree's name, e.g. "SA B+-tree". */
    private final String structureName;

    private final AppendableLongIndex tree;
    /** Package-private for the jcstress test of its zone maps as readers see them ({@code ZonemapPublicationTest}). */
    final SwareBuffer buffer;
    private final AdaptiveSorter sorter;
    /** How much of the sorted buffer each regular flush cycle keeps (§IV-A; {@link FlushRetention}). */
    private final FlushRetention retention;
    /** {@link SortednessAwareIndexBuilder#maxBytes}: no flush cycle for new entries starts with the tree past it. */
    private final long maxTreeBytes;
    /** Whether strictly ascending batches that find the buffer empty go straight to the tree. */
    private final boolean sortedBatchesPastBuffer;
    /** The split ratio for in-order flushes; NaN when the tree's ratio is left as built (not adaptive). */
    private final double maxSplitRatio;
    private final int queryDrivenSortEntries;
    /** Tries of an exclusive lock before queueing for it ({@link #acquireExclusive}): 2-5 microseconds. */
    private static final int LOCK_SPINS = 100;
    /** Spins of a scan waiting for a sorted batch's tree write before it queues ({@link #awaitWholeTree}). */
    private static final int TREE_READ_SPINS = 300;
    /**
     * Keys a {@link #getAll} looks up per guard: enough that the guard's cost (one mark or lock, ~50-100 ns) is
     * spread thin, few enough that a writer waiting for the chunk waits tens of microseconds (64 lookups of
     * 0.4-1.7 µs each on the AMD VM of docs/benchmarks.md, alone and beside a writer).
     */
    private static final int GET_ALL_CHUNK = 64;
    /** Entries a {@link #putAll} writes per exclusive lock. */
    private static final int PUT_ALL_CHUNK = 4096;
    /** Buffer capacities of a sorted run {@link #flushRunPastBuffer} sends to the tree per exclusive lock. */
    private static final int RUN_STEP_CAPACITIES = 8;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    /**
     * Guards the tree while a flush cycle's run goes to it outside {@link #lock} (§IV-D): a flush cycle takes it
     * for writing under {@link #lock}, detaches the run, releases {@link #lock} and writes the run with only this
     * lock held. Every other tree write also holds it; readers take it (shared) only while a run is on its way.
     * Always taken after {@link #lock}, never before.
     */
    private final ReentrantReadWriteLock treeLock = new ReentrantReadWriteLock();
    /** The entries the last flush cycle detached from the buffer; owned by whoever holds {@link #treeLock}. */
    private final DetachedRun detached = new DetachedRun();
    /** Whether {@link #detached} is on its way to the tree: set under both write locks, cleared under treeLock. */
    private volatile boolean emitting;
    /**
     * Whether a multi-writer index's sorted batch past the empty buffer is on its way to the tree beside reads
     * ({@link #appendPastEmptyBuffer}): set under both write locks, cleared under treeLock. The batch is
     * {@code batchKeys/batchValues[batchFrom, batchTo)}, the caller's arrays, written before its call returns.
     */
    private volatile boolean batchOnItsWay;
    private long[] batchKeys;
    private long[] batchValues;
    private int batchFrom;
    private int batchTo;
    /**
     * The point reads of a single-writer index other than the owner's of a pinned one: they count themselves here
     * instead of taking {@link #lock}'s shared side, and every hold of its exclusive side waits them out
     * ({@link #lockExclusive}); null in the other modes.
     */
    private final ReadIndicator fastReads;
    /** Why writing a detached run to the tree failed; the index refuses every operation once set. */
    private volatile Throwable emitFailure;
    private final SwareCounters counters;
    private final Concurrency concurrency;
    /** Whether point reads go on beside a flush cycle's tree writes ({@link #readingBesideEmit}). */
    private final boolean treeReadsBesideWriter;
    /**
     * Whether sorted batches past the empty buffer go to the tree beside point reads ({@link
     * #appendPastEmptyBuffer}): with {@link SortednessAwareIndexBuilder#sortedBatchesPastBuffer}, over a tree that
     * takes point reads beside its writer. Scans, sizes and statistics then always take the tree's shared lock
     * ({@link #awaitWholeTree}), since such a batch goes to the tree beside the buffer's shared lock.
     */
    private final boolean batchesBesideReaders;
    /**
     * The largest key point reads look for in the tree ({@link #treeMayContain}): the tree's largest key, but
     * while a sorted batch is on its way to the tree beside point reads ({@link #appendBatch}), whose keys all
     * lie above it, so that a read sees none of them until the store that raises it to the batch's largest key,
     * and all of them after it. Written ({@link #publishTreeBound}) after every tree write, before the buffer's
     * exclusive lock or {@link #emitting} that kept point reads away from the tree (or beside it, reading the
     * detached run first) is released.
     */
    private volatile long treeReadBound = Long.MIN_VALUE;
    /** Whether the locks are used at all: false for {@link Concurrency#SINGLE_THREAD}. */
    private final boolean locking;
    /** {@link Concurrency#SINGLE_WRITER} or {@link Concurrency#PINNED_WRITER}: one writer, lock-free appends. */
    private final boolean singleWriter;
    /** {@link Concurrency#PINNED_WRITER}: the first writer is {@link #owner} for good. */
    private final boolean pinned;
    /**
     * The thread a {@link Concurrency#PINNED_WRITER} index is pinned to: set once, by its first write, under the
     * exclusive lock, and never changed. A thread that finds itself here set it, so the owner's lock-free point
     * reads ({@link #sizeForOwnerRead}) need no ordering to trust it; a thread that takes the lock after that
     * first write sees it set.
     */
    private Thread owner;
    /**
     * Changes other than lock-free appends (reorganisations, tree writes, locked appends), counted on the write
     * side at the end of each: together with the visible buffer size, it identifies the content ({@link #size}).
     */
    private long epoch;
    /** The thread inside a write, for the best-effort check that two threads never write a single-writer index. */
    private Thread activeWriter;
    /**
     * The thread that wrote last (single-writer and single-thread indexes): its scans count in {@link #scanDepth},
     * so that its lock-free appends can refuse a write from inside its own scan without asking the lock.
     */
    private Thread writerThread;
    /**
     * Scans in progress in a single-thread index, or on the writer thread of a single-writer index (only that
     * thread changes it); a multi-writer index asks the lock instead.
     */
    private int scanDepth;
    /** A reader of a single-writer index asks its writer for a query-driven sort (§IV-C) at the next write. */
    private volatile boolean sortRequested;
    private volatile boolean closed;
    private volatile long[] sizeCache = {-1, -1, 0}; // {epoch, visible buffer size, size}
    private volatile NavigableMap<Long, Long> view;

    SortednessAwareIndex(final AppendableLongIndex tree, final SortednessAwareIndexBuilder config) {
        this.tree = Objects.requireNonNull(tree, "tree");
        this.structureName = "SA " + tree.stats().structure();
        this.concurrency = config.concurrency();
        this.locking = concurrency != Concurrency.SINGLE_THREAD;
        this.singleWriter = concurrency == Concurrency.SINGLE_WRITER || concurrency == Concurrency.PINNED_WRITER;
        this.pinned = concurrency == Concurrency.PINNED_WRITER;
        this.treeReadsBesideWriter = locking && tree.concurrentPointReads();
        this.batchesBesideReaders = treeReadsBesideWriter && config.sortedBatchesPastBuffer();
        publishTreeBound(); // a tree built elsewhere may hold keys already
        this.counters = new SwareCounters(locking);
        this.fastReads = singleWriter ? new ReadIndicator(counters) : null;
        final int zoneSize = Math.max(1, Math.min(config.bufferCapacity(), tree.bulkLeafEntries()));
        this.buffer = new SwareBuffer(config.bufferCapacity(), zoneSize, config.bloomBitsPerEntry());
        this.sorter = config.newSorter();
        this.retention = new FlushRetention(config.flushFraction(), config.adaptiveFlushFraction());
        this.maxTreeBytes = config.maxBytes();
        this.sortedBatchesPastBuffer = config.sortedBatchesPastBuffer();
        this.maxSplitRatio = config.adaptiveSplitRatio() ? config.splitRatio() : Double.NaN;
        this.queryDrivenSortEntries = config.queryDrivenSortThreshold() == 0.0 ? 0
                : Math.max(1, (int) Math.ceil(config.queryDrivenSortThreshold() * config.bufferCapacity()));
    }

    // ------------------------------------------------------------------ writes

    @Override
    public void put(final long key, final long value) {
        // The thread that wrote last (never set in a multi-writer index) appends without a lock: in order when
        // the buffer allows it, which one field tells (SwareBuffer.appendInOrder), else into the unsorted section.
        if (writerThread == Thread.currentThread()
                && (buffer.appendInOrder(key, value) || appendWithoutLock(key, value))) {
            buffer.publish();
            return;
        }
        sortAheadOfFlush();
        lockForWrite();
        try {
            append(key, value, false);
        } finally {
            unlockForWrite();
        }
    }

    /**
     * The writer thread's append of a key {@code SwareBuffer.appendInOrder} did not take (out of order, or into a
     * buffer that is not one ascending run), without a lock when the buffer has room and nothing else is due (a
     * requested query-driven sort, a write from inside this thread's scan, which the locked path refuses); the
     * caller publishes it. Returns false, having done nothing, when the locked path must take the write: then, and
     * for the first write of any other thread, {@link #lockForWrite} records the writer and reports a second
     * thread writing at the same moment. {@link #allowInOrderAppends} keeps the in-order appends' gate in step
     * with this one.
     */
    private boolean appendWithoutLock(final long key, final long value) {
        if (!lockFreeAppendAllowed()) {
            return false;
        }
        buffer.append(key, value, false);
        return true;
    }

    /**
     * Tells the buffer whether in-order appends may go without the lock: not inside the writer's own scan, not
     * once closed or failed. (A requested query-driven sort does not stop them: an in-order buffer has no unsorted
     * entry to sort.) Called wherever one of those changes, by the thread that changes it.
     */
    private void allowInOrderAppends() {
        buffer.allowInOrderAppends(writerMayAppendWithoutLock());
    }

    /** Not inside the writer's own scan (the locked path refuses that write), not closed, not failed. */
    private boolean writerMayAppendWithoutLock() {
        return scanDepth == 0 && !closed && emitFailure == null;
    }

    /**
     * A single writer whose buffer is full sorts it for the coming flush cycle before it takes the exclusive lock
     * (into the merge buffers, changing nothing readers read: {@code SwareBuffer.sortAhead}), so that readers wait
     * only for the cycle's install, detach and reset, not for its sort. Cycles that flush the sorted prefix first
     * (§IV-A) sort under the lock as before.
     */
    private void sortAheadOfFlush() {
        if (singleWriter && buffer.isFull() && writerThread == Thread.currentThread()
                && scanDepth == 0 && !closed && emitFailure == null && !flushesPrefixFirst() && !treeAtBound()) {
            buffer.sortAhead(sorter, counters);
        }
    }

    private boolean lockFreeAppendAllowed() {
        // scanDepth, not the lock's hold count: the appender never reads the lock's state, a cache line that
        // concurrent readers write.
        return !buffer.isFull() && !sortRequested && writerMayAppendWithoutLock();
    }

    /** Best-effort detection of a second writer of a single-writer or single-thread index (plain accesses). */
    private void enterWriter() {
        final Thread me = Thread.currentThread();
        final Thread other = activeWriter;
        if (other != null && other != me) {
            throw new ConcurrentModificationException("two threads write to a SortednessAwareIndex built with "
                    + "concurrency(" + concurrency + ") at once (" + other.getName() + " and " + me.getName()
                    + "); build it with concurrency(MULTI_WRITER) for several writers");
        }
        activeWriter = me;
        if (writerThread != me) {
            writerThread = me;
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Takes the exclusive lock once per {@value #PUT_ALL_CHUNK} entries (readers wait at most one chunk), and
     * copies its ascending runs whole ({@code SwareBuffer.appendRun}), appending each descent between them as
     * {@link #put} would; the buffer ends exactly as after one {@code put} per entry. A strictly ascending run
     * that would set off whole flush cycles of an in-order buffer goes to the tree without passing through the
     * buffer ({@link #flushRunPastBuffer}), up to {@value #RUN_STEP_CAPACITIES} buffer capacities per lock; the
     * tree, the buffer and the counters end as the entry-by-entry cycles would leave them. With
     * {@link SortednessAwareIndexBuilder#sortedBatchesPastBuffer} on (the default), a strictly ascending chunk
     * that finds the buffer empty and lies above the tree is bulk-appended to the tree instead
     * ({@link #appendPastEmptyBuffer}): the index holds the same entries, but they are in the tree, not the
     * buffer, and the counters say so.
     */
    @Override
    public void putAll(final long[] keys, final long[] values, final int from, final int to) {
        LongIndex.checkBatch(keys, values, from, to);
        int i = from;
        while (i < to) {
            final int end = Math.min(to, i + PUT_ALL_CHUNK);
            // A racy hint in a multi-writer index: appendPastEmptyBuffer checks again under the lock.
            if (sortedBatchesPastBuffer && buffer.isEmpty()) {
                final int taken = appendPastEmptyBuffer(keys, values, i, end);
                if (taken > 0) {
                    i += taken;
                    continue;
                }
            }
            if (singleWriter) {
                i = appendChunkWithoutLock(keys, values, i, end);
                if (i == end) {
                    continue;
                }
                sortAheadOfFlush();
            }
            lockForWrite();
            try {
                while (i < end) {
                    if (buffer.isFull()) {
                        if (treeAtBound()) {
                            throw memoryBoundReached("putAll stored keys[" + from + ", " + i + ") and refused keys["
                                    + i + ", " + to + ")");
                        }
                        final int flushed = flushRunPastBuffer(keys, values, i, to);
                        if (flushed > 0) {
                            i += flushed;
                            continue;
                        }
                        flushCycle(false); // its run goes to the tree after the chunk, outside the lock
                    }
                    i = appendSome(keys, values, i, end);
                }
            } finally {
                unlockForWrite(); // publishes entries a lock-free start of this chunk appended
            }
        }
    }

    /**
     * {@link SortednessAwareIndexBuilder#sortedBatchesPastBuffer}: bulk-appends {@code ks[from, end)} to the tree
     * when it is strictly ascending, the buffer is empty and the tree's keys all lie below it (a run detached by
     * an earlier flush cycle is written first). Its entries then are where the whole flush of a strictly
     * ascending buffer would have put them (§IV-A), without having been copied through the buffer. Over a tree
     * that takes point reads beside its writer ({@link #batchesBesideReaders}), the tree write holds only the
     * tree's lock, beside point reads, which see none of the batch until all of it is in ({@link #appendBatch}):
     * a single writer takes no other lock ({@link #appendBesideReaders}); in a multi-writer index the buffer's
     * exclusive lock is held while the batch is checked, and released for the tree write
     * ({@link #unlockForWrite}). With the bulk append under the exclusive lock, as before (and still over other
     * trees), a reader beside a writer of sorted batches of 500 got 38,000 lookups a second
     * ({@code WriterReaderBenchmark}), queueing behind one bulk append after another.
     *
     * @return the entries taken: {@code end - from}, or 0 (nothing done) when the chunk does not qualify
     */
    private int appendPastEmptyBuffer(final long[] ks, final long[] vs, final int from, final int end) {
        if (treeAtBound()) {
            return 0; // the buffer takes the chunk while it has room, and refuses the rest at its flush
        }
        for (int k = from + 1; k < end; k++) {
            if (ks[k] <= ks[k - 1]) {
                return 0;
            }
        }
        if (batchesBesideReaders && singleWriter
                && appendBesideReaders(ks, vs, from, end)) {
            return end - from;
        }
        lockForWrite();
        try {
            if (!buffer.isEmpty()) {
                return 0;
            }
            beginTreeWrite();
            if (!tree.isEmpty() && ks[from] <= tree.lastKey()) {
                return 0;
            }
            if (batchesBesideReaders && !tree.isEmpty()) { // see appendBesideReaders on an empty tree
                batchKeys = ks; // the caller's arrays: written before its putAll returns, read by no reader
                batchValues = vs;
                batchFrom = from;
                batchTo = end;
                batchOnItsWay = true;
            } else {
                appendBatch(ks, vs, from, end);
            }
            return end - from;
        } finally {
            unlockForWrite();
        }
    }

    /**
     * A single writer's batch past the empty buffer ({@link #appendPastEmptyBuffer}) without the buffer's lock:
     * the writer holds only the tree's exclusive lock, which scans, sizes and statistics take (shared) in this
     * mode ({@link #awaitWholeTree}), and no lock a point read takes, so that a reader neither waits for it nor
     * makes it wait. Not taken (false, nothing done) by another thread than the last writer (the locked path
     * records the hand-over), from inside the writer's own scan, or into an empty tree (point reads find an empty
     * tree empty without looking at {@link #treeReadBound}).
     */
    private boolean appendBesideReaders(final long[] ks, final long[] vs, final int from, final int end) {
        if (writerThread != Thread.currentThread() || scanDepth != 0 || emitting || closed || emitFailure != null
                || !buffer.isEmpty()) {
            return false;
        }
        enterWriter();
        try {
            acquireExclusive(treeLock);
            try {
                if (closed || tree.isEmpty() || ks[from] <= tree.lastKey()) {
                    return false;
                }
                epoch++; // the content changes; size() reads it under the tree's shared lock
                appendBatch(ks, vs, from, end);
                return true;
            } finally {
                treeLock.writeLock().unlock();
            }
        } finally {
            activeWriter = null;
        }
    }

    /**
     * Bulk-appends a strictly ascending batch above the tree's keys, the tree's exclusive lock held, then raises
     * {@link #treeReadBound} to its last key: a point read beside the write sees none of the batch before that
     * store (its keys lie above the bound), all of it after. After a failed append the bound covers what the tree
     * took, as the bulk append under the buffer's lock left it. Counts the batch (statistics read the counters
     * under the tree's shared lock, or with the buffer's exclusive lock excluded).
     */
    private void appendBatch(final long[] ks, final long[] vs, final int from, final int end) {
        adaptSplitRatio(ks, from, end, end - from);
        if (fastReads != null) {
            fastReads.announceTreeWrite(); // marked reads stop reading the tree alone
        }
        try {
            tree.bulkAppend(ks, vs, from, end);
        } finally {
            publishTreeBound();
            if (fastReads != null) {
                fastReads.endTreeWrite();
            }
        }
        counters.batchesPastBuffer++;
        counters.entriesPastBuffer += end - from;
    }

    /** Writes the batch {@link #appendPastEmptyBuffer} left on its way to the tree, if any (tree lock held). */
    private void appendBatchOnItsWay() {
        if (!batchOnItsWay) {
            return;
        }
        try {
            appendBatch(batchKeys, batchValues, batchFrom, batchTo);
        } finally {
            batchKeys = null;
            batchValues = null;
            batchOnItsWay = false;
        }
    }

    /**
     * A single-writer index's chunk of a batch, appended without a lock while the buffer has room and published
     * at its end (so readers see the chunk whole or not at all). Returns where it stopped: {@code end}, or an
     * earlier position from which the locked path goes on, publishing what was appended here at its unlock.
     */
    private int appendChunkWithoutLock(final long[] keys, final long[] values, final int from, final int end) {
        if (!lockFreeAppendAllowed() || (pinned && owner != Thread.currentThread())) {
            return from; // the locked path records the writer, or refuses one the pin forbids
        }
        int i = from;
        enterWriter();
        try {
            while (i < end && !buffer.isFull()) {
                i = appendSome(keys, values, i, end);
            }
            if (i == end) {
                buffer.publish();
            }
        } finally {
            activeWriter = null;
        }
        return i;
    }

    /**
     * Appends the ascending run starting at {@code i} whole, or the descent at {@code i} alone; the buffer has
     * room. Returns the next position.
     */
    private int appendSome(final long[] keys, final long[] values, final int i, final int end) {
        final int copied = buffer.appendRun(keys, values, i, end);
        if (copied > 0) {
            return i + copied;
        }
        buffer.append(keys[i], values[i], false);
        return i + 1;
    }

    @Override
    public void remove(final long key) {
        lockForWrite();
        try {
            if (buffer.mayContain(key, buffer.size)) {
                append(key, 0L, true);
                counters.tombstones++;
            } else {
                beginTreeWrite();
                tree.remove(key);
                counters.directTreeDeletes++;
            }
        } finally {
            unlockForWrite();
        }
    }

    /**
     * Empties the buffer into the tree (a sequence of regular flush cycles ending with a full one). Useful
     * before a read-mostly phase; never needed for correctness.
     */
    public void flush() {
        lockForWrite();
        try {
            while (!buffer.isEmpty()) {
                flushCycle(true);
            }
        } finally {
            unlockForWrite();
        }
    }

    /**
     * Whether the tree's pages have reached {@link SortednessAwareIndexBuilder#maxBytes}. A flush cycle's run may be
     * on its way to the tree in another thread: its pages count as they are taken (the read is of a plain counter,
     * so it may lag that thread by a few pages, which a soft bound allows).
     */
    private boolean treeAtBound() {
        return maxTreeBytes != TreeBuilder.NO_MEMORY_BOUND && tree.bytesInUse() >= maxTreeBytes;
    }

    private IllegalStateException memoryBoundReached(final String what) {
        return new IllegalStateException(structureName + " memory bound reached: " + what + " (the buffer is full "
                + "and its flush would add tree pages); the tree holds " + tree.bytesInUse() + " bytes, maxBytes = "
                + maxTreeBytes + " (SortednessAwareIndexBuilder.maxBytes); remove entries or raise the bound");
    }

    /**
     * Takes the write side: the exclusive lock (unless single-thread) and, for a single-writer or single-thread
     * index, the writer check; then does a query-driven sort a reader asked a single writer for.
     */
    private void lockForWrite() {
        // getReadLockCount() is a cheap read of the lock state; the per-thread count is only needed when some
        // thread holds the read lock (a write from inside this thread's scan would deadlock).
        if (locking ? lock.getReadLockCount() > 0 && lock.getReadHoldCount() > 0 : scanDepth > 0) {
            throw new ConcurrentModificationException("cannot write to the index from inside one of its scans");
        }
        if (pinned) {
            // The pin is checked under the lock, where a thread sees the owner that any earlier write recorded.
            lockExclusive();
            if (!pinTo(Thread.currentThread())) {
                unlockExclusive();
                throw pinnedTo("write to");
            }
            enterWriter();
        } else {
            if (concurrency != Concurrency.MULTI_WRITER) {
                enterWriter();
            }
            if (locking) {
                lockExclusive();
            }
        }
        if (closed || emitFailure != null) {
            releaseWriteSide();
            throw unusable();
        }
        if (batchOnItsWay) {
            beginTreeWrite(); // another writer's batch goes to the tree: nothing may overtake it
        }
        if (sortRequested) {
            sortRequested = false;
            if (!buffer.isFull()) { // a full buffer is about to be sorted whole by its flush cycle
                sortForQueries();
            }
        }
    }

    /**
     * Pins a {@link Concurrency#PINNED_WRITER} index to {@code thread} if it is not pinned yet; called under the
     * exclusive lock. Returns whether {@code thread} is the owner.
     */
    private boolean pinTo(final Thread thread) {
        if (owner == null) {
            owner = thread;
        }
        return owner == thread;
    }

    private IllegalStateException pinnedTo(final String action) {
        return new IllegalStateException("thread " + Thread.currentThread().getName() + " may not " + action
                + " this SortednessAwareIndex: built with concurrency(PINNED_WRITER), it is pinned to thread "
                + owner.getName() + (action.startsWith("close") ? " while that thread is alive" : "")
                + "; build it with concurrency(SINGLE_WRITER) to hand writes over between threads");
    }

    /**
     * Takes {@code rw}'s exclusive lock (the buffer's or the tree's) for a write, trying it up to
     * {@value #LOCK_SPINS} times before queueing for it: a reader's lookup holds the shared lock for about a
     * microsecond, far shorter than a thread takes to park and be woken. Queueing at the first refusal, as
     * {@code lock()} does, let a writer beside one reader park at nearly every write and then, queued first, shut
     * the reader out (the lock makes new readers wait behind a queued writer). With a multi-writer index, one
     * writer and one reader thread, these tries took the reader from 77-170 to 764-835 thousand lookups a second
     * beside sorted batches of 500 (the writer from 44-56 to 75-95M records a second), and from 23-248 to
     * 265-755 thousand beside one put per record, where the writer, no longer alone with the lock, went from
     * 10-21 to 7-10M records a second (docs/benchmarks.md). Readers do not spin: tries of their own lost most of
     * the reader's gain beside batches. Nor does a writer spin against another writer: that interleaved two
     * writers' puts finely enough to take 1.7x as long ({@code ConcurrentIngestBenchmark}); it queues at once.
     */
    private static void acquireExclusive(final ReentrantReadWriteLock rw) {
        for (int i = 0; i < LOCK_SPINS; i++) {
            if (rw.writeLock().tryLock()) {
                return;
            }
            if (rw.isWriteLocked()) {
                break; // another writer: spinning would interleave the two writers' appends, line by line
            }
            Thread.onSpinWait();
        }
        rw.writeLock().lock();
    }

    /**
     * Takes the buffer's exclusive lock and, in its outermost hold, closes the fast path of point reads
     * ({@link #fastReads}) and waits for the reads inside it: no read is then inside the buffer or the tree but
     * those the lock excludes.
     */
    private void lockExclusive() {
        acquireExclusive(lock);
        if (fastReads != null && lock.getWriteHoldCount() == 1) {
            fastReads.revoke();
        }
    }

    /** Releases what {@link #lockExclusive} took, opening the fast path again with the outermost hold. */
    private void unlockExclusive() {
        if (fastReads != null && lock.getWriteHoldCount() == 1) {
            fastReads.restore();
        }
        lock.writeLock().unlock();
    }

    private void releaseWriteSide() {
        if (locking) {
            unlockExclusive();
        }
        if (concurrency != Concurrency.MULTI_WRITER) {
            activeWriter = null;
        }
    }

    /** Query-driven sorting (§IV-C) on the write side, when the unsorted section has outgrown the threshold. */
    private void sortForQueries() {
        if (queryDrivenSortEntries > 0 && buffer.unsortedExceeds(queryDrivenSortEntries, buffer.size)
                && buffer.sortUnsortedIntoBlock(sorter, counters)) {
            counters.queryDrivenSorts++;
            epoch++;
            buffer.publish();
        }
    }

    private IllegalStateException unusable() {
        if (closed) {
            return new IllegalStateException("SortednessAwareIndex is closed");
        }
        return new IllegalStateException("SortednessAwareIndex is unusable: writing flushed entries to its tree "
                + "failed, so entries they held may be missing", emitFailure);
    }

    /**
     * Releases the buffer's exclusive lock, then writes the run a flush cycle detached under it to the tree, if
     * any: other threads append to the buffer and read it meanwhile (§IV-D).
     */
    private void unlockForWrite() {
        epoch++;
        buffer.publish();
        try {
            if (locking) {
                final boolean treeWriter = treeLock.isWriteLockedByCurrentThread();
                if (treeWriter) {
                    tree.reclaimRetired(); // pages a direct tree write retired: no read can be inside them
                    publishTreeBound();
                }
                unlockExclusive();
                if (treeWriter) {
                    try {
                        // Only a run's deletes (its tombstones) retire pages for reclaimAfterEmit to free.
                        final boolean deletes = emitting && detached.mayHoldTombstones;
                        emitDetached();
                        appendBatchOnItsWay();
                        if (deletes) {
                            reclaimAfterEmit();
                        }
                    } finally {
                        treeLock.writeLock().unlock();
                    }
                }
            } else {
                emitDetached();
                tree.reclaimRetired();
                publishTreeBound();
            }
        } finally {
            if (concurrency != Concurrency.MULTI_WRITER) {
                activeWriter = null;
            }
        }
    }

    /**
     * Called under the buffer's exclusive lock before the tree is written or read: waits for a detached run on
     * its way to the tree, or writes this thread's own. The tree lock stays held until {@link #unlockForWrite}.
     */
    private void beginTreeWrite() {
        if (!locking || treeLock.isWriteLockedByCurrentThread()) {
            emitDetached();
        } else {
            acquireExclusive(treeLock);
        }
        // No read beside the tree's writer can be running: they all hold the buffer's shared lock.
        tree.reclaimRetired();
    }

    /**
     * After a run went to the tree outside the buffer's lock (the tree lock held): frees the pages its deletes
     * retired if no read can be inside them, that is if the buffer's exclusive lock is free and no point read is
     * inside the fast path; otherwise the next tree write under the lock does ({@link #beginTreeWrite}).
     */
    private void reclaimAfterEmit() {
        if (lock.writeLock().tryLock()) {
            try {
                if (fastReads == null || lock.getWriteHoldCount() > 1 || fastReads.tryRevoke()) {
                    tree.reclaimRetired();
                }
            } finally {
                unlockExclusive();
            }
        }
    }

    /** Writes {@link #detached} to the tree if it is on its way; the caller holds the tree's exclusive lock. */
    private void emitDetached() {
        if (!emitting) {
            return;
        }
        try {
            emit(detached.keys, detached.values, detached.tombstonesIfAny(), detached.count,
                    detached.keepLastOfEqual);
            publishTreeBound(); // before point reads stop reading the run
        } catch (RuntimeException | Error e) {
            emitFailure = e;
            allowInOrderAppends();
            throw e;
        } finally {
            emitting = false;
        }
    }

    private void append(final long key, final long value, final boolean tombstone) {
        if (buffer.isFull()) {
            if (!tombstone && treeAtBound()) {
                throw memoryBoundReached("putting key " + key);
            }
            flushCycle(false);
        }
        if (tombstone || !buffer.appendInOrder(key, value)) {
            buffer.append(key, value, tombstone);
        }
    }

    /**
     * The flush cycles a long sorted run of a batch would set off, done at once: when the buffer is full and one
     * sorted run, and {@code ks[from, to)} starts with a strictly ascending run above every buffered key, each
     * of the cycles that appending it entry by entry would take (§IV-A: flush the first {@code flushFraction},
     * or the whole buffer once it is one strictly ascending run ({@link #flushesWhole}), and append until full
     * again) bulk-appends the smallest entries of a sorted sequence. Their sum is the buffer's
     * entries followed by the run's head: both are bulk-appended (the run straight from the caller's arrays) and
     * the buffer ends up holding the run's last {@code capacity} entries, as after those cycles. The tree, the
     * buffer and the counters end as entry-by-entry appends would leave them, without copying the head through
     * the buffer. Takes whole cycles, at most {@value #RUN_STEP_CAPACITIES} buffer capacities per call (bounding
     * how long readers wait), and only when the run covers enough cycles to flush every buffered entry.
     *
     * @return the entries of {@code ks} taken, 0 when the run (or the buffer) does not qualify
     */
    private int flushRunPastBuffer(final long[] ks, final long[] vs, final int from, final int to) {
        if (!buffer.isOneSortedRun()) {
            return 0;
        }
        beginTreeWrite();
        final int capacity = buffer.capacity;
        // The first cycle flushes what a regular cycle of this buffer would; every later one finds the buffer
        // refilled by the run, one strictly ascending run, which flushes whole (flushesWhole).
        final boolean firstWhole = flushesWhole();
        final int firstCycle = firstWhole ? capacity : flushCount(null); // one sorted run: no frontier
        final long step = Math.max(PUT_ALL_CHUNK, (long) RUN_STEP_CAPACITIES * capacity);
        final int limit = (int) Math.min(to, from + step);
        int end = from;
        if (ks[from] > buffer.maxKey() && (tree.isEmpty() || ks[from] > tree.lastKey())) {
            end = from + 1;
            while (end < limit && ks[end] > ks[end - 1]) {
                end++;
            }
        }
        final int taken = end - from < firstCycle ? 0 : firstCycle + (end - from - firstCycle) / capacity * capacity;
        if (taken < capacity || !buffer.isStrictlyAscending()) {
            // Too short to flush every buffered entry, or repeated keys, which the ordinary cycle drops first
            // (changing how many entries later cycles take): the ordinary cycle.
            return 0;
        }
        counters.bufferFlushes += 1 + (taken - firstCycle) / capacity;
        if (!firstWhole) {
            retention.cycleFlushed(buffer.keys, buffer.size, firstCycle);
        }
        retention.forget(); // the later cycles flush whole
        // Cycle by cycle, as entry-by-entry appends would flush them: the buffered entries first, then the run's
        // head, each cycle's split ratio set by its own share of top-inserts (only buffered entries can be ones).
        final int buffered = buffer.size;
        for (int start = 0; start < taken; start += start == 0 ? firstCycle : capacity) {
            final int perCycle = start == 0 ? firstCycle : capacity;
            final int cycleEnd = start + perCycle;
            final int bufferedEnd = Math.min(cycleEnd, buffered);
            adaptSplitRatio(buffer.keys, Math.min(start, bufferedEnd), bufferedEnd, perCycle);
            if (start < bufferedEnd) {
                emit(buffer.keys, buffer.values, buffer.tombstonesIfAny(), start, bufferedEnd, false);
            }
            if (cycleEnd > buffered) {
                tree.bulkAppend(ks, vs, from + Math.max(start, buffered) - buffered, from + cycleEnd - buffered);
            }
        }
        final int head = from + taken - capacity;
        counters.flushedEntries += head - from;
        buffer.clear();
        buffer.appendRun(ks, vs, head, from + taken);
        return taken;
    }

    /** Entries a regular flush cycle sends to the tree from the sorted buffer: whole zones (§IV-A). */
    private int flushCount(final long[] newest) {
        return retention.flushCount(buffer.keys, buffer.size, buffer.zoneSize, newest);
    }

    /**
     * One flush cycle of SWARE §IV-A; with {@code flushAll}, or when the buffer {@linkplain #flushesWhole flushes
     * whole}, flushes the whole (sorted) buffer. The entries to flush are detached from the buffer and go to the
     * tree at {@link #unlockForWrite} (or at the next tree write of this thread), after the buffer's lock is
     * released.
     */
    private void flushCycle(final boolean flushAll) {
        final boolean everything = flushAll || flushesWhole();
        counters.bufferFlushes++;
        if (!everything && flushesPrefixFirst()) {
            final int prefix = buffer.flushablePrefix();
            // lastSortedZone is in the first half: flush up to it without sorting, then sort the rest.
            counters.prefixFlushesWithoutSort++;
            retention.forget();
            beginTreeWrite();
            buffer.detachPrefix(prefix, true, detached);
            buffer.sortAndKeepNewest(0, sorter, counters);
        } else {
            final long[] newest = everything ? null : buffer.newestAppends(); // before the sort reorders them
            // The sort touches none of the arrays of a run on its way to the tree: it overlaps that run's write.
            buffer.sortAndKeepNewest(0, sorter, counters);
            beginTreeWrite();
            final int flushed = everything ? buffer.size : flushCount(newest);
            if (everything) {
                retention.forget();
            } else {
                retention.cycleFlushed(buffer.keys, buffer.size, flushed);
            }
            buffer.detachPrefix(flushed, false, detached);
        }
        buffer.resetAfterFlush();
        emitting = true;
    }

    /**
     * Whether a regular flush cycle sends the whole buffer to the tree rather than its first {@code flushFraction}:
     * when the writes since the last flush prove the buffer one strictly ascending run. The half §IV-A keeps is
     * there to absorb entries that arrive late, below the buffer's largest key; a buffer that has had none since
     * it was last flushed is an in-order stretch of the stream, and keeping half of it would only copy that half
     * once more before it too is bulk-appended (a late entry that does come next is top-inserted, as one below the
     * kept half would be once that half is flushed).
     */
    private boolean flushesWhole() {
        return buffer.knownStrictlyAscending();
    }

    /** Whether a regular flush cycle flushes the sorted prefix without sorting, then sorts the rest (§IV-A). */
    private boolean flushesPrefixFirst() {
        final int prefix = buffer.flushablePrefix();
        return prefix > 0 && prefix <= buffer.capacity / 2;
    }

    /**
     * Moves the sorted entries {@code [0, to)} to the tree, a zone (one leaf's worth) at a time: top-inserts
     * while a zone starts at or below the tree's largest key, re-checking at every zone so the flush returns to
     * bulk loading as soon as it can (§IV-A). Once a zone starts above the tree's largest key, so does every later
     * one (the entries are sorted and bulk appends keep the tree's largest key below them): the rest is
     * bulk-appended straight from the arrays, in stretches between the entries it skips (tombstones, which have
     * nothing to delete above the tree, and with {@code keepLastOfEqual} all but the newest of equal keys).
     * {@code tombstones} is null when no entry is one; with no entry to skip either, the entries go to the tree
     * without being looked at one by one here.
     */
    private void emit(final long[] keys, final long[] values, final boolean[] tombstones, final int to,
                      final boolean keepLastOfEqual) {
        adaptSplitRatio(keys, 0, to, to);
        emit(keys, values, tombstones, 0, to, keepLastOfEqual);
    }

    /** {@link #emit} of {@code [from, to)}, leaving the split ratio as it is. */
    private void emit(final long[] keys, final long[] values, final boolean[] tombstones, final int from,
                      final int to, final boolean keepLastOfEqual) {
        final boolean skipsNone = tombstones == null && !keepLastOfEqual;
        int i = from;
        while (i < to && !tree.isEmpty() && keys[i] <= tree.lastKey()) {
            // The zone's puts go in ascending stretches between the entries it skips (AppendableLongIndex
            // .putAscending: a B+-tree finds their leaves along the stretch, not from the root each time).
            final int zoneEnd = Math.min(to, i + buffer.zoneSize);
            int puts = i;
            if (skipsNone) {
                i = zoneEnd;
            }
            for (; i < zoneEnd; i++) {
                final boolean older = keepLastOfEqual && i + 1 < to && keys[i + 1] == keys[i];
                if (older || (tombstones != null && tombstones[i])) {
                    tree.putAscending(keys, values, puts, i);
                    puts = i + 1;
                    if (!older) {
                        tree.remove(keys[i]);
                    }
                }
            }
            tree.putAscending(keys, values, puts, i);
        }
        int stretch = i;
        if (skipsNone) {
            i = to;
        }
        for (; i < to; i++) {
            if ((tombstones != null && tombstones[i]) || (keepLastOfEqual && i + 1 < to && keys[i + 1] == keys[i])) {
                tree.bulkAppend(keys, values, stretch, i);
                stretch = i + 1;
            }
        }
        tree.bulkAppend(keys, values, stretch, to);
        counters.flushedEntries += to - from;
    }

    /**
     * SWARE §III's split factor adjustment, made per flush cycle: the tree splits at {@link #maxSplitRatio} while
     * the cycle's sorted run goes past the tree's end, and nearer 50:50 the larger the share that falls inside it
     * (top-inserts, which split leaves wherever they land; SWARE Table I). The cycle flushes {@code cycleEntries};
     * its entries that may fall inside the tree are {@code keys[from, to)} (the rest lie past its end).
     */
    private void adaptSplitRatio(final long[] keys, final int from, final int to, final int cycleEntries) {
        if (Double.isNaN(maxSplitRatio) || cycleEntries == 0) {
            return;
        }
        final int inside = tree.isEmpty() ? 0 : SortedSearch.upperBound(keys, from, to, tree.lastKey()) - from;
        tree.splitRatio(0.5 + (maxSplitRatio - 0.5) * (cycleEntries - inside) / cycleEntries);
    }

    // ------------------------------------------------------------------ reads

    @Override
    public long getOrDefault(final long key, final long defaultValue) {
        return pointRead(key, defaultValue, false);
    }

    @Override
    public boolean containsKey(final long key) {
        return pointRead(key, 0L, true) != 0L;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Runs {@link #getOrDefault}'s read for each key, guarded once per {@value #GET_ALL_CHUNK} keys as that read
     * is guarded once per key: a reader of a single-writer index marks its slot once per chunk (a volatile store
     * each time, which stops independent lookups from overlapping), or takes the shared lock while a writer holds
     * the exclusive one; a multi-writer index's reader takes the shared lock once per chunk. Each guarded chunk
     * reads the buffer's size once. A {@link Concurrency#SINGLE_THREAD} index and a
     * {@link Concurrency#PINNED_WRITER} index's owner, whose point reads take no guard, look the keys up one
     * {@link #getOrDefault} at a time. Each lookup sees every write that completed before the call (the
     * calling thread's own included), as {@link #getOrDefault} would; a write that runs during the call may be
     * seen by some of the batch's lookups and not by others: the batch is not atomic. A reorganisation (a flush
     * cycle's install, a delete) waits for the chunk being read, at most {@value #GET_ALL_CHUNK} lookups.
     */
    @Override
    public void getAll(final long[] keys, final long[] values, final int from, final int to,
                       final long defaultValue) {
        LongIndex.checkRange("getAll", keys, values, from, to);
        for (int start = from, end; start < to; start = end) {
            end = (int) Math.min(to, (long) start + GET_ALL_CHUNK);
            readChunk(keys, values, start, end, defaultValue);
        }
    }

    /**
     * One chunk of {@link #getAll} under one guard, taken as {@link #pointRead} takes it. Reads that take no guard
     * (a single-thread index's, the pinned owner's) run {@link #pointRead} key by key: the chunk's loop over
     * {@link #find} measured slower for them (JMH, 10M keys, single thread: 305 against 255 ns a key; key by key
     * 227 against 223; docs/benchmarks.md, "twenty-third session").
     */
    private void readChunk(final long[] keys, final long[] values, final int from, final int to,
                           final long defaultValue) {
        if (!locking || isOwnerThread()) {
            for (int i = from; i < to; i++) {
                values[i] = pointRead(keys[i], defaultValue, false);
            }
            return;
        }
        if (fastReads != null) {
            final ReadIndicator.Slot slot = fastReads.enter();
            if (slot != null) {
                try {
                    findAll(keys, values, from, to, defaultValue, sizeForSharedRead(), slot);
                } finally {
                    fastReads.exit(slot);
                }
                return;
            }
        }
        final int n = lockForRead(false);
        try {
            final SwareCounters.Reads reads = counters.reads();
            final boolean alone = readsAloneUnderLock();
            for (int i = from; i < to; i++) {
                values[i] = find(keys[i], defaultValue, false, n, alone, reads);
            }
        } finally {
            unlockForRead(false);
        }
    }

    /** {@link #readChunk} inside the read indicator's {@code slot}: each lookup asks whether it reads alone. */
    private void findAll(final long[] keys, final long[] values, final int from, final int to,
                         final long defaultValue, final int n, final ReadIndicator.Slot slot) {
        for (int i = from; i < to; i++) {
            values[i] = find(keys[i], defaultValue, false, n, fastReads.readsAlone(slot), slot.reads);
        }
    }

    /**
     * A point read (§IV-B): the value of {@code key} or {@code defaultValue}, or with {@code presence} 1 or 0.
     * A {@link Concurrency#SINGLE_THREAD} index and the owner of a {@link Concurrency#PINNED_WRITER} index read
     * without a lock; other readers of a single-writer index announce themselves in {@link #fastReads} instead of
     * taking the shared lock, unless a writer holding the exclusive lock has closed that path, and read the tree
     * without its version checks unless a tree write beside them is announced ({@link ReadIndicator#readsAlone});
     * the rest hold the shared lock.
     */
    private long pointRead(final long key, final long defaultValue, final boolean presence) {
        if (!locking) {
            return find(key, defaultValue, presence, sizeForAloneRead(false), false, counters.reads());
        }
        if (isOwnerThread()) {
            return find(key, defaultValue, presence, sizeForOwnerRead(), true, fastReads.mine().reads);
        }
        if (fastReads != null) {
            final ReadIndicator.Slot slot = fastReads.enter();
            if (slot != null) {
                try {
                    final int n = sizeForSharedRead();
                    return find(key, defaultValue, presence, n, fastReads.readsAlone(slot), slot.reads);
                } finally {
                    fastReads.exit(slot);
                }
            }
        }
        final int n = lockForRead(false);
        try {
            return find(key, defaultValue, presence, n, readsAloneUnderLock(), counters.reads());
        } finally {
            unlockForRead(false);
        }
    }

    /**
     * Whether a point read holding the buffer's shared lock may read the tree without its version checks: when no
     * sorted batch is on its way to the tree ({@link #batchOnItsWay}), in a multi-writer index. The flag, like
     * {@link #emitting} (which {@link #find} asks itself), is set only under the exclusive lock, which the shared
     * lock excludes, and cleared after the batch's tree write: a read that finds it clear sees that write whole,
     * and no other tree write begins while it holds the lock. A single writer's sorted batch goes to the tree with
     * no buffer lock at all ({@link #appendBesideReaders}), so its readers under the lock keep the checks.
     */
    private boolean readsAloneUnderLock() {
        return !singleWriter && !batchOnItsWay;
    }

    /**
     * {@link #pointRead} in the buffer's first {@code n} entries, then in the tree; called with the read side held.
     * With {@code alone} (no tree write can run beside this read but a flush cycle's run on its way, which
     * {@link #emitting} tells) the tree is read without its version checks, as its writer reads it. Every point
     * read runs this, so what is rare (a key the buffer may hold, a run on its way to the tree) is out of line:
     * independent lookups over a tree larger than the cache slow down with every instruction added to each
     * (docs/benchmarks.md, "2026-11-29, fourteenth session").
     */
    private long find(final long key, final long defaultValue, final boolean presence, final int n,
                      final boolean alone, final SwareCounters.Reads reads) {
        reads.lookups++;
        if (buffer.mayHold(key, n, reads)) {
            final int pos = searchBuffer(key, n, reads);
            if (pos >= 0) {
                return buffer.tombstones[pos] ? absent(defaultValue, presence) : present(buffer.values[pos], presence);
            }
        }
        // A run is detached only under the exclusive lock, which the read side excludes: emitting cannot turn
        // true during this read, only false.
        if (emitting) {
            return findBesideEmit(key, defaultValue, presence, alone, reads);
        }
        if (!treeMayContain(key, reads)) {
            return absent(defaultValue, presence);
        }
        return readTree(key, defaultValue, presence, alone);
    }

    /**
     * {@link #find} past the buffer while a run detached by a flush cycle is on its way to the tree: in the run,
     * then in the tree, reading beside that write where the tree allows it and otherwise waiting for the run.
     */
    private long findBesideEmit(final long key, final long defaultValue, final boolean presence,
                                final boolean alone, final SwareCounters.Reads reads) {
        if (readingBesideEmit()) {
            final int at = detached.find(key);
            if (at >= 0) {
                return detached.tombstones[at] ? absent(defaultValue, presence)
                        : present(detached.values[at], presence);
            }
            return readTree(key, defaultValue, presence, false);
        }
        // A single writer's read that reads alone may wait for the tree's lock here: the writer who holds it never
        // announces a write it would wait for (over such a tree no sorted batch goes past readers, and with the
        // tree's shared lock held no tree write runs beside this read).
        final boolean treeLocked = awaitTree();
        try {
            if (!treeMayContain(key, reads)) {
                return absent(defaultValue, presence);
            }
            return readTree(key, defaultValue, presence, alone);
        } finally {
            if (treeLocked) {
                treeLock.readLock().unlock();
            }
        }
    }

    private long readTree(final long key, final long defaultValue, final boolean presence, final boolean byWriter) {
        if (presence) {
            return (byWriter ? tree.containsKeyByWriter(key) : tree.containsKey(key)) ? 1L : 0L;
        }
        return byWriter ? tree.getOrDefaultByWriter(key, defaultValue) : tree.getOrDefault(key, defaultValue);
    }

    private static long present(final long value, final boolean presence) {
        return presence ? 1L : value;
    }

    private static long absent(final long defaultValue, final boolean presence) {
        return presence ? 0L : defaultValue;
    }

    /** Whether this thread owns a {@link Concurrency#PINNED_WRITER} index: its point reads take no lock. */
    private boolean isOwnerThread() {
        return pinned && owner == Thread.currentThread();
    }

    /**
     * {@link #lockForRead} of a {@link Concurrency#SINGLE_THREAD} index, which takes no lock: the buffer's size,
     * after a query-driven sort (§IV-C) if one is due.
     */
    private int sizeForAloneRead(final boolean forScan) {
        if (closed || emitFailure != null) {
            throw unusable();
        }
        if (scanDepth == 0 && needsSort(forScan, buffer.size)) {
            sortAloneForQueries();
        }
        return buffer.size;
    }

    private void sortAloneForQueries() {
        if (buffer.sortUnsortedIntoBlock(sorter, counters)) {
            counters.queryDrivenSorts++;
            epoch++;
            buffer.publish();
        }
    }

    /**
     * {@link #lockForRead} for a point read of a {@link Concurrency#PINNED_WRITER} index's owner, which takes no
     * lock (no {@link #unlockForRead} follows) and never meets a detached run on its way (the owner's own write
     * puts the run in the tree before it returns): the owner is the only thread that changes the buffer or the
     * tree, and the only one that may close the index while it lives, so nothing changes under its read. The
     * readers it may run beside write only the zonemaps and
     * Bloom filters, under {@code SwareBuffer}'s own lock, and only up to the size they loaded, which the owner
     * published. A read that calls for query-driven sorting (§IV-C) sorts at once, under the exclusive lock, as
     * the writer's next write would (not from inside the owner's own scan, which holds the shared lock).
     */
    private int sizeForOwnerRead() {
        if (closed || emitFailure != null) {
            throw unusable();
        }
        if (scanDepth == 0 && needsSort(false, buffer.size)) {
            lockExclusive();
            try {
                sortRequested = false;
                sortForQueries();
            } finally {
                unlockExclusive();
            }
        }
        return buffer.size;
    }

    /**
     * Whether a point read, under the buffer's shared lock, goes on while a run detached by a flush cycle is being
     * written to the tree, rather than wait for it: when the tree takes point reads beside its writer. It then
     * reads the run first (the newer entries), then the tree. The run's arrays stay as they are while the shared
     * lock is held, and once the run is in the tree its entries are the tree's.
     */
    private boolean readingBesideEmit() {
        return emitting && treeReadsBesideWriter;
    }

    /**
     * Called under the buffer's shared lock before the tree is read: waits until a run detached by a flush cycle
     * is in the tree (none can be detached while the shared lock is held). Returns whether the tree's shared lock
     * was taken, for {@link #unlockForRead}. A single-thread index has emitted every run by the time it reads.
     */
    private boolean awaitTree() {
        if (!locking || !emitting) {
            return false;
        }
        treeLock.readLock().lock();
        return true;
    }

    /**
     * {@link #awaitTree} for reads that cover more of the tree than one key (scans, seeks, sizes, statistics):
     * with {@link #batchesBesideReaders}, they always take the tree's shared lock, since a sorted batch goes to
     * the tree beside the buffer's shared lock (a single writer's at any moment, {@link #appendBesideReaders});
     * otherwise only a detached run on its way writes the tree then.
     */
    private boolean awaitWholeTree() {
        if (!batchesBesideReaders) {
            return awaitTree();
        }
        // A batch holds the tree's lock a few microseconds: wait that long before queueing. Queued at once, a
        // scanner beside a writer of sorted batches of 500 got 18-131 thousand 64-key scans a second, with
        // these spins 136-236 thousand (and the multi-writer index's writer 77-79M records a second, not 34-44M).
        for (int i = 0; i < TREE_READ_SPINS && treeLock.isWriteLocked(); i++) {
            Thread.onSpinWait();
        }
        treeLock.readLock().lock();
        return true;
    }

    /** Sets {@link #treeReadBound} to the tree's largest key; called with every tree write done, tree lock held. */
    private void publishTreeBound() {
        treeReadBound = tree.isEmpty() ? Long.MIN_VALUE : tree.lastKey();
    }

    private void unlockForRead(final boolean treeLocked) {
        if (!locking) {
            return;
        }
        if (treeLocked) {
            treeLock.readLock().unlock();
        }
        lock.readLock().unlock();
    }

    /** The tree's zonemap (§IV-B, Fig. 6): a key above the tree's largest key is not in it. */
    private boolean treeMayContain(final long key, final SwareCounters.Reads reads) {
        // A batch goes to the tree beside point reads only when it is not empty (appendPastEmptyBuffer): the
        // bound alone hides the batch.
        if (key > treeReadBound || tree.isEmpty()) {
            reads.treeSkips++;
            return false;
        }
        return true;
    }

    /**
     * The position deciding {@code key} (a value or a tombstone) among the buffer's first {@code n} entries, or -1
     * to ask the tree (§IV-B); for a key {@link SwareBuffer#mayHold} lets through.
     */
    private int searchBuffer(final long key, final int n, final SwareCounters.Reads reads) {
        int pos = buffer.findInUnsorted(key, n, reads);
        if (pos < 0) {
            pos = buffer.findInSorted(key, n, reads);
        }
        if (pos >= 0) {
            reads.bufferHits++;
        }
        return pos;
    }

    @Override
    public long forEachInRange(final long lo, final long hi, final LongLongConsumer consumer) {
        Objects.requireNonNull(consumer, "consumer");
        int n = lockForRead(false);
        if (lo <= hi && buffer.overlaps(lo, hi, n) && n > buffer.unsortedStart(n)
                && !singleWriter) {
            // The merge is cheapest with every buffer component sorted (§IV-C): sort the unsorted section first.
            // (A single writer may be appending: the merge takes a private sorted copy instead.)
            unlockForRead(false);
            n = lockForRead(true);
        }
        final boolean treeLocked = awaitWholeTree();
        final boolean counted = !locking
                || (singleWriter && Thread.currentThread() == writerThread);
        if (counted && scanDepth++ == 0) {
            allowInOrderAppends();
        }
        try {
            if (lo > hi) {
                return 0;
            }
            // A consumer cannot write: lockForWrite() refuses while this thread holds the shared lock.
            if (!buffer.overlaps(lo, hi, n)) {
                return tree.forEachInRange(lo, hi, consumer);
            }
            final MergedScan.Visitor visitor = (k, v) -> {
                consumer.accept(k, v);
                return true;
            };
            return MergedScan.ascending(buffer, n, tree, lo, hi, visitor);
        } finally {
            if (counted && --scanDepth == 0) {
                allowInOrderAppends();
            }
            unlockForRead(treeLocked);
        }
    }

    /**
     * Seeks for a {@link SwareCursor}: the first live entry from {@code key} in the given direction, written to
     * {@code out} as {key, value}; false when there is none.
     */
    boolean seek(final long key, final boolean ascending, final long[] out) {
        final int n = lockForRead(true);
        final boolean treeLocked = awaitWholeTree();
        try {
            final boolean[] found = {false};
            final MergedScan.Visitor capture = (k, v) -> {
                out[0] = k;
                out[1] = v;
                found[0] = true;
                return false;
            };
            if (ascending) {
                MergedScan.ascending(buffer, n, tree, key, Long.MAX_VALUE, capture);
            } else {
                MergedScan.descending(buffer, n, tree, key, Long.MIN_VALUE, capture);
            }
            return found[0];
        } finally {
            unlockForRead(treeLocked);
        }
    }

    /**
     * Takes the read side and returns the snapshot of the buffer's size the read uses. First sorts the unsorted
     * section into a query-sorted block (§IV-C) when it has grown past the threshold or, for merged scans
     * ({@code forScan}), whenever it is not empty. A single-writer index's reader does not sort (the writer may
     * be appending): it asks the writer to, at its next write.
     */
    private int lockForRead(final boolean forScan) {
        if (!locking) {
            return sizeForAloneRead(forScan);
        }
        lock.readLock().lock();
        if (closed || emitFailure != null) {
            lock.readLock().unlock();
            throw unusable();
        }
        final int n = buffer.visibleSize();
        if (singleWriter) {
            requestSortIfDue(n);
            return n;
        }
        if (!needsSort(forScan, n) || lock.getReadHoldCount() > 1 || lock.isWriteLockedByCurrentThread()) {
            return n; // a nested read inside a scan: the outer scan already sorted, and no write can happen
        }
        lock.readLock().unlock();
        lock.writeLock().lock();
        try {
            if (closed || emitFailure != null) {
                throw unusable();
            }
            if (needsSort(forScan, buffer.size) && buffer.sortUnsortedIntoBlock(sorter, counters)) {
                counters.queryDrivenSorts++;
                epoch++;
                buffer.publish();
            }
            lock.readLock().lock(); // downgrade
        } finally {
            lock.writeLock().unlock();
        }
        return buffer.visibleSize();
    }

    /**
     * {@link #lockForRead} for a point read of a single-writer index inside {@link #fastReads}, which holds no
     * lock but excludes every reorganisation as the shared lock does.
     */
    private int sizeForSharedRead() {
        ensureOpen();
        final int n = buffer.visibleSize();
        requestSortIfDue(n);
        return n;
    }

    /** A single writer's reader asks the writer for a query-driven sort (§IV-C) rather than sort beside it. */
    private void requestSortIfDue(final int n) {
        if (!sortRequested && needsSort(false, n)) {
            sortRequested = true;
        }
    }

    private boolean needsSort(final boolean forScan, final int n) {
        if (forScan) {
            return n > buffer.unsortedStart(n);
        }
        return queryDrivenSortEntries > 0 && buffer.unsortedExceeds(queryDrivenSortEntries, n);
    }

    @Override
    public long size() {
        final int n = lockForRead(false);
        final boolean treeLocked = awaitWholeTree();
        try {
            final long[] cached = sizeCache;
            if (cached[0] == epoch && cached[1] == n) {
                return cached[2];
            }
            final long size = tree.size() + bufferSizeDelta(n);
            sizeCache = new long[] {epoch, n, size};
            return size;
        } finally {
            unlockForRead(treeLocked);
        }
    }

    /**
     * Entries the buffer's first {@code n} entries add to (new keys) or remove from (tombstones of tree keys) the
     * tree's count.
     */
    private long bufferSizeDelta(final int n) {
        if (n == 0) {
            return 0;
        }
        final long[] keys = java.util.Arrays.copyOf(buffer.keys, n);
        final long[] positions = new long[n];
        for (int i = 0; i < n; i++) {
            positions[i] = i;
        }
        StableMergeSort.sortStable(keys, positions, 0, n);
        long delta = 0;
        for (int i = 0; i < n; i++) {
            if (i + 1 < n && keys[i + 1] == keys[i]) {
                continue; // only the newest version of a key counts
            }
            final boolean inTree = tree.containsKey(keys[i]);
            if (buffer.tombstones[(int) positions[i]]) {
                delta -= inTree ? 1 : 0;
            } else {
                delta += inTree ? 0 : 1;
            }
        }
        return delta;
    }

    @Override
    public LongCursor cursor() {
        ensureOpen();
        return new SwareCursor(this);
    }

    @Override
    public NavigableMap<Long, Long> asNavigableMap() {
        ensureOpen();
        NavigableMap<Long, Long> v = view;
        if (v == null) {
            v = new LongIndexMapView(this);
            view = v;
        }
        return v;
    }

    // ------------------------------------------------------------------ statistics and lifecycle

    @Override
    public IndexStats stats() {
        final int n = lockForRead(false);
        final boolean treeLocked = awaitWholeTree();
        try {
            final IndexStats treeStats = tree.stats();
            final SwareCounters.Reads reads = counters.sum();
            final IndexStats.Builder stats = IndexStats.builder(structureName);
            stats.counter(IndexStats.SIZE, tree.size() + bufferSizeDelta(n));
            treeStats.counters().forEach((name, value) -> {
                if (!name.equals(IndexStats.SIZE)) {
                    stats.counter(name, value);
                }
            });
            // Write-side counters of a single-writer index are read without its writer's lock: a recent snapshot.
            stats.counter("bufferEntries", n)
                    .counter("bufferCapacity", buffer.capacity)
                    .counter("zoneSize", buffer.zoneSize)
                    .counter("lastSortedZone", buffer.lastSortedZone())
                    .counter("previousBoundary", buffer.sortedEnd(n))
                    .counter("querySortedBlocks", buffer.blockCount)
                    .counter("bloomFilterBytes", buffer.bloomBytes())
                    .counter(IndexStats.HEAP_BYTES, buffer.heapBytes() + detached.heapBytes() + sorter.heapBytes())
                    .counter(SwareCounters.BUFFER_FLUSHES, counters.bufferFlushes)
                    .counter(SwareCounters.FLUSHED_ENTRIES, counters.flushedEntries)
                    .counter(SwareCounters.UNSORTED_PREFIX_FLUSHES, counters.prefixFlushesWithoutSort)
                    .counter(SwareCounters.KEPT_ENTRIES, retention.lastKept())
                    .counter(SwareCounters.KEPT_SHRINKS, retention.shrinks())
                    .counter(SwareCounters.KEPT_GROWTHS, retention.growths())
                    .counter(SwareCounters.BATCHES_PAST_BUFFER, counters.batchesPastBuffer)
                    .counter(SwareCounters.ENTRIES_PAST_BUFFER, counters.entriesPastBuffer)
                    .counter(SwareCounters.KL_SORTS, counters.klSorts)
                    .counter(SwareCounters.KL_FALLBACKS, counters.klFallbacks)
                    .counter(SwareCounters.MERGE_SORTS, counters.mergeSorts)
                    .counter(SwareCounters.RADIX_SORTS, counters.radixSorts)
                    .counter(SwareCounters.SORTS_AHEAD, counters.sortsAhead)
                    .counter(SwareCounters.QUERY_DRIVEN_SORTS, counters.queryDrivenSorts)
                    .counter(SwareCounters.TOMBSTONES, counters.tombstones)
                    .counter(SwareCounters.DIRECT_TREE_DELETES, counters.directTreeDeletes)
                    .counter(SwareCounters.LOOKUPS, reads.lookups)
                    .counter(SwareCounters.BUFFER_HITS, reads.bufferHits)
                    .counter(SwareCounters.BUFFER_SKIPS, reads.bufferSkips)
                    .counter(SwareCounters.TREE_SKIPS, reads.treeSkips)
                    .counter(SwareCounters.BLOOM_NEGATIVES, reads.bloomNegatives)
                    .counter(SwareCounters.ZONE_SKIPS, reads.zoneSkips)
                    .counter(SwareCounters.ZONES_SCANNED, reads.zonesScanned)
                    .counter(SwareCounters.INTERPOLATION_STEPS, reads.interpolationSteps)
                    .averageLeafFill(treeStats.averageLeafFill());
            return stats.build();
        } finally {
            unlockForRead(treeLocked);
        }
    }

    /** Closes the tree (freeing its off-heap memory) and drops the buffer. Idempotent. */
    @Override
    public void close() {
        if (locking ? lock.getReadHoldCount() > 0 : scanDepth > 0) {
            throw new ConcurrentModificationException("cannot close the index from inside one of its scans");
        }
        lockExclusive();
        try {
            // The owner's reads take no lock: only it closes the index while it lives. Its termination orders
            // everything it did before this thread's isAlive() returns false (JLS 17.4.4).
            if (pinned && !closed && owner != null && owner != Thread.currentThread() && owner.isAlive()) {
                throw pinnedTo("close");
            }
            if (!closed) {
                treeLock.writeLock().lock(); // a detached run on its way to the tree arrives first
                try {
                    closed = true;
                    allowInOrderAppends();
                    tree.close();
                } finally {
                    treeLock.writeLock().unlock();
                }
            }
        } finally {
            unlockExclusive();
        }
    }

    void ensureOpen() {
        if (closed || emitFailure != null) {
            throw unusable();
        }
    }

    @Override
    public String toString() {
        return closed ? structureName + "{closed}"
                : structureName + "{bufferCapacity=" + buffer.capacity + ", concurrency=" + concurrency + "}";
    }
}
