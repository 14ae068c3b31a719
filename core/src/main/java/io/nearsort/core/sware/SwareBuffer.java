package io.nearsort.core.sware;

import io.nearsort.core.sortedness.AdaptiveSorter;
import io.nearsort.core.sortedness.DisplacementEstimator;
import io.nearsort.core.sortedness.SortedOutliers;
import io.nearsort.core.sortedness.ZoneWalkEstimator;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The SWARE buffer (SWARE §IV, OSM-tree §4): a dense array of recent writes organised in zones the size of a
 * bulk-loaded tree leaf, with per-zone zonemaps and Bloom filters, a global Bloom filter over every
 * entry (sorted runs included, unlike the paper), all filled lazily by lookups, and the markers of Fig. 5.
 *
 * <pre>
 *   0                previousBoundary        blocks (query-sorted)          unsortedStart           size   capacity
 *   | main sorted section |  block 1  | block 2 | ... |  unsorted section (newest)  |  free  |
 * </pre>
 *
 * <ul>
 *   <li>{@code previousBoundary}: the main sorted section, retained sorted after the last flush and extended
 *   while appends stay in order (§IV-B "previous_boundary").</li>
 *   <li>{@code sortedPrefixEnd}: entries before it are sorted and no later entry overlaps them, so they can be
 *   flushed without sorting; {@link #lastSortedZone()} is its last whole zone. An out-of-order append that
 *   overlaps the prefix moves it left to the zone holding the first larger key (Fig. 5b); in-order appends
 *   at its end move it right (Fig. 5a, 5d).</li>
 *   <li>While every entry since the last flush came in order, both markers hold {@link #AT_SIZE}, "at the end
 *   of the buffer, wherever that is", so that an in-order append stores neither; the first out-of-order append
 *   pins them to its position ({@link #pinMarkers}). Every use clamps them to the size it reads.</li>
 *   <li>Query-sorted blocks (§IV-C): unsorted sections that reads sorted in place.</li>
 * </ul>
 *
 * <p>Among entries with equal keys the one at the higher position is the newer: appends go to the end, and
 * every reorganisation sorts stably and keeps only the newest version. A tombstone is an entry marking a
 * delete (§IV-D). Not thread-safe: {@link SortednessAwareIndex} guards it with its lock; lookups, which share
 * the lock (or, in a single-writer index, its read indicator), write only the zonemaps and Bloom filters, under
 * {@code coverLock}.
 *
 * <h2>Publication (one writer, many readers)</h2>
 * Readers never read {@link #size}: they take a snapshot {@code n} of the published size ({@link #visibleSize})
 * and pass it to every reader method, which reads entries {@code [0, n)} only. The writer publishes with an
 * ordered store ({@link #publish}, a release store: a plain store on x86) after the entries, their zonemaps,
 * {@code minKey}/{@code maxKey} and {@code previousBoundary}; a reader's acquire load of the published size then
 * sees all of them. This lets {@link SortednessAwareIndex}'s single-writer mode append without a lock while
 * readers hold only the shared lock or a mark in its {@code ReadIndicator}, either of which excludes every
 * reorganisation (flushes, sorts): an append writes only
 * positions at or past the published size, and changes nothing a reader of {@code [0, n)} relies on:
 * <ul>
 *   <li>{@code minKey}/{@code maxKey} only widen, so a reader's check may pass more often, never fail for a
 *   published entry (64-bit plain accesses do not tear on the JVMs we run on);</li>
 *   <li>{@code previousBoundary} only grows, over in-order appends, or is pinned from {@link #AT_SIZE} to the
 *   position of the first out-of-order append before that append is published; readers clamp it to {@code n}
 *   ({@link #sortedEnd}), which gives {@code n} for both values in any snapshot taken before the pin;</li>
 *   <li>appends touch neither the zonemaps nor the Bloom filters: readers build both from published entries
 *   ({@link #coverZones}).</li>
 * </ul>
 */
final class SwareBuffer {
    private static final VarHandle PUBLISHED;

    static {
        try {
            PUBLISHED = MethodHandles.lookup().findVarHandle(SwareBuffer.class, "published", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How many zones back a displaced key's position is looked for, bounding the cost of an estimate. */
    private static final int ESTIMATE_ZONES = 64;
    /** The newest appends {@link #newestAppends} returns. */
    static final int FRONTIER_SAMPLE = 16;
    /** More query-sorted blocks than this are merged into one, bounding the runs a lookup searches. */
    static final int MAX_BLOCKS = 8;
    /**
     * The value of {@code previousBoundary} and {@code sortedPrefixEnd} while they follow the size: every entry
     * since the last flush came in order. Above any size, so that clamping it to a size gives that size.
     */
    private static final int AT_SIZE = Integer.MAX_VALUE;

    final int capacity;
    final int zoneSize;
    /**
     * The entries; replaced by the merge buffers after a reorganisation from position 0 ({@link #install}), and
     * by a detached run's arrays at a flush ({@link #detachPrefix}).
     */
    long[] keys;
    long[] values;
    /**
     * Whether each entry is a tombstone. Stays all false while the buffer holds none ({@link #mayHoldTombstones}),
     * so that then no write stores into it and no reorganisation moves it.
     */
    boolean[] tombstones;
    /**
     * Whether an entry may be a tombstone. While false, {@link #tombstones} and {@link #mergedTombstones} are all
     * false (readers read them as they are), and appends, merges and detaches leave them alone (which took the
     * appends and sorts ahead of a 10M-key K=5%/L=5% stream from 52 and 62 ms to 48 and 57). Set by the first
     * tombstone appended (under the index's exclusive lock, like every delete); cleared by the first flush that
     * leaves none, which clears the arrays. Writer-side state.
     */
    private boolean mayHoldTombstones;
    /**
     * Whether the detached run's tombstone array ({@link #detachPrefix} trades arrays with the run) may hold a
     * true: it was handed over while {@link #mayHoldTombstones}. Cleared, with the array, when it comes back.
     */
    private boolean runTombstonesDirty;
    /** Entries held, as the writer sees them; readers use {@link #visibleSize()} instead. */
    int size;
    /** The size readers may see: written by {@link #publish} (release), read by {@link #visibleSize} (acquire). */
    @SuppressWarnings("unused") // through PUBLISHED
    private int published;
    /** The main sorted section's end, or {@link #AT_SIZE}; see the class comment. */
    private int previousBoundary = AT_SIZE;
    /** The sorted prefix's end, or {@link #AT_SIZE}; see the class comment. */
    private int sortedPrefixEnd = AT_SIZE;
    /**
     * Known true only when {@code keys[0, size)} is strictly ascending (sorted, no key twice), kept up by the
     * writes so that a flush of an in-order buffer does not scan it to find that out; false means "not known"
     * (the callers scan then). Writer-side state, like {@link #size}.
     */
    private boolean strictlyAscending = true;
    /**
     * The size below which {@link #appendInOrder} may append: the capacity while the buffer is one strictly
     * ascending run whose markers follow the size ({@link #AT_SIZE}), it holds no tombstone and its owner allows
     * appends without a lock ({@link #allowInOrderAppends}), 0 otherwise. Derived from those fields ({@link
     * #refreshInOrderLimit}) wherever they change, so that the per-record path tests one field instead of eight
     * (which took 10M sorted keys, one put per record, from 82 to 68 ms in JMH on a 2-core Intel VM: the
     * conditions, two of them volatile reads in the index, had cost more than the stores). Writer-side state.
     */
    private int inOrderLimit;
    /** The owner's part of {@link #inOrderLimit}: whether an in-order append may skip the owner's lock. */
    private boolean inOrderAppendsAllowed = true;
    final int[] blockStarts = new int[MAX_BLOCKS + 1];
    int blockCount;
    private int blocksEnd;

    /**
     * The zonemaps of the unsorted section's zones (§IV-B, Fig. 6), readers' state like the Bloom filters: they
     * are built lazily, by the lookups that consult them ({@link #coverZones}), not by appends, and a zone's
     * zonemap bounds its unsorted entries only (a zone the unsorted section starts inside of may hold sorted
     * entries outside it: lookups never scan those).
     */
    private final long[] zoneMin;
    private final long[] zoneMax;
    private final BloomFilter[] zoneBlooms;
    private final BloomFilter globalBloom;
    /**
     * The zonemaps and per-zone filters cover the unsorted entries before this position, the global filter every
     * entry before {@link #globalBloomEnd} (see {@link #coverZones}). Written by readers under {@link #coverLock}
     * after the zonemaps and bits; read without it before reading them.
     */
    private volatile int coveredEnd;
    private volatile int globalBloomEnd;
    private final Object coverLock = new Object();
    private long minKey;
    private long maxKey;

    /**
     * The running estimate of K (a count) since the last reset, for the sort choice (§IV-C): the appended entries'
     * descents; the retained sorted entries contribute nothing.
     */
    private long outOfOrderAppends;
    /**
     * L for the sort choice (§IV-C), estimated from the unsorted section's keys only when a sort asks (when K
     * does not decide, or the (K,L) sort's greedy pass fails): the zonemap walk, zones of {@link #zoneSize}.
     */
    private final ZoneWalkEstimator displacementEstimator;

    private long[] scratchKeys = new long[0];
    private long[] scratchValues = new long[0];
    private long[] scratchOrder = new long[0];
    private long[] runKeys = new long[0];
    private long[] runPositions = new long[0];
    private long[] nextRunKeys = new long[0];
    private long[] nextRunPositions = new long[0];
    private long[] mergedKeys = new long[0];
    private long[] mergedValues = new long[0];
    private boolean[] mergedTombstones = new boolean[0];
    private final SortedOutliers deferredOutliers = new SortedOutliers();
    private final long[] newestAppends = new long[FRONTIER_SAMPLE];
    /**
     * A flush cycle's sort done ahead ({@link #sortAhead}): whether one waits in the merge buffers, its merged
     * count (-1: the buffer was already sorted), and the buffer it was made from (size, reorganisations), so that
     * {@link #sortAndKeepNewest} takes it only if nothing changed since.
     */
    private boolean sortedAhead;
    private int aheadCount;
    private int aheadSize;
    private int aheadReorganizations;
    /** Changes other than appends (installs, detaches, resets): with the size, they tell a changed buffer. */
    private int reorganizations;

    SwareBuffer(final int capacity, final int zoneSize, final int bloomBitsPerEntry) {
        this.capacity = capacity;
        this.zoneSize = zoneSize;
        this.keys = new long[capacity];
        this.values = new long[capacity];
        this.tombstones = new boolean[capacity];
        final int zones = (capacity + zoneSize - 1) / zoneSize;
        this.zoneMin = new long[zones];
        this.zoneMax = new long[zones];
        this.displacementEstimator = DisplacementEstimator.zoneWalk(zoneSize, ESTIMATE_ZONES);
        if (bloomBitsPerEntry > 0) {
            this.zoneBlooms = new BloomFilter[zones];
            for (int z = 0; z < zones; z++) {
                zoneBlooms[z] = new BloomFilter(zoneSize, bloomBitsPerEntry);
            }
            this.globalBloom = new BloomFilter(capacity, bloomBitsPerEntry);
        } else {
            this.zoneBlooms = null;
            this.globalBloom = null;
        }
        refreshInOrderLimit();
    }

    /** Recomputes {@link #inOrderLimit} from the fields it summarises; called after any of them changes. */
    private void refreshInOrderLimit() {
        inOrderLimit = inOrderAppendsAllowed && previousBoundary == AT_SIZE && sortedPrefixEnd == AT_SIZE
                && strictlyAscending && !mayHoldTombstones ? capacity : 0;
    }

    /**
     * Lets {@link #appendInOrder} append, or stops it (it then returns false and the owner takes its locked path):
     * the owner's conditions for a write without its lock, such as not being closed.
     */
    void allowInOrderAppends(final boolean allowed) {
        inOrderAppendsAllowed = allowed;
        refreshInOrderLimit();
    }

    /** For tests: -1 when {@link #inOrderLimit} is what the fields it summarises say, else its value. */
    int inOrderLimitViolation() {
        final int limit = inOrderLimit;
        refreshInOrderLimit();
        final boolean held = limit == inOrderLimit;
        inOrderLimit = limit;
        return held ? -1 : limit;
    }

    boolean isFull() {
        return size == capacity;
    }

    /** The tombstone flags, or null while the buffer holds no tombstone ({@link #mayHoldTombstones}). */
    boolean[] tombstonesIfAny() {
        return mayHoldTombstones ? tombstones : null;
    }

    /** Makes every entry appended so far, and what describes it, visible to readers (an ordered store). */
    void publish() {
        PUBLISHED.setRelease(this, size);
    }

    /** The published size: a reader's snapshot of how many entries it may read (an acquire load). */
    int visibleSize() {
        return (int) PUBLISHED.getAcquire(this);
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Whether {@code key} lies within the zonemap of the buffer's first {@code n} entries (§IV-B, Fig. 6). */
    boolean mayContain(final long key, final int n) {
        return n > 0 && key >= minKey && key <= maxKey;
    }

    /** The largest buffered key; undefined when empty. */
    long maxKey() {
        return maxKey;
    }

    /**
     * The keys of the newest {@value #FRONTIER_SAMPLE} appends of the unsorted section, sorted, or null when it
     * holds fewer: where the stream has got to ({@link FlushRetention} judges it once the buffer is sorted). Read
     * before the flush cycle's sort, which reorders the section. The array is reused by the next call.
     * Writer-side.
     */
    long[] newestAppends() {
        final int from = size - FRONTIER_SAMPLE;
        if (from < unsortedStart()) {
            return null;
        }
        System.arraycopy(keys, from, newestAppends, 0, FRONTIER_SAMPLE);
        Arrays.sort(newestAppends);
        return newestAppends;
    }

    /** Whether the buffer is empty or one sorted run (the main sorted section, nothing else). */
    boolean isOneSortedRun() {
        return blockCount == 0 && sortedEnd(size) == size && prefixEnd() == size;
    }

    /** Whether the keys, in position order, are strictly ascending (sorted, no key twice). */
    boolean isStrictlyAscending() {
        return strictlyAscending || isStrictlyAscending(keys, 0, size);
    }

    /** Whether the writes since the last flush prove the keys strictly ascending, without a scan. */
    boolean knownStrictlyAscending() {
        return strictlyAscending;
    }

    /**
     * For tests, as a lookup sees the buffer (every entry published): brings the zonemaps up to date as a lookup
     * would, then returns the first unsorted position whose key lies outside its zone's zonemap, or -1.
     */
    int zonemapViolation() {
        coverZones(size);
        for (int i = unsortedStart(); i < size; i++) {
            final int zone = i / zoneSize;
            if (keys[i] < zoneMin[zone] || keys[i] > zoneMax[zone]) {
                return i;
            }
        }
        return -1;
    }

    /**
     * For tests: the first position of the main sorted section ({@code [0, sortedEnd(size))}) or of the sorted
     * prefix ({@code [0, flushablePrefix())}) whose key is below its predecessor's, or -1; -2 when an entry after
     * the sorted prefix is below the prefix's last key (Fig. 5b says it would have cut the prefix).
     */
    int sortedSectionViolation() {
        for (int i = 1; i < Math.max(sortedEnd(size), flushablePrefix()); i++) {
            if (keys[i] < keys[i - 1]) {
                return i;
            }
        }
        final int prefix = flushablePrefix();
        for (int i = prefix; prefix > 0 && i < size; i++) {
            if (keys[i] < keys[prefix - 1]) {
                return -2;
            }
        }
        return -1;
    }

    /**
     * For tests: while the buffer holds no tombstone ({@link #mayHoldTombstones} false), the first position of
     * {@link #tombstones} or of {@link #mergedTombstones} (reported as {@code capacity} plus its position) that is
     * not false, or -1.
     */
    int tombstoneViolation() {
        if (mayHoldTombstones) {
            return -1;
        }
        for (int i = 0; i < tombstones.length; i++) {
            if (tombstones[i]) {
                return i;
            }
        }
        for (int i = 0; i < mergedTombstones.length; i++) {
            if (mergedTombstones[i]) {
                return capacity + i;
            }
        }
        return -1;
    }

    /** Whether {@code [lo, hi]} intersects the zonemap of the buffer's first {@code n} entries. */
    boolean overlaps(final long lo, final long hi, final int n) {
        return n > 0 && lo <= maxKey && hi >= minKey;
    }

    /** Where the unsorted section starts, for the writer. */
    int unsortedStart() {
        return blockCount > 0 ? blocksEnd : sortedEnd(size);
    }

    /** Where the unsorted section starts in a reader's snapshot of {@code n} entries. */
    int unsortedStart(final int n) {
        return blockCount > 0 ? blocksEnd : sortedEnd(n);
    }

    /** The end of the main sorted section in a reader's snapshot of {@code n} entries. */
    int sortedEnd(final int n) {
        return Math.min(previousBoundary, n);
    }

    /** The end of the sorted prefix, for the writer ({@code sortedPrefixEnd} clamped to the size). */
    private int prefixEnd() {
        return Math.min(sortedPrefixEnd, size);
    }

    /** The last whole zone whose entries can be flushed without sorting, or -1. */
    int lastSortedZone() {
        return prefixEnd() / zoneSize - 1;
    }

    /** Entries that can be flushed without sorting: whole zones up to {@link #lastSortedZone()}, or all. */
    int flushablePrefix() {
        final int end = prefixEnd();
        return end == size ? size : (end / zoneSize) * zoneSize;
    }

    /**
     * Bytes of Java heap the buffer's arrays hold (array payloads, object headers left out): the entries (17
     * bytes each), zonemaps, Bloom filters, and, once it has sorted, its merge buffers (17 bytes per entry of
     * capacity), its scratch (56 bytes per entry of the longest run sorted), the deferred outliers and the zone
     * maxima of the last L estimate. Read by {@code stats()} without the writer's lock: a recent value.
     */
    long heapBytes() {
        final long entries = (long) (2 * Long.BYTES + 1) * (keys.length + mergedKeys.length);
        final long scratch = (long) Long.BYTES * (scratchKeys.length + scratchValues.length + scratchOrder.length
                + runKeys.length + runPositions.length + nextRunKeys.length + nextRunPositions.length);
        return entries + scratch + (long) Long.BYTES * (zoneMin.length + zoneMax.length)
                + displacementEstimator.heapBytes()
                + (long) Integer.BYTES * blockStarts.length + bloomBytes() + deferredOutliers.heapBytes();
    }

    long bloomBytes() {
        if (globalBloom == null) {
            return 0;
        }
        return globalBloom.sizeInBytes() + zoneBlooms.length * zoneBlooms[0].sizeInBytes();
    }

    /**
     * Appends the longest non-decreasing run of {@code ks[from, to)} that fits and starts at or above the last
     * buffered key, with exactly the bookkeeping of as many {@link #append}s but copied whole. None of its entries
     * is a descent, so none feeds the K/L estimates or cuts the sorted prefix: {@code sortedPrefixEnd - 1} holds a
     * key at or below every entry after the prefix (a smaller entry would have cut it, Fig. 5b), hence at or below
     * the run. When the run starts at or above every buffered key (Fig. 5a/5d) it extends the main sorted section
     * and the sorted prefix if they follow the size ({@link #AT_SIZE}); otherwise they are pinned below the size
     * (a buffer that is one sorted run ends with its largest key) and the run stays in the unsorted section
     * (Fig. 5c). A batch of
     * near-sorted keys thus goes in as its ascending runs, with {@link #append} only for the descents between them.
     * Returns how many entries were appended; 0 when the run does not qualify.
     */
    int appendRun(final long[] ks, final long[] vs, final int from, final int to) {
        final int p = size;
        if (p == capacity || from >= to || (p > 0 && ks[from] < keys[p - 1])) {
            return 0;
        }
        int end = from + 1;
        final int limit = Math.min(to, from + (capacity - p));
        boolean repeats = p > 0 && ks[from] == keys[p - 1];
        while (end < limit && ks[end] >= ks[end - 1]) {
            repeats |= ks[end] == ks[end - 1];
            end++;
        }
        if (repeats) {
            strictlyAscending = false;
            inOrderLimit = 0;
        }
        final int n = end - from;
        System.arraycopy(ks, from, keys, p, n);
        System.arraycopy(vs, from, values, p, n);
        if (mayHoldTombstones) {
            java.util.Arrays.fill(tombstones, p, p + n, false);
        }
        // The markers, when they follow the size (AT_SIZE), take the run in; otherwise it is in the unsorted section.
        if (p == 0) {
            minKey = ks[from];
            maxKey = ks[end - 1];
        } else {
            maxKey = Math.max(maxKey, ks[end - 1]);
        }
        size = p + n;
        return n;
    }

    /**
     * The common case of an in-order stream, cheaper than {@link #append}: appends {@code key} if it extends a
     * buffer that is one strictly ascending sorted run (the main sorted section, nothing after it, Fig. 5a/5d),
     * there is room and the owner allows it ({@link #allowInOrderAppends}); all of that is one test of {@link
     * #inOrderLimit}. Every marker moves as {@link #append} would move it. Returns false, having changed nothing,
     * otherwise.
     */
    boolean appendInOrder(final long key, final long value) {
        final int p = size;
        if (p >= inOrderLimit || (p > 0 && key <= maxKey)) {
            return false;
        }
        keys[p] = key;
        values[p] = value; // no tombstone in the buffer (inOrderLimit): the flags are all false already
        if (p == 0) {
            minKey = key;
        }
        maxKey = key;
        size = p + 1; // the markers stay AT_SIZE
        return true;
    }

    /**
     * Appends one write; the buffer must not be full. The zonemaps are left to the lookups that need them
     * ({@link #coverZones}): kept per append, as the paper keeps them, their read-modify-writes chain every append
     * to the previous one's stores.
     */
    void append(final long key, final long value, final boolean tombstone) {
        final int p = size;
        keys[p] = key;
        values[p] = value;
        if (tombstone || mayHoldTombstones) {
            markTombstone(p, tombstone);
        }
        // The minimum and maximum are stored in the branches rather than as a min/max of their old values, which
        // would chain every append to the previous one's store.
        if (p == 0 || key >= maxKey) {
            // In order (Fig. 5a, 5d): the sorted section and the sorted prefix take it in if they follow the size
            // (AT_SIZE); once pinned, neither ends at the buffer's end again before the next flush.
            maxKey = key;
            if (p == 0) {
                minKey = key;
            }
        } else {
            pinMarkers(p);
            if (key < minKey) {
                minKey = key;
            }
            if (sortedPrefixEnd > 0 && key < keys[sortedPrefixEnd - 1]) {
                cutSortedPrefix(key); // Fig. 5b; the test is here, the search out of line
            }
        }
        if (p > 0 && key <= keys[p - 1]) {
            noteRepeatOrDescent(p, key);
        }
        size = p + 1;
    }

    /** The tombstone flag of the entry appended at {@code p} (kept out of {@link #append}, as puts have none). */
    private void markTombstone(final int p, final boolean tombstone) {
        if (tombstone) {
            mayHoldTombstones = true;
            inOrderLimit = 0;
        }
        tombstones[p] = tombstone;
    }

    /**
     * For an append at {@code p} below the buffer's largest key: markers that followed the size stop at {@code p},
     * the end of the in-order entries (before the append is published).
     */
    private void pinMarkers(final int p) {
        inOrderLimit = 0;
        if (previousBoundary == AT_SIZE) {
            previousBoundary = p;
        }
        if (sortedPrefixEnd == AT_SIZE) {
            sortedPrefixEnd = p;
        }
    }

    /**
     * For an append below the last key of the sorted prefix, which it overlaps (Fig. 5b): cuts the prefix before
     * the zone holding the first larger key. (An append that overlaps only the unsorted tail, Fig. 5c, leaves the
     * prefix; {@link #append} tells the two apart.)
     */
    private void cutSortedPrefix(final long key) {
        final int firstLarger = SortedSearch.upperBound(keys, 0, sortedPrefixEnd, key);
        sortedPrefixEnd = (firstLarger / zoneSize) * zoneSize;
    }

    /**
     * For an append at {@code p} not above its predecessor: no longer strictly ascending; a descent counts for K
     * (a swap of two keys makes about two displaced entries per descent). L is estimated only if a flush's sort
     * asks ({@link #displacementEstimator}): kept here per descent, its zone walks took about 30% of each append
     * of a K=5%/L=5% stream.
     */
    private void noteRepeatOrDescent(final int p, final long key) {
        strictlyAscending = false;
        inOrderLimit = 0;
        if (key < keys[p - 1]) {
            outOfOrderAppends += 2;
        }
    }

    /**
     * Whether {@code key} may be among the first {@code n} entries: inside the buffer's key range, and not ruled out
     * by the global Bloom filter, which unlike the paper's (the unsorted section only) covers the sorted runs too, so
     * a lookup for a key that lives in the tree skips the interpolation searches as well (§IV-B, Fig. 6). Counts
     * the lookups it turns away in {@code reads}. Every point read runs this: it is kept to a few instructions
     * (the filter is brought up to date out of line), since independent lookups over a tree larger than the cache
     * slow down with every instruction added to each.
     */
    boolean mayHold(final long key, final int n, final SwareCounters.Reads reads) {
        if (!mayContain(key, n)) {
            reads.bufferSkips++;
            return false;
        }
        final BloomFilter bloom = globalBloom;
        if (bloom == null) {
            return true;
        }
        if (globalBloomEnd < n || coveredEnd < n) {
            coverZones(n);
        }
        if (!bloom.mightContain(BloomFilter.hash(key))) {
            reads.bloomNegatives++;
            return false;
        }
        return true;
    }

    /**
     * Position of the newest entry for {@code key} in the unsorted section, newest first, consulting each zone's
     * zonemap and Bloom filter before scanning it (§IV-B, Fig. 7; the global filter is {@link #mayHold});
     * -1 when absent.
     */
    int findInUnsorted(final long key, final int n, final SwareCounters.Reads reads) {
        final int start = unsortedStart(n);
        if (start == n) {
            return -1;
        }
        coverZones(n);
        final long hash = BloomFilter.hash(key);
        for (int zone = (n - 1) / zoneSize; zone >= start / zoneSize; zone--) {
            if (key < zoneMin[zone] || key > zoneMax[zone]) {
                reads.zoneSkips++;
                continue;
            }
            if (zoneBlooms != null && !zoneBlooms[zone].mightContain(hash)) {
                reads.bloomNegatives++;
                continue;
            }
            reads.zonesScanned++;
            final int from = Math.max(start, zone * zoneSize);
            for (int i = Math.min(n, (zone + 1) * zoneSize) - 1; i >= from; i--) {
                if (keys[i] == key) {
                    return i;
                }
            }
        }
        return -1;
    }

    /**
     * Adds the entries appended since the last lookup to the zonemaps and Bloom filters: every entry to the global
     * filter, the unsorted ones to their zone's zonemap and filter. Both are built lazily, by the first lookup
     * that consults them, rather than on every append as in the paper (§IV-B): an ingest-only phase pays nothing
     * for them, and a lookup pays for exactly the entries per-append upkeep would have covered since the previous
     * lookup. Readers run side by side (under the index's shared lock or its read indicator), so they take
     * {@link #coverLock} to add; the volatile ends publish the zonemaps and bits to readers that find them
     * current. A zone's zonemap starts afresh at its first unsorted entry: at the zone's start, or where the
     * unsorted section starts inside it.
     */
    private void coverZones(final int end) {
        if (coveredEnd >= end && (globalBloom == null || globalBloomEnd >= end)) {
            return;
        }
        synchronized (coverLock) {
            if (coveredEnd >= end && (globalBloom == null || globalBloomEnd >= end)) {
                return; // another reader covered at least as much meanwhile
            }
            if (globalBloom != null) {
                for (int p = globalBloomEnd; p < end; p++) {
                    globalBloom.add(BloomFilter.hash(keys[p]));
                }
                globalBloomEnd = Math.max(globalBloomEnd, end);
            }
            final int unsortedFrom = unsortedStart(end);
            int p = Math.max(coveredEnd, unsortedFrom);
            while (p < end) {
                final int zone = p / zoneSize;
                final int zoneEnd = Math.min(end, (zone + 1) * zoneSize);
                long lo;
                long hi;
                if (p % zoneSize == 0 || p == unsortedFrom) {
                    lo = keys[p];
                    hi = keys[p];
                } else {
                    lo = zoneMin[zone];
                    hi = zoneMax[zone];
                }
                final BloomFilter zoneBloom = zoneBlooms == null ? null : zoneBlooms[zone];
                if (zoneBloom != null && p % zoneSize == 0) {
                    // A zone filled from its start: drop the bits of the entries it held before the last flush
                    // (here rather than on append, which then never touches a filter).
                    zoneBloom.clear();
                }
                for (; p < zoneEnd; p++) {
                    final long key = keys[p];
                    lo = Math.min(lo, key);
                    hi = Math.max(hi, key);
                    if (zoneBloom != null) {
                        zoneBloom.add(BloomFilter.hash(key));
                    }
                }
                zoneMin[zone] = lo;
                zoneMax[zone] = hi;
            }
            coveredEnd = Math.max(coveredEnd, end);
        }
    }

    /**
     * Position of the newest entry for {@code key} in the query-sorted blocks and the main sorted section of a
     * snapshot of {@code n} entries.
     */
    int findInSorted(final long key, final int n, final SwareCounters.Reads reads) {
        final long[] steps = new long[1];
        try {
            for (int b = blockCount - 1; b >= 0; b--) {
                final int end = b + 1 < blockCount ? blockStarts[b + 1] : blocksEnd;
                final int found = SortedSearch.findLast(keys, blockStarts[b], end, key, steps);
                if (found >= 0) {
                    return found;
                }
            }
            return SortedSearch.findLast(keys, 0, sortedEnd(n), key, steps);
        } finally {
            reads.interpolationSteps += steps[0];
        }
    }

    /** Whether reads should sort the unsorted section first (§IV-C query-driven sorting); {@code n} a snapshot. */
    boolean unsortedExceeds(final int threshold, final int n) {
        return n - unsortedStart(n) >= threshold;
    }

    /**
     * Sorts the unsorted section into a new query-sorted block (§IV-C, Fig. 8); merges the blocks into one
     * when there are more than {@link #MAX_BLOCKS}.
     *
     * @return whether anything was sorted
     */
    boolean sortUnsortedIntoBlock(final AdaptiveSorter sorter, final SwareCounters counters) {
        final int from = unsortedStart();
        if (from == size) {
            return false;
        }
        // The global filter keeps its bits (the keys that remain are a subset of those it holds); it covers the
        // entries before the rearranged part, and lookups add the rest again.
        int rearranged = from;
        sortAndKeepNewest(from, sorter, counters);
        blockStarts[blockCount++] = from;
        blocksEnd = size;
        if (blockCount > MAX_BLOCKS) {
            rearranged = blockStarts[0];
            sortAndKeepNewest(rearranged, sorter, counters);
            blockCount = 1;
            blocksEnd = size;
        }
        clearZoneBlooms(from);
        globalBloomEnd = Math.min(globalBloomEnd, rearranged);
        coveredEnd = size; // the unsorted section is empty
        return true;
    }

    /**
     * Sorts {@code [from, size)} stably by key and keeps only the newest entry of each key, shrinking
     * {@code size}. Position order is recency order, so the last of equal keys after a stable sort is the newest.
     * The main sorted section and the query-sorted blocks in the range are already sorted runs: only the
     * unsorted section is sorted (with the algorithm §IV-C picks, and not at all when it arrived in order), then
     * the older runs and the sorted unsorted section are merged in one pass that keeps the newest of equal keys.
     */
    void sortAndKeepNewest(final int from, final AdaptiveSorter sorter, final SwareCounters counters) {
        final boolean ahead = sortedAhead && from == 0 && aheadSize == size
                && aheadReorganizations == reorganizations;
        sortedAhead = false;
        final int count = ahead ? aheadCount : sortIntoMergeBuffers(from, sorter, counters, false);
        if (ahead) {
            counters.sortsAhead++;
        }
        if (count >= 0) {
            install(from, count);
        }
        // [from, size) is now strictly ascending; so is the whole buffer when it was all sorted.
        strictlyAscending = from == 0 || (count < 0 && strictlyAscending);
        refreshInOrderLimit();
    }

    /**
     * Does {@link #sortAndKeepNewest}'s sort of the whole buffer for the next flush cycle now, leaving every entry,
     * marker and filter as it is: the result waits in the merge buffers, which no reader reads. A single writer
     * does this before it takes the exclusive lock for the cycle, so that readers wait for the cycle's install,
     * detach and reset only (SortednessAwareIndex).
     */
    void sortAhead(final AdaptiveSorter sorter, final SwareCounters counters) {
        aheadCount = sortIntoMergeBuffers(0, sorter, counters, true);
        aheadSize = size;
        aheadReorganizations = reorganizations;
        sortedAhead = true;
        refreshInOrderLimit(); // the sort may have found the buffer strictly ascending
    }

    /**
     * The sort of {@link #sortAndKeepNewest} into the merge buffers; returns the merged count, or -1 when {@code
     * [from, size)} is already sorted with no repeated key (nothing to move). With {@code leaveEntries} it changes
     * no entry: the unsorted section is sorted in a copy rather than in place.
     */
    private int sortIntoMergeBuffers(final int from, final AdaptiveSorter sorter, final SwareCounters counters,
                                     final boolean leaveEntries) {
        final int n = size - from;
        final int unsortedFrom = Math.max(from, unsortedStart());
        // An in-order buffer is known to be one from its writes; otherwise the unsorted section is checked first:
        // it usually descends early, and the sorted section is long.
        if (n <= 1 || ((blockCount == 0 || blocksEnd <= from)
                && (strictlyAscending
                    || (isStrictlyAscending(keys, Math.max(from, unsortedFrom - 1), size)
                        && isStrictlyAscending(keys, from, unsortedFrom))))) {
            strictlyAscending |= from == 0;
            return -1; // already sorted with no repeated key: nothing to move
        }
        ensureScratch(n);
        // The older entries: the part of the main sorted section in range, merged with the query-sorted blocks
        // in range (oldest first) when there are any.
        long[] olderKeys = keys;
        long[] olderPositions = null;
        int olderStart = from;
        int olderEnd = Math.max(from, sortedEnd(size));
        if (blockCount > 0 && blocksEnd > from) {
            int length = 0;
            for (int i = from; i < olderEnd; i++, length++) {
                runKeys[length] = keys[i];
                runPositions[length] = i;
            }
            for (int b = 0; b < blockCount; b++) {
                final int start = Math.max(from, blockStarts[b]);
                final int end = b + 1 < blockCount ? blockStarts[b + 1] : blocksEnd;
                if (start < end) {
                    length = mergeIntoRun(length, keys, null, start, end);
                }
            }
            olderKeys = runKeys;
            olderPositions = runPositions;
            olderStart = 0;
            olderEnd = length;
        }
        // The unsorted section (the newest entries): sort its (key, position) pairs unless already in order.
        long[] newerKeys = keys;
        long[] newerValues = null;
        long[] newerPositions = null;
        int newerStart = unsortedFrom;
        int newerEnd = size;
        final int tail = size - unsortedFrom;
        final boolean unsorted = tail > 1 && !isSorted(keys, unsortedFrom, size);
        SortedOutliers outliers = null;
        if (unsorted && olderPositions == null && olderEnd == unsortedFrom && !anyTombstone(unsortedFrom, size)) {
            // The usual ingest case: the unsorted section follows the older run directly and holds no tombstone,
            // so it is sorted in place with its values (nothing else moves along), and the merge reads both runs
            // straight from the entry arrays instead of through positions. The (K,L) sort's outliers are merged
            // in by that merge too, rather than into the section first. Ahead of a flush (leaveEntries) the
            // section is sorted in a copy, which the merge reads instead.
            final long[] sortKeys = leaveEntries ? scratchKeys : keys;
            final long[] sortValues = leaveEntries ? scratchValues : values;
            final int sortFrom = leaveEntries ? 0 : unsortedFrom;
            if (leaveEntries) {
                System.arraycopy(keys, unsortedFrom, scratchKeys, 0, tail);
                System.arraycopy(values, unsortedFrom, scratchValues, 0, tail);
                newerKeys = scratchKeys;
                newerValues = scratchValues;
                newerStart = 0;
            }
            count(sorter.sort(sortKeys, sortValues, sortFrom, sortFrom + tail, Math.min(tail, outOfOrderAppends),
                    displacementEstimator, deferredOutliers), counters);
            outliers = deferredOutliers;
            newerEnd = sortFrom + tail - outliers.count();
        } else if (unsorted) {
            System.arraycopy(keys, unsortedFrom, scratchKeys, 0, tail);
            for (int i = 0; i < tail; i++) {
                scratchOrder[i] = unsortedFrom + i;
            }
            count(sorter.sort(scratchKeys, scratchOrder, 0, tail, Math.min(tail, outOfOrderAppends),
                    displacementEstimator, null), counters);
            newerKeys = scratchKeys;
            newerPositions = scratchOrder;
            newerStart = 0;
            newerEnd = tail;
        }
        return mergeKeepingNewest(olderKeys, olderPositions, olderStart, olderEnd,
                newerKeys, newerValues, newerPositions, newerStart, newerEnd, outliers);
    }

    /**
     * Merges two sorted runs of buffer entries, the older first among equal keys, into the merge buffers and
     * keeps only the last (newest) entry of each key; a run's positions are {@code positions}, or its indices
     * when null. The newer run's values are {@code bValues} (a copy of entries, none a tombstone) when not null.
     * The newer run may come with the (K,L) sort's outliers ({@code outliers}, null when none), which belong to
     * it: they go before or after its entries with an equal key as {@link SortedOutliers} says, and after the
     * older run's. Returns the number of entries kept. Near-sorted buffers merge in stretches (the
     * retained entries below the first new one, then new ones up to the next retained one or outlier...): each
     * stretch is one tight loop over one run, so the comparison that picks the run is taken once per stretch
     * rather than per entry. (Copying stretches whole after galloping to their end measured slower at K=5%,
     * L=5%: they are short.)
     */
    private int mergeKeepingNewest(final long[] aKeys, final long[] aPositions, final int aStart, final int aEnd,
                                   final long[] bKeys, final long[] bValues, final long[] bPositions,
                                   final int bStart, final int bEnd, final SortedOutliers outliers) {
        final int cEnd = outliers == null ? 0 : outliers.count();
        int i = aStart;
        int j = bStart;
        int c = 0;
        int out = 0;
        while (j < bEnd || c < cEnd) {
            // The newer run's next entry: its own, unless an outlier comes first.
            final boolean outlierNext = c < cEnd && (j == bEnd || outliers.key(c) < bKeys[j]
                    || (outliers.key(c) == bKeys[j] && outliers.precedesEqualRunKeys(c)));
            final long next = outlierNext ? outliers.key(c) : bKeys[j];
            for (; i < aEnd && aKeys[i] <= next; i++) { // older entries first among equal keys
                out = putMerged(out, aKeys[i], aPositions == null ? i : (int) aPositions[i]);
            }
            if (outlierNext) {
                out = putMerged(out, next, outliers.value(c), false);
                c++;
                continue;
            }
            // A stretch of the newer run, up to the next older entry and the next outlier.
            final boolean olderLeft = i < aEnd;
            final long olderKey = olderLeft ? aKeys[i] : 0;
            final boolean outlierLeft = c < cEnd;
            final long outlierKey = outlierLeft ? outliers.key(c) : 0;
            final boolean outlierFirst = outlierLeft && outliers.precedesEqualRunKeys(c);
            do {
                out = bValues != null ? putMerged(out, bKeys[j], bValues[j], false) // a copy: no tombstone
                        : putMerged(out, bKeys[j], bPositions == null ? j : (int) bPositions[j]);
                j++;
            } while (j < bEnd && (!olderLeft || bKeys[j] < olderKey)
                    && (!outlierLeft || bKeys[j] < outlierKey || (bKeys[j] == outlierKey && !outlierFirst)));
        }
        for (; i < aEnd; i++) {
            out = putMerged(out, aKeys[i], aPositions == null ? i : (int) aPositions[i]);
        }
        return dropOlderRepeats(out);
    }

    /** Writes the entry at {@code source} as merged entry {@code out}. */
    private int putMerged(final int out, final long key, final int source) {
        return putMerged(out, key, values[source], mayHoldTombstones && tombstones[source]);
    }

    /**
     * Writes an entry as merged entry {@code out}; {@link #dropOlderRepeats} keeps the newest of equal keys once
     * the merge is done. (Replacing the previous entry here when its key is equal, as a merge that keeps the newest
     * is usually written, makes each entry's position wait for a load of the one before it; writing them all and
     * dropping repeats afterwards took the sorts ahead of a 10M-key K=5%/L=5% ingest from 61–62 to 59–60 ms.)
     */
    private int putMerged(final int out, final long key, final long value, final boolean tombstone) {
        mergedKeys[out] = key;
        mergedValues[out] = value;
        if (mayHoldTombstones) {
            mergedTombstones[out] = tombstone;
        }
        return out + 1;
    }

    /**
     * Keeps the last (newest) of each run of equal keys among the {@code count} merged entries, in order; returns
     * how many remain. One pass that only reads when no key repeats, the common case of ingest.
     */
    private int dropOlderRepeats(final int count) {
        final long[] k = mergedKeys;
        int i = 1;
        while (i < count && k[i] != k[i - 1]) {
            i++;
        }
        if (i >= count) {
            return count;
        }
        final long[] v = mergedValues;
        final boolean[] t = mergedTombstones;
        int out = i - 1; // entries before i - 1 stay where they are; i - 1 is an older copy of i
        for (int r = i; r < count; r++) {
            if (r + 1 < count && k[r + 1] == k[r]) {
                continue; // an older copy of the next entry
            }
            k[out] = k[r];
            v[out] = v[r];
            t[out] = t[r];
            out++;
        }
        return out;
    }

    /**
     * Makes the {@code count} merged entries the buffer's entries from {@code from} on: from position 0 the
     * merge buffers and the entry arrays trade places (no copy), otherwise the merged entries are copied back.
     */
    private void install(final int from, final int count) {
        reorganizations++;
        if (from == 0) {
            final long[] k = keys;
            keys = mergedKeys;
            mergedKeys = k;
            final long[] v = values;
            values = mergedValues;
            mergedValues = v;
            final boolean[] t = tombstones;
            tombstones = mergedTombstones;
            mergedTombstones = t;
        } else {
            System.arraycopy(mergedKeys, 0, keys, from, count);
            System.arraycopy(mergedValues, 0, values, from, count);
            if (mayHoldTombstones) {
                System.arraycopy(mergedTombstones, 0, tombstones, from, count);
            }
        }
        size = from + count;
    }

    /**
     * Merges the accumulated run {@code runKeys[0, length)} with the newer sorted run {@code otherKeys[start,
     * end)} (whose positions are {@code otherPositions}, or the indices themselves when null); the accumulated
     * run wins ties. Returns the new length.
     */
    private int mergeIntoRun(final int length, final long[] otherKeys, final long[] otherPositions,
                             final int start, final int end) {
        int i = 0;
        int j = start;
        int out = 0;
        while (i < length || j < end) {
            if (j >= end || (i < length && runKeys[i] <= otherKeys[j])) {
                nextRunKeys[out] = runKeys[i];
                nextRunPositions[out++] = runPositions[i++];
            } else {
                nextRunKeys[out] = otherKeys[j];
                nextRunPositions[out++] = otherPositions == null ? j : otherPositions[j];
                j++;
            }
        }
        final long[] k = runKeys;
        runKeys = nextRunKeys;
        nextRunKeys = k;
        final long[] p = runPositions;
        runPositions = nextRunPositions;
        nextRunPositions = p;
        return out;
    }

    private boolean anyTombstone(final int from, final int to) {
        if (!mayHoldTombstones) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (tombstones[i]) {
                return true;
            }
        }
        return false;
    }

    private static boolean isStrictlyAscending(final long[] keys, final int from, final int to) {
        return isAscending(keys, from, to, true);
    }

    private static boolean isSorted(final long[] keys, final int from, final int to) {
        return isAscending(keys, from, to, false);
    }

    /** Whether {@code keys[from, to)} never descends and, when {@code strictly}, never repeats a key. */
    private static boolean isAscending(final long[] keys, final int from, final int to, final boolean strictly) {
        for (int i = from + 1; i < to; i++) {
            if (keys[i] < keys[i - 1] || (strictly && keys[i] == keys[i - 1])) {
                return false;
            }
        }
        return true;
    }

    private static void count(final AdaptiveSorter.Algorithm algorithm, final SwareCounters counters) {
        switch (algorithm) {
            case KL_ADAPTIVE:
                counters.klSorts++;
                break;
            case KL_ADAPTIVE_FELL_BACK:
                counters.klFallbacks++;
                break;
            case RADIX_SORT:
                counters.radixSorts++;
                break;
            default:
                counters.mergeSorts++;
        }
    }

    private void ensureScratch(final int n) {
        if (scratchKeys.length < n) {
            scratchKeys = new long[n];
            scratchValues = new long[n];
            scratchOrder = new long[n];
            runKeys = new long[n];
            runPositions = new long[n];
            nextRunKeys = new long[n];
            nextRunPositions = new long[n];
        }
        if (mergedKeys.length < capacity) {
            // Full size: after a merge from position 0 they become the entry arrays.
            mergedKeys = new long[capacity];
            mergedValues = new long[capacity];
            mergedTombstones = new boolean[capacity];
        }
    }

    /**
     * Hands the first {@code n} entries (to be flushed: at most the sorted prefix, or a sorted buffer) over to
     * {@code run}, and moves the rest to the front; the markers move with them. The buffer's arrays become the
     * run's and the run's earlier arrays the buffer's, so the flushed entries are not copied. Zonemaps and filters
     * are rebuilt by {@link #resetAfterFlush()}.
     */
    void detachPrefix(final int n, final boolean keepLastOfEqual, final DetachedRun run) {
        run.ensureCapacity(capacity);
        final int rest = size - n;
        final long[] k = run.keys;
        final long[] v = run.values;
        final boolean[] t = run.tombstones;
        System.arraycopy(keys, n, k, 0, rest);
        System.arraycopy(values, n, v, 0, rest);
        if (mayHoldTombstones) {
            System.arraycopy(tombstones, n, t, 0, rest);
        } else if (runTombstonesDirty) {
            java.util.Arrays.fill(t, false);
        }
        runTombstonesDirty = mayHoldTombstones;
        run.keys = keys;
        run.values = values;
        run.tombstones = tombstones;
        run.count = n;
        run.keepLastOfEqual = keepLastOfEqual;
        run.mayHoldTombstones = mayHoldTombstones;
        keys = k;
        values = v;
        tombstones = t;
        size = rest;
        reorganizations++;
        strictlyAscending |= rest == 0; // dropping a prefix keeps the rest in order
        if (previousBoundary != AT_SIZE) {
            previousBoundary = Math.max(0, previousBoundary - n);
        }
        if (sortedPrefixEnd != AT_SIZE) {
            sortedPrefixEnd = Math.max(0, sortedPrefixEnd - n);
        }
        for (int b = 0; b < blockCount; b++) {
            blockStarts[b] = Math.max(0, blockStarts[b] - n);
        }
        blocksEnd = Math.max(0, blocksEnd - n);
        refreshInOrderLimit();
    }

    /** Drops every entry (all flushed): an empty buffer, as after a flush that took everything. */
    void clear() {
        size = 0;
        resetAfterFlush();
    }

    /**
     * Resets the markers after a flush left {@code [0, size)} sorted and free of repeated keys (Fig. 5d): the
     * whole buffer is the main sorted section and the sorted prefix; no block, no unsorted entry.
     */
    void resetAfterFlush() {
        reorganizations++;
        if (mayHoldTombstones && !anyTombstone(0, size)) {
            java.util.Arrays.fill(tombstones, false);
            java.util.Arrays.fill(mergedTombstones, false);
            mayHoldTombstones = false;
        }
        strictlyAscending = true;
        previousBoundary = AT_SIZE;
        sortedPrefixEnd = AT_SIZE;
        blockCount = 0;
        blocksEnd = 0;
        outOfOrderAppends = 0;
        clearZoneBlooms(0);
        if (globalBloom != null) {
            globalBloom.clear();
        }
        globalBloomEnd = 0; // lookups add the retained entries again
        coveredEnd = size; // the unsorted section is empty
        if (size > 0) {
            minKey = keys[0];
            maxKey = keys[size - 1];
        }
        refreshInOrderLimit();
    }

    /**
     * Clears the Bloom filters of the zones from the one holding {@code from} on, whose entries a reorganization
     * rearranged; their zonemaps start afresh when lookups next cover them ({@link #coverZones}).
     */
    private void clearZoneBlooms(final int from) {
        if (zoneBlooms != null) {
            for (int zone = from / zoneSize; zone * zoneSize < size; zone++) {
                zoneBlooms[zone].clear();
            }
        }
    }
}
