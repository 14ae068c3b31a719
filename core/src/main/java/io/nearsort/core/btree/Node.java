package io.nearsort.core.btree;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

import static io.nearsort.core.btree.NodeDescriptor.COUNT_OFFSET;
import static io.nearsort.core.btree.NodeDescriptor.KIND_INTERNAL;
import static io.nearsort.core.btree.NodeDescriptor.KIND_LEAF;
import static io.nearsort.core.btree.NodeDescriptor.KIND_OFFSET;
import static io.nearsort.core.btree.NodeDescriptor.NEXT_OFFSET;
import static io.nearsort.core.btree.NodeDescriptor.PREV_OFFSET;
import static io.nearsort.core.btree.NodeDescriptor.VERSION_OFFSET;
import static io.nearsort.core.btree.NodeDescriptor.keyOffset;

/**
 * A reusable flyweight over one node page (layout in {@link NodeDescriptor}). It never owns the page. Leaves
 * and internal nodes have different capacities, so the flyweight is told which kind it views; the slot array
 * holds values in a leaf and child addresses in an internal node.
 *
 * <p>Internal to nearsort, not part of its API: the Bε-tree ({@code io.nearsort.core.betree}) keeps its entries
 * in leaves of this layout, so the operations it needs on a leaf are public. The flyweight trusts the page
 * addresses it is given.
 */
public final class Node {
    private static final long LONG_ARRAY_BASE = UnsafeApi.arrayBaseOffset(long[].class);
    /**
     * Key arrays at least this long are searched by interpolation ({@link #interpolatedLowerBound}): below it a
     * binary search touches one or two cache lines anyway.
     */
    static final int INTERPOLATION_MIN = 16;
    /** The farthest probe from an interpolation's guess before the search falls back to binary (1, 2, 4 slots). */
    private static final int MAX_PROBE_DISTANCE = 4;
    /**
     * The fence of a node no separator bounds from above (a tree's right edge, when its largest key is not at
     * hand): {@link #lowerBoundOf(long, int, int, long, long)} then searches between the node's first and last keys.
     */
    public static final long NO_FENCE = Long.MAX_VALUE;

    private final UnsafeBuffer buffer = new UnsafeBuffer();
    private final int pageSize;
    private final int leafCapacity;
    private final int internalCapacity;
    private int capacity;
    private long address;

    /**
     * A flyweight for nodes of {@code pageSize}-byte pages, viewing none yet.
     *
     * @param pageSize bytes per node page, the tree's page size (a power of two from 512 to 1048576)
     */
    public Node(final int pageSize) {
        this.pageSize = pageSize;
        this.leafCapacity = NodeDescriptor.leafCapacity(pageSize);
        this.internalCapacity = NodeDescriptor.internalCapacity(pageSize);
    }

    /**
     * Views the node at {@code page}, reading its kind from the header.
     *
     * @param page the off-heap address of a formatted node page
     * @return this flyweight, now viewing {@code page}
     */
    public Node wrap(final long page) {
        buffer.wrap(page, pageSize);
        address = page;
        capacity = buffer.getInt(KIND_OFFSET) == KIND_LEAF ? leafCapacity : internalCapacity;
        return this;
    }

    /**
     * Formats {@code page} as an empty leaf and views it.
     *
     * @param page the off-heap address of a page no reader can reach yet
     * @return this flyweight, now viewing the new leaf
     */
    public Node initLeaf(final long page) {
        return init(page, KIND_LEAF, leafCapacity);
    }

    /** Formats {@code page} as an internal node with no key and {@code firstChild} as its only child. */
    Node initInternal(final long page, final long firstChild) {
        init(page, KIND_INTERNAL, internalCapacity);
        setSlot(0, firstChild);
        return this;
    }

    private Node init(final long page, final int kind, final int nodeCapacity) {
        buffer.wrap(page, pageSize);
        address = page;
        capacity = nodeCapacity;
        buffer.putInt(KIND_OFFSET, kind);
        buffer.putInt(COUNT_OFFSET, 0);
        buffer.putLong(NEXT_OFFSET, 0L);
        buffer.putLong(PREV_OFFSET, 0L);
        buffer.putLong(VERSION_OFFSET, 0L); // a page is initialised only while no reader can reach it
        return this;
    }

    long address() {
        return address;
    }

    boolean isLeaf() {
        return buffer.getInt(KIND_OFFSET) == KIND_LEAF;
    }

    int capacity() {
        return capacity;
    }

    /**
     * Entries of a leaf, keys of an internal node.
     *
     * @return the viewed node's count, from 0 to its capacity
     */
    public int count() {
        return buffer.getInt(COUNT_OFFSET);
    }

    /**
     * Sets {@link #count()}.
     *
     * @param count the viewed node's new count, from 0 to its capacity (not checked)
     */
    public void setCount(final int count) {
        buffer.putInt(COUNT_OFFSET, count);
    }

    boolean isFull() {
        return count() == capacity;
    }

    long next() {
        return buffer.getLong(NEXT_OFFSET);
    }

    void setNext(final long page) {
        buffer.putLong(NEXT_OFFSET, page);
    }

    long prev() {
        return buffer.getLong(PREV_OFFSET);
    }

    void setPrev(final long page) {
        buffer.putLong(PREV_OFFSET, page);
    }

    long key(final int index) {
        return buffer.getLong(keyOffset(index));
    }

    void setKey(final int index, final long key) {
        buffer.putLong(keyOffset(index), key);
    }

    /** A leaf's value or an internal node's child address. */
    long slot(final int index) {
        return buffer.getLong(NodeDescriptor.slotOffset(capacity, index));
    }

    void setSlot(final int index, final long value) {
        buffer.putLong(NodeDescriptor.slotOffset(capacity, index), value);
    }

    /** Index of the first key {@code >= key}, in [0, count]. */
    int lowerBound(final long key) {
        int lo = 0;
        int hi = count();
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (key(mid) < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Index of the first key {@code > key}, in [0, count]; the child to descend into for {@code key}. */
    int upperBound(final long key) {
        int lo = 0;
        int hi = count();
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (key(mid) <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Moves keys {@code [from, from + n)} to start at {@code to}; ranges may overlap. */
    void moveKeys(final int from, final int to, final int n) {
        move(keyOffset(from), keyOffset(to), n);
    }

    /** Moves slots {@code [from, from + n)} to start at {@code to}; ranges may overlap. */
    void moveSlots(final int from, final int to, final int n) {
        move(NodeDescriptor.slotOffset(capacity, from), NodeDescriptor.slotOffset(capacity, to), n);
    }

    /** Copies keys {@code [from, from + n)} of this node to {@code [to, to + n)} of {@code target}. */
    void copyKeysTo(final int from, final Node target, final int to, final int n) {
        if (n > 0) {
            target.buffer.putBytes(keyOffset(to), buffer, keyOffset(from), n * Long.BYTES);
        }
    }

    /** Copies slots {@code [from, from + n)} of this node to {@code [to, to + n)} of {@code target}. */
    void copySlotsTo(final int from, final Node target, final int to, final int n) {
        if (n > 0) {
            target.buffer.putBytes(NodeDescriptor.slotOffset(target.capacity, to), buffer,
                    NodeDescriptor.slotOffset(capacity, from), n * Long.BYTES);
        }
    }

    /**
     * Writes {@code keys[from, from + n)} and {@code values[from, from + n)} to entries {@code [at, at + n)}: two
     * block copies instead of 2n stores, for the bulk append of sorted runs (SWARE §III). The entries must fit
     * the node ({@code at + n <= capacity}); the count is not changed.
     *
     * @param at the first entry of the node to write, {@code >= 0}
     * @param keys the keys to copy; {@code keys[from, from + n)} is read
     * @param values the values to copy; {@code values[from, from + n)} is read
     * @param from the first index to read in both arrays
     * @param n how many entries to copy; nothing happens when {@code n <= 0}
     * @throws IndexOutOfBoundsException when {@code [at, at + n)} exceeds the node's capacity or
     *                                   {@code [from, from + n)} either array
     */
    public void writeEntries(final int at, final long[] keys, final long[] values, final int from, final int n) {
        if (n <= 0) {
            return;
        }
        checkEntries(at, keys, values, from, n);
        final long bytes = (long) n * Long.BYTES;
        final long array = LONG_ARRAY_BASE + (long) from * Long.BYTES;
        UnsafeApi.copyMemory(keys, array, null, address + keyOffset(at), bytes);
        UnsafeApi.copyMemory(values, array, null, address + NodeDescriptor.slotOffset(capacity, at), bytes);
    }

    /**
     * Copies entries {@code [at, at + n)} to {@code keys[from, from + n)} and {@code values[from, from + n)}: the
     * inverse of {@link #writeEntries}, two block copies.
     *
     * @param at the first entry of the node to read, {@code >= 0}
     * @param keys receives the keys in {@code keys[from, from + n)}
     * @param values receives the values in {@code values[from, from + n)}
     * @param from the first index to write in both arrays
     * @param n how many entries to copy; nothing happens when {@code n <= 0}
     * @throws IndexOutOfBoundsException when {@code [at, at + n)} exceeds the node's capacity or
     *                                   {@code [from, from + n)} either array
     */
    public void readEntries(final int at, final long[] keys, final long[] values, final int from, final int n) {
        if (n <= 0) {
            return;
        }
        checkEntries(at, keys, values, from, n);
        final long bytes = (long) n * Long.BYTES;
        final long array = LONG_ARRAY_BASE + (long) from * Long.BYTES;
        UnsafeApi.copyMemory(null, address + keyOffset(at), keys, array, bytes);
        UnsafeApi.copyMemory(null, address + NodeDescriptor.slotOffset(capacity, at), values, array, bytes);
    }

    private void checkEntries(final int at, final long[] keys, final long[] values, final int from, final int n) {
        if (at < 0 || at + n > capacity) {
            throw new IndexOutOfBoundsException("entries [" + at + ", " + (at + n) + ") exceed the node's capacity "
                    + capacity);
        }
        java.util.Objects.checkFromIndexSize(from, n, keys.length);
        java.util.Objects.checkFromIndexSize(from, n, values.length);
    }

    // ------------------------------------------------------------------ stateless reads
    // Used by the read paths that many threads may run at once (no flyweight state is shared).

    /**
     * {@link #count()} of the node at {@code page}.
     *
     * @param page the off-heap address of a node page
     * @return the node's count: entries of a leaf, keys of an internal node
     */
    public static int countAt(final long page) {
        return UnsafeApi.getInt(page + COUNT_OFFSET);
    }

    /**
     * Key {@code index} of the node at {@code page}.
     *
     * @param page the off-heap address of a node page
     * @param index the key's position, in {@code [0, count)} (not checked)
     * @return the key at {@code index}
     */
    public static long keyAt(final long page, final int index) {
        return UnsafeApi.getLong(page + keyOffset(index));
    }

    /**
     * Slot {@code index} (a leaf's value) of the node of {@code capacity} at {@code page}.
     *
     * @param page the off-heap address of a node page
     * @param capacity the node's capacity (leaf or internal), which places its slot array
     * @param index the slot's position, in {@code [0, count)} for a leaf (not checked)
     * @return the slot: a leaf's value, an internal node's child address
     */
    public static long slotAt(final long page, final int capacity, final int index) {
        return UnsafeApi.getLong(page + NodeDescriptor.slotOffset(capacity, index));
    }

    /** The version of the node at {@code page}, read with acquire semantics (a reader's first read of it). */
    static long versionAcquire(final long page) {
        return UnsafeApi.getLongAcquire(null, page + VERSION_OFFSET);
    }

    /** The version of the node at {@code page}, a plain read (the writer's, or a reader's after a load fence). */
    static long versionAt(final long page) {
        return UnsafeApi.getLong(page + VERSION_OFFSET);
    }

    /** The writer marks the node at {@code page} as changing: an odd version, ordered before the changes. */
    static void beginChange(final long page, final long version) {
        UnsafeApi.putLong(page + VERSION_OFFSET, version + 1);
        UnsafeApi.storeFence();
    }

    /** The writer publishes its changes of the node at {@code page}: the next even version, a release store. */
    static void endChange(final long page, final long oddVersion) {
        UnsafeApi.putLongRelease(null, page + VERSION_OFFSET, oddVersion + 1);
    }

    /**
     * {@link #lowerBound} of the node at {@code page}.
     *
     * @param page the off-heap address of a node page
     * @param key the key to search for; any long
     * @return the index of the first key {@code >= key}, in [0, count]
     */
    public static int lowerBoundAt(final long page, final long key) {
        return lowerBoundAt(page, countAt(page), key);
    }

    /**
     * {@link #lowerBound} of the node at {@code page} over its first {@code count} keys.
     *
     * @param page the off-heap address of a node page
     * @param count how many of its keys to search, at most its count
     * @param key the key to search for; any long
     * @return the index of the first of those keys {@code >= key}, in [0, count]
     */
    public static int lowerBoundAt(final long page, final int count, final long key) {
        return lowerBoundOf(page + keyOffset(0), 0, count, key);
    }

    /**
     * {@link #upperBound} of the node at {@code page}.
     *
     * @param page the off-heap address of a node page
     * @param key the key to search for; any long
     * @return the index of the first key {@code > key}, in [0, count]
     */
    public static int upperBoundAt(final long page, final long key) {
        return upperBoundAt(page, countAt(page), key);
    }

    /**
     * {@link #upperBound} of the node at {@code page} over its first {@code count} keys.
     *
     * @param page the off-heap address of a node page
     * @param count how many of its keys to search, at most its count
     * @param key the key to search for; any long
     * @return the index of the first of those keys {@code > key}, in [0, count]
     */
    public static int upperBoundAt(final long page, final int count, final long key) {
        return upperBoundOf(page + keyOffset(0), 0, count, key);
    }

    /**
     * {@link #lowerBoundAt(long, int, long)} guessed below {@code fence}, the separator above the node in its
     * parent ({@link #lowerBoundOf(long, int, int, long, long)}).
     *
     * @param page the off-heap address of a node page
     * @param count how many of its keys to search, at most its count
     * @param key the key to search for; any long
     * @param fence a key at or above every key of the node, or {@link #NO_FENCE}
     * @return the index of the first of those keys {@code >= key}, in [0, count]
     */
    public static int lowerBoundAt(final long page, final int count, final long key, final long fence) {
        return lowerBoundOf(page + keyOffset(0), 0, count, key, fence);
    }

    /**
     * A point read of the leaf at {@code page}: the value of {@code key}, or {@code defaultValue} when the leaf does
     * not hold it; with {@code presence}, 1 or 0. Its keys are searched below {@code fence}
     * ({@link #lowerBoundOf(long, int, int, long, long)}).
     *
     * @param page the off-heap address of a leaf page
     * @param count how many of its keys to search, at most its count
     * @param leafCapacity the tree's leaf capacity, which places the values
     * @param key the key to look up; any long
     * @param fence a key at or above every key of the leaf, or {@link #NO_FENCE}
     * @param defaultValue returned when the leaf does not hold {@code key} (without {@code presence})
     * @param presence whether to return 1 or 0 (held or not) rather than a value
     * @return the value, {@code defaultValue}, or with {@code presence} 1 or 0
     */
    public static long readLeaf(final long page, final int count, final int leafCapacity, final long key,
            final long fence, final long defaultValue, final boolean presence) {
        final int pos = lowerBoundAt(page, count, key, fence);
        final boolean found = pos < count && keyAt(page, pos) == key;
        if (presence) {
            return found ? 1L : 0L;
        }
        return found ? slotAt(page, leafCapacity, pos) : defaultValue;
    }

    /**
     * {@link #upperBoundAt(long, int, long)} guessed below {@code fence}
     * ({@link #lowerBoundOf(long, int, int, long, long)}).
     *
     * @param page the off-heap address of a node page
     * @param count how many of its keys to search, at most its count
     * @param key the key to search for; any long
     * @param fence a key at or above every key of the node, or {@link #NO_FENCE}
     * @return the index of the first of those keys {@code > key}, in [0, count]
     */
    static int upperBoundAt(final long page, final int count, final long key, final long fence) {
        return upperBoundOf(page + keyOffset(0), 0, count, key, fence);
    }

    /**
     * {@link #upperBound} of the node at {@code page} over its keys {@code [from, count)}, searched forward from
     * {@code from}: keys {@code from}, {@code from + 2}, {@code from + 6}, ... (galloping) until one exceeds
     * {@code key}, then a search ({@link #upperBoundOf}) of the last step. For a key that lies a few slots past
     * {@code from} (a finger search), it reads the cache lines next to {@code from} rather than the node's middle.
     *
     * @param page the off-heap address of a node page
     * @param from the first key to search, in {@code [0, count]}: the caller knows every key before it is
     *             {@code <= key}
     * @param count how many of its keys to search, at most its count
     * @param key the key to search for; any long
     * @return the index of the first of those keys {@code > key}, in [from, count]
     */
    public static int gallopUpperBoundAt(final long page, final int from, final int count, final long key) {
        int lo = from; // every key before lo is <= key
        int step = 1;
        while (lo + step - 1 < count && keyAt(page, lo + step - 1) <= key) {
            lo += step;
            step <<= 1;
        }
        return upperBoundOf(page + keyOffset(0), lo, Math.min(count, lo + step - 1), key);
    }

    /**
     * Index of the first of the ascending {@code long}s at {@code address + 8 i}, {@code i} in {@code [from, to)},
     * that is {@code >= key}, or {@code to}: the search of every off-heap sorted key array (B+-tree keys, Bε-tree
     * pivots and messages). Arrays of {@link #INTERPOLATION_MIN} or more are searched by interpolation first
     * ({@link #interpolatedLowerBound}), shorter ones by binary search.
     *
     * <p>Never reads outside {@code [from, to)} and always returns an index in {@code [from, to]}, whatever the
     * keys hold: a reader beside the writer may see them out of order, and validates afterwards.
     *
     * @param address the off-heap address of element 0 of the array
     * @param from the first index to search, inclusive
     * @param to the end of the search, exclusive, {@code >= from}
     * @param key the key to search for; any long
     * @return the index of the first element {@code >= key}, in {@code [from, to]}; {@code to} when there is none
     */
    public static int lowerBoundOf(final long address, final int from, final int to, final long key) {
        if (to - from >= INTERPOLATION_MIN) {
            return interpolatedLowerBound(address, from, to, key);
        }
        return binaryLowerBound(address, from, to, key);
    }

    /** @return the {@code long} at index {@code i} of the off-heap array at {@code address} */
    private static long at(final long address, final int i) {
        return UnsafeApi.getLong(address + (long) i * Long.BYTES);
    }

    /**
     * {@link #lowerBoundOf} by interpolation (as SWARE §IV-B searches the buffer's sorted runs; here every tree
     * node): the first and last keys, read together, place {@code key}'s guess where a straight line through them
     * puts it; up to three probes at 1, 2 and 4 slots from the guess, on the side the guess says, bracket the
     * answer, and a binary search finishes inside the bracket, or over the rest of the array when the keys are
     * too far from a line for the probes to reach it.
     *
     * <p>Why: a leaf that is no longer in the cache costs a memory latency per dependent probe, and a binary search
     * over a 4 KiB leaf's keys makes five or six of them. Keys spread evenly within a node, as timestamps, row ids
     * and hashed keys are, take two: the two ends (together), then the guess and its neighbours, one cache line.
     * Over 10M-key B+-trees and SA B+-trees written one put per record, random lookups of present keys took
     * 1.4–2.8x less time when independent and 1.35–1.55x when each waited for the one before. Keys that jump by
     * 10^9 after one key in a hundred (two or three jumps per leaf, so the line guesses badly) cost the same as
     * with the binary search alone (within 1%). docs/benchmarks.md, 2026-11-28, tenth session, has the runs.
     */
    private static int interpolatedLowerBound(final long address, final int from, final int to, final long key) {
        final long first = at(address, from);
        final long last = at(address, to - 1);
        if (key <= first) {
            return from;
        }
        if (key > last) {
            return to;
        }
        // first < key <= last: the answer lies in [from + 1, to - 1]
        final int span = to - 1 - from;
        final double scaled = ((double) key - (double) first) / ((double) last - (double) first) * span;
        final int guess = scaled >= span ? to - 1 : Math.max(from + 1, from + (int) scaled);
        return bracketedLowerBound(address, from + 1, to - 1, key, guess);
    }

    /**
     * {@link #lowerBoundOf} of an array whose keys all lie at or below {@code fence}, the separator above it in its
     * parent (a B+-tree's next key, a Bε-tree's next pivot, or the tree's largest key on its right edge), by
     * interpolation between its first key and the fence rather than its first and last keys.
     *
     * <p>Why: the last key's index is the node's count, so reading it waits for the node's first cache line, and the
     * guess waits for the last key's line: three dependent misses in a node that has left the cache (the first
     * line, the last key's, the guess's). The fence comes from the parent's search, already in the cache, so the
     * guess needs only the first line: two. Over 10M-key trees, random lookups of present keys took 18–30% less
     * time in the plain B+-tree, 15–27% in the SA B+-tree and 5–14% in the Bε-trees, whose internal nodes stay
     * cached (docs/benchmarks.md, 2026-11-28, twelfth session).
     *
     * <p>The fence only places the guess: the result is exact whatever it holds (a fence below the keys, or one
     * read by a reader beside the writer, costs probes, never a wrong index). {@link #NO_FENCE} (also
     * {@code Long.MAX_VALUE}, which is a legal key) means none is known; the search is then {@link #lowerBoundOf}'s.
     *
     * @param address the off-heap address of element 0 of the array
     * @param from the first index to search, inclusive
     * @param to the end of the search, exclusive, {@code >= from}
     * @param key the key to search for; any long
     * @param fence a key at or above every key of the array, or {@link #NO_FENCE}
     * @return the index of the first element {@code >= key}, in {@code [from, to]}; {@code to} when there is none
     */
    public static int lowerBoundOf(final long address, final int from, final int to, final long key,
            final long fence) {
        if (fence == NO_FENCE || to - from < INTERPOLATION_MIN) {
            return lowerBoundOf(address, from, to, key);
        }
        final long first = at(address, from);
        if (key <= first) {
            return from;
        }
        if (fence <= first) {
            return lowerBoundOf(address, from + 1, to, key);
        }
        // first < key: the answer lies in [from + 1, to]
        final int span = to - from;
        final double scaled = ((double) key - (double) first) / ((double) fence - (double) first) * span;
        final int guess = scaled >= span - 1 ? to - 1 : Math.max(from + 1, from + (int) scaled);
        return bracketedLowerBound(address, from + 1, to, key, guess);
    }

    /**
     * The interpolation searches' end: the answer lies in {@code [lo, hi]} and {@code guess}, in {@code [lo, hi]}
     * and below the array's end, is a readable index. Up to three probes at 1, 2 and 4 slots from the guess, on the
     * side it says, bracket the answer, and a binary search finishes inside the bracket, or over the rest of
     * {@code [lo, hi]} when the keys are too far from the guess for the probes to reach it.
     */
    private static int bracketedLowerBound(final long address, final int lo0, final int hi0, final long key,
            final int guess) {
        int lo = lo0;
        int hi = hi0;
        if (at(address, guess) < key) {
            lo = guess + 1;
            for (int d = 1; d <= MAX_PROBE_DISTANCE; d <<= 1) {
                final int p = guess + d;
                if (p >= hi) {
                    break;
                }
                if (at(address, p) >= key) {
                    hi = p;
                    break;
                }
                lo = p + 1;
            }
        } else {
            hi = guess; // holds a key >= key
            for (int d = 1; d <= MAX_PROBE_DISTANCE; d <<= 1) {
                final int p = guess - d;
                if (p < lo) {
                    break;
                }
                if (at(address, p) < key) {
                    lo = p + 1;
                    break;
                }
                hi = p;
            }
        }
        return binaryLowerBound(address, lo, hi, key);
    }

    /** {@link #lowerBoundOf} by binary search. */
    private static int binaryLowerBound(final long address, final int from, final int to, final long key) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (UnsafeApi.getLong(address + (long) mid * Long.BYTES) < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * {@link #lowerBoundOf} for the first {@code long} {@code > key}.
     *
     * @param address the off-heap address of element 0 of the array
     * @param from the first index to search, inclusive
     * @param to the end of the search, exclusive, {@code >= from}
     * @param key the key to search for; any long
     * @return the index of the first element {@code > key}, in {@code [from, to]}; {@code to} when there is none
     */
    public static int upperBoundOf(final long address, final int from, final int to, final long key) {
        // The first long > key is the first >= key + 1; no long is > Long.MAX_VALUE.
        return key == Long.MAX_VALUE ? to : lowerBoundOf(address, from, to, key + 1);
    }

    /**
     * {@link #upperBoundOf} guessed below {@code fence} ({@link #lowerBoundOf(long, int, int, long, long)}).
     *
     * @param address the off-heap address of element 0 of the array
     * @param from the first index to search, inclusive
     * @param to the end of the search, exclusive, {@code >= from}
     * @param key the key to search for; any long
     * @param fence a key at or above every key of the array, or {@link #NO_FENCE}
     * @return the index of the first element {@code > key}, in {@code [from, to]}; {@code to} when there is none
     */
    public static int upperBoundOf(final long address, final int from, final int to, final long key,
            final long fence) {
        return key == Long.MAX_VALUE ? to : lowerBoundOf(address, from, to, key + 1, fence);
    }

    private void move(final int fromOffset, final int toOffset, final int n) {
        if (n <= 0) {
            return;
        }
        final int bytes = n * Long.BYTES;
        if (UnsafeBuffer.SHOULD_BOUNDS_CHECK) {
            buffer.boundsCheck(fromOffset, bytes);
            buffer.boundsCheck(toOffset, bytes);
        }
        // Unsafe.copyMemory has memmove semantics, so overlapping shifts are safe.
        UnsafeApi.copyMemory(address + fromOffset, address + toOffset, bytes);
    }
}
