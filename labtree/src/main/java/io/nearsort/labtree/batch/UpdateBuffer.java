package io.nearsort.labtree.batch;

import io.nearsort.labtree.FlushPolicy;
import io.nearsort.labtree.tree.LabTree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Update batching (LAB-tree §5): up to K write requests wait in memory, indexed by key so that reads see them;
 * when a new request finds the buffer full, the {@link FlushPolicy} picks pages (leaves) whose requests are
 * applied to the tree, one leaf access per page. A write to a key already buffered replaces its value and is not a
 * new request.
 *
 * <p>Page identities come from partial lookups ({@link LabTree#locate}) and are kept in a page-information cache
 * of a configurable number of pages, whose space is charged against the buffer (one request slot per page, §5.3),
 * and dropped whenever the tree's leaves change. LPP picks a uniformly random buffered request from an array of
 * slots and flushes its page (Remark B.8). Confined to one thread.
 */
public final class UpdateBuffer {
    private final LabTree tree;
    private final FlushPolicy policy;
    private final int requestCapacity;
    private final int pageCacheCapacity;
    private final SplittableRandom random;
    private final TreeMap<Long, Request> requests = new TreeMap<>();
    /** The buffered keys in no order, for LPP's uniform pick; each request knows its slot. */
    private long[] slots;
    private final TreeMap<Long, LabTree.LeafRange> pageCache = new TreeMap<>();
    private final ArrayDeque<Long> pageCacheOrder = new ArrayDeque<>();
    private long pageCacheVersion = -1;
    private long clock;
    private long flushes;
    private long pagesFlushed;
    private long requestsFlushed;
    private long partialLookups;
    private long pageCacheHits;

    private static final class Request {
        double value;
        long time;
        int slot;
    }

    /** A page found in a pass over the buffer, with its buffered requests. */
    private static final class PageTally {
        final LabTree.LeafRange range;
        int requests;
        long lastTime;

        PageTally(final LabTree.LeafRange range) {
            this.range = range;
        }
    }

    /**
     * Creates an empty buffer in front of {@code tree}.
     *
     * @param tree              the tree the flushes write to
     * @param policy            which pages a flush picks when the buffer is full
     * @param capacity          K, the buffer's space in requests (at least 2 more than the page cache)
     * @param pageCacheCapacity pages whose identity and range are remembered between flushes; charged against K
     * @param seed              seed of LPP's random choices
     * @throws IllegalArgumentException if {@code pageCacheCapacity} is negative or {@code capacity} does not exceed
     *                                  it by at least 2
     */
    public UpdateBuffer(final LabTree tree, final FlushPolicy policy, final int capacity, final int pageCacheCapacity,
                        final long seed) {
        if (pageCacheCapacity < 0 || capacity - pageCacheCapacity < 2) {
            throw new IllegalArgumentException("updateBuffer capacity must exceed the page-information cache by at "
                    + "least 2 (got: capacity " + capacity + ", pageInfoCache " + pageCacheCapacity + ")");
        }
        this.tree = tree;
        this.policy = policy;
        this.requestCapacity = capacity - pageCacheCapacity;
        this.pageCacheCapacity = pageCacheCapacity;
        this.random = new SplittableRandom(seed);
        this.slots = new long[Math.min(requestCapacity + 1, 1 << 16)];
    }

    /**
     * Whether {@code key} has a buffered request.
     *
     * @param key the linearized index to look up; any long
     * @return true when a write to {@code key} is waiting in the buffer
     */
    public boolean contains(final long key) {
        return requests.containsKey(key);
    }

    /**
     * The buffered value of {@code key}, or {@code fallback} when it has no buffered request.
     *
     * @param key      the linearized index to look up; any long
     * @param fallback what to return when {@code key} has no buffered request
     * @return the value of the latest buffered write to {@code key}, or {@code fallback}
     */
    public double get(final long key, final double fallback) {
        final Request r = requests.get(key);
        return r == null ? fallback : r.value;
    }

    /**
     * Visits the buffered requests with keys in [from, to), in key order.
     *
     * @param from    the first key, inclusive
     * @param to      the end key, exclusive; must not be below {@code from}
     * @param visitor receives each buffered key and its value
     */
    public void forEachPending(final long from, final long to, final LabTree.EntryVisitor visitor) {
        for (final Map.Entry<Long, Request> e : requests.subMap(from, true, to, false).entrySet()) {
            visitor.visit(e.getKey(), e.getValue().value);
        }
    }

    /**
     * Buffers a write; flushes first if the new request does not fit.
     *
     * @param key   the linearized index, in [0, N) (the caller checks it)
     * @param value the value to write; the tree's default value deletes the element when applied
     */
    public void put(final long key, final double value) {
        final Request existing = requests.get(key);
        if (existing != null) {
            existing.value = value;
            existing.time = ++clock;
            return;
        }
        final Request r = new Request();
        r.value = value;
        r.time = ++clock;
        r.slot = requests.size();
        if (r.slot == slots.length) {
            slots = java.util.Arrays.copyOf(slots, Math.min(requestCapacity + 1, slots.length * 2));
        }
        slots[r.slot] = key;
        requests.put(key, r);
        // §5.1: the incoming request is eligible for flushing too; flush until the buffer is back within K.
        while (requests.size() > requestCapacity) {
            flushOnce();
        }
    }

    /** Applies every buffered request (at close, before scans). */
    public void flushAll() {
        if (!requests.isEmpty()) {
            flushes++;
            applyAll();
        }
    }

    private void flushOnce() {
        flushes++;
        switch (policy) {
            case ALL:
                applyAll();
                break;
            case LPP:
                apply(pageOf(slots[random.nextInt(requests.size())]));
                break;
            case LG:
                flushLargestGroup(pass());
                break;
            default:
                apply(pickPage(pass()));
                break;
        }
    }

    private LabTree.LeafRange pickPage(final List<PageTally> pages) {
        PageTally best = null;
        for (final PageTally page : pages) {
            if (best == null || better(page, best)) {
                best = page;
            }
        }
        return best.range;
    }

    private boolean better(final PageTally page, final PageTally best) {
        switch (policy) {
            case LRU:
                return page.lastTime < best.lastTime;
            case SP:
                return page.requests < best.requests;
            case LP:
                return page.requests > best.requests;
            default:
                throw new AssertionError(policy);
        }
    }

    private void flushLargestGroup(final List<PageTally> pages) {
        final long[] groupSize = new long[64];
        for (final PageTally page : pages) {
            groupSize[group(page.requests)] += page.requests;
        }
        int largest = 0;
        for (int g = 1; g < groupSize.length; g++) {
            if (groupSize[g] > groupSize[largest]) {
                largest = g;
            }
        }
        for (final PageTally page : pages) {
            if (group(page.requests) == largest) {
                apply(page.range);
            }
        }
    }

    /** Group i holds pages with [2^i, 2^(i+1)) buffered requests. */
    private static int group(final int requests) {
        return 31 - Integer.numberOfLeadingZeros(requests);
    }

    /** One pass in key order: every requested page, its request count and its latest request time. */
    private List<PageTally> pass() {
        final List<PageTally> pages = new ArrayList<>();
        PageTally current = null;
        for (final Map.Entry<Long, Request> e : requests.entrySet()) {
            final long key = e.getKey();
            if (current == null || !current.range.contains(key)) {
                current = new PageTally(pageOf(key));
                pages.add(current);
            }
            current.requests++;
            current.lastTime = Math.max(current.lastTime, e.getValue().time);
        }
        return pages;
    }

    /** The leaf holding {@code key}: from the page-information cache, else by a partial lookup. */
    private LabTree.LeafRange pageOf(final long key) {
        if (pageCacheVersion != tree.structureVersion()) {
            pageCache.clear();
            pageCacheOrder.clear();
            pageCacheVersion = tree.structureVersion();
        }
        final Map.Entry<Long, LabTree.LeafRange> cached = pageCache.floorEntry(key);
        if (cached != null && cached.getValue().contains(key)) {
            pageCacheHits++;
            return cached.getValue();
        }
        partialLookups++;
        final LabTree.LeafRange range = tree.locate(key);
        if (pageCacheCapacity > 0) {
            if (pageCache.size() == pageCacheCapacity) {
                pageCache.remove(pageCacheOrder.removeFirst());
            }
            pageCache.put(range.low(), range);
            pageCacheOrder.addLast(range.low());
        }
        return range;
    }

    /** Flushes one page: every buffered request in its range, in key order. */
    private void apply(final LabTree.LeafRange page) {
        final NavigableMap<Long, Request> batch = requests.subMap(page.low(), true, page.high(), false);
        pagesFlushed++;
        for (final Iterator<Map.Entry<Long, Request>> it = batch.entrySet().iterator(); it.hasNext(); ) {
            final Map.Entry<Long, Request> e = it.next();
            tree.set(e.getKey(), e.getValue().value);
            removeSlot(e.getValue());
            it.remove();
            requestsFlushed++;
        }
    }

    /** Flush-all: the whole buffer in key order; pages counted as the leaves the writes reach. */
    private void applyAll() {
        long lastLeaf = -1;
        for (final Map.Entry<Long, Request> e : requests.entrySet()) {
            tree.set(e.getKey(), e.getValue().value);
            if (tree.lastLeaf() != lastLeaf) {
                pagesFlushed++;
                lastLeaf = tree.lastLeaf();
            }
            requestsFlushed++;
        }
        requests.clear();
    }

    private void removeSlot(final Request r) {
        final int last = requests.size() - 1;
        final long moved = slots[last];
        slots[r.slot] = moved;
        requests.get(moved).slot = r.slot;
    }

    /**
     * Requests waiting in the buffer.
     *
     * @return the number of buffered requests, at most {@link #requestCapacity()}
     */
    public int buffered() {
        return requests.size();
    }

    /**
     * Requests the buffer holds at most (K minus the page-information cache).
     *
     * @return the request capacity, at least 2
     */
    public int requestCapacity() {
        return requestCapacity;
    }

    /**
     * Times the buffer flushed: each time a full buffer invoked the policy, and each {@link #flushAll()} that found
     * requests.
     *
     * @return the number of flushes since the buffer was created
     */
    public long flushes() {
        return flushes;
    }

    /**
     * Pages (leaves) the flushes wrote to, the cost model of LAB-tree §5.1.
     *
     * @return the number of pages flushed since the buffer was created
     */
    public long pagesFlushed() {
        return pagesFlushed;
    }

    /**
     * Requests the flushes applied to the tree.
     *
     * @return the number of requests applied since the buffer was created
     */
    public long requestsFlushed() {
        return requestsFlushed;
    }

    /**
     * Partial lookups ({@link LabTree#locate}) made to identify pages, the ones the page cache answered excluded.
     *
     * @return the number of partial lookups since the buffer was created
     */
    public long partialLookups() {
        return partialLookups;
    }

    /**
     * Page identities the page-information cache supplied without a partial lookup.
     *
     * @return the number of cache hits since the buffer was created
     */
    public long pageCacheHits() {
        return pageCacheHits;
    }
}
