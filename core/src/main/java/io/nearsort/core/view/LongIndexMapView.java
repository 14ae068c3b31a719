package io.nearsort.core.view;

import io.nearsort.core.LongCursor;
import io.nearsort.core.LongIndex;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The live {@link NavigableMap} view of any {@link LongIndex}: the whole map, or a key range of it, in
 * ascending or descending order. It behaves as {@link java.util.TreeMap} and its sub-map views do: null keys
 * and values are rejected with {@link NullPointerException}, keys outside a sub-map's range with
 * {@link IllegalArgumentException}, entries returned by navigation methods are immutable snapshots, and
 * entries returned by iterators write through on {@link Map.Entry#setValue}.
 *
 * <p>Views never own memory and work through the index's {@link LongCursor}, so every index gets the whole
 * contract from a handful of primitives. The view has the thread-safety of its index.
 */
public final class LongIndexMapView extends AbstractMap<Long, Long> implements NavigableMap<Long, Long> {
    /** A probe default for get(): a collision with a real value costs one extra containsKey. */
    private static final long ABSENT_PROBE = 0x9E3779B97F4A7C15L;

    private final LongIndex index;
    private final KeyRange range;
    private final boolean descending;

    /**
     * The view of the whole index, in ascending order.
     *
     * @param index the index to view; not null
     */
    public LongIndexMapView(final LongIndex index) {
        this(index, KeyRange.ALL, false);
    }

    private LongIndexMapView(final LongIndex index, final KeyRange range, final boolean descending) {
        this.index = Objects.requireNonNull(index, "index");
        this.range = range;
        this.descending = descending;
    }

    // ------------------------------------------------------------------ Map

    @Override
    public int size() {
        if (range.isAll()) {
            return (int) Math.min(Integer.MAX_VALUE, index.size());
        }
        if (range.isEmpty()) {
            return 0;
        }
        final long n = index.forEachInRange(range.lowestKey(), range.highestKey(), (k, v) -> { });
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    @Override
    public boolean isEmpty() {
        return range.isAll() ? index.isEmpty() : absLowest() == null;
    }

    @Override
    public boolean containsKey(final Object key) {
        final long k = toKey(key);
        return range.contains(k) && index.containsKey(k);
    }

    @Override
    public Long get(final Object key) {
        final long k = toKey(key);
        return range.contains(k) ? lookup(k) : null;
    }

    @Override
    public Long put(final Long key, final Long value) {
        final long k = toKey(key);
        Objects.requireNonNull(value, "value");
        if (!range.contains(k)) {
            throw new IllegalArgumentException("key out of range: " + k);
        }
        final Long previous = lookup(k);
        index.put(k, value);
        return previous;
    }

    @Override
    public Long remove(final Object key) {
        final long k = toKey(key);
        if (!range.contains(k)) {
            return null;
        }
        final Long previous = lookup(k);
        if (previous != null) {
            index.remove(k);
        }
        return previous;
    }

    @Override
    public void clear() {
        final LongCursor cursor = absLowest();
        if (cursor == null) {
            return;
        }
        do {
            index.remove(cursor.key());
        } while (cursor.next() && range.contains(cursor.key()));
    }

    @Override
    public Set<Entry<Long, Long>> entrySet() {
        return new EntrySetView();
    }

    @Override
    public NavigableSet<Long> keySet() {
        return navigableKeySet();
    }

    // ------------------------------------------------------------------ SortedMap / NavigableMap

    @Override
    public Comparator<? super Long> comparator() {
        return descending ? Collections.reverseOrder() : null;
    }

    @Override
    public Long firstKey() {
        return key(requireFound(lowest()));
    }

    @Override
    public Long lastKey() {
        return key(requireFound(highest()));
    }

    @Override
    public Entry<Long, Long> firstEntry() {
        return snapshot(lowest());
    }

    @Override
    public Entry<Long, Long> lastEntry() {
        return snapshot(highest());
    }

    @Override
    public Entry<Long, Long> pollFirstEntry() {
        return removeAndSnapshot(lowest());
    }

    @Override
    public Entry<Long, Long> pollLastEntry() {
        return removeAndSnapshot(highest());
    }

    @Override
    public Entry<Long, Long> lowerEntry(final Long key) {
        return snapshot(lower(toKey(key)));
    }

    @Override
    public Long lowerKey(final Long key) {
        return key(lower(toKey(key)));
    }

    @Override
    public Entry<Long, Long> floorEntry(final Long key) {
        return snapshot(floor(toKey(key)));
    }

    @Override
    public Long floorKey(final Long key) {
        return key(floor(toKey(key)));
    }

    @Override
    public Entry<Long, Long> ceilingEntry(final Long key) {
        return snapshot(ceiling(toKey(key)));
    }

    @Override
    public Long ceilingKey(final Long key) {
        return key(ceiling(toKey(key)));
    }

    @Override
    public Entry<Long, Long> higherEntry(final Long key) {
        return snapshot(higher(toKey(key)));
    }

    @Override
    public Long higherKey(final Long key) {
        return key(higher(toKey(key)));
    }

    @Override
    public NavigableMap<Long, Long> descendingMap() {
        return new LongIndexMapView(index, range, !descending);
    }

    @Override
    public NavigableSet<Long> navigableKeySet() {
        return new KeySetView(this);
    }

    @Override
    public NavigableSet<Long> descendingKeySet() {
        return new KeySetView((LongIndexMapView) descendingMap());
    }

    @Override
    public NavigableMap<Long, Long> subMap(final Long fromKey, final boolean fromInclusive,
                                           final Long toKey, final boolean toInclusive) {
        final long from = toKey(fromKey);
        final long to = toKey(toKey);
        if (descending ? from < to : from > to) {
            throw new IllegalArgumentException("fromKey > toKey");
        }
        return descending
                ? restrict(KeyRange.ALL.withLow(to, toInclusive).withHigh(from, fromInclusive))
                : restrict(KeyRange.ALL.withLow(from, fromInclusive).withHigh(to, toInclusive));
    }

    @Override
    public NavigableMap<Long, Long> headMap(final Long toKey, final boolean inclusive) {
        final long to = toKey(toKey);
        return restrict(descending ? KeyRange.ALL.withLow(to, inclusive) : KeyRange.ALL.withHigh(to, inclusive));
    }

    @Override
    public NavigableMap<Long, Long> tailMap(final Long fromKey, final boolean inclusive) {
        final long from = toKey(fromKey);
        return restrict(descending ? KeyRange.ALL.withHigh(from, inclusive) : KeyRange.ALL.withLow(from, inclusive));
    }

    @Override
    public NavigableMap<Long, Long> subMap(final Long fromKey, final Long toKey) {
        return subMap(fromKey, true, toKey, false);
    }

    @Override
    public NavigableMap<Long, Long> headMap(final Long toKey) {
        return headMap(toKey, false);
    }

    @Override
    public NavigableMap<Long, Long> tailMap(final Long fromKey) {
        return tailMap(fromKey, true);
    }

    // ------------------------------------------------------------------ range and direction

    /** Narrows this view to {@code bounds} (absolute, ascending order), rejecting bounds outside this view. */
    private LongIndexMapView restrict(final KeyRange bounds) {
        if (!bounds.lowUnbounded() && !range.admitsBound(bounds.low(), bounds.lowInclusive())) {
            throw new IllegalArgumentException((descending ? "toKey" : "fromKey") + " out of range: " + bounds.low());
        }
        if (!bounds.highUnbounded() && !range.admitsBound(bounds.high(), bounds.highInclusive())) {
            throw new IllegalArgumentException((descending ? "fromKey" : "toKey") + " out of range: " + bounds.high());
        }
        return new LongIndexMapView(index, range.intersect(bounds), descending);
    }

    private LongCursor lowest() {
        return descending ? absHighest() : absLowest();
    }

    private LongCursor highest() {
        return descending ? absLowest() : absHighest();
    }

    private LongCursor lower(final long key) {
        return descending ? absHigher(key) : absLower(key);
    }

    private LongCursor floor(final long key) {
        return descending ? absCeiling(key) : absFloor(key);
    }

    private LongCursor ceiling(final long key) {
        return descending ? absFloor(key) : absCeiling(key);
    }

    private LongCursor higher(final long key) {
        return descending ? absLower(key) : absHigher(key);
    }

    /** Steps {@code cursor} one entry in this view's order; false past the view's end. */
    boolean advance(final LongCursor cursor) {
        final boolean moved = descending ? cursor.previous() : cursor.next();
        return moved && range.contains(cursor.key());
    }

    LongCursor absLowest() {
        final LongCursor c = index.cursor();
        final boolean found;
        if (range.lowUnbounded()) {
            found = c.seekFirst();
        } else {
            found = range.lowInclusive() ? c.seekCeiling(range.low()) : c.seekHigher(range.low());
        }
        return found && !range.tooHigh(c.key()) ? c : null;
    }

    LongCursor absHighest() {
        final LongCursor c = index.cursor();
        final boolean found;
        if (range.highUnbounded()) {
            found = c.seekLast();
        } else {
            found = range.highInclusive() ? c.seekFloor(range.high()) : c.seekLower(range.high());
        }
        return found && !range.tooLow(c.key()) ? c : null;
    }

    private LongCursor absCeiling(final long key) {
        if (range.tooLow(key)) {
            return absLowest();
        }
        final LongCursor c = index.cursor();
        return c.seekCeiling(key) && !range.tooHigh(c.key()) ? c : null;
    }

    private LongCursor absHigher(final long key) {
        if (range.tooLow(key)) {
            return absLowest();
        }
        final LongCursor c = index.cursor();
        return c.seekHigher(key) && !range.tooHigh(c.key()) ? c : null;
    }

    private LongCursor absFloor(final long key) {
        if (range.tooHigh(key)) {
            return absHighest();
        }
        final LongCursor c = index.cursor();
        return c.seekFloor(key) && !range.tooLow(c.key()) ? c : null;
    }

    private LongCursor absLower(final long key) {
        if (range.tooHigh(key)) {
            return absHighest();
        }
        final LongCursor c = index.cursor();
        return c.seekLower(key) && !range.tooLow(c.key()) ? c : null;
    }

    // ------------------------------------------------------------------ helpers

    private Long lookup(final long key) {
        final long value = index.getOrDefault(key, ABSENT_PROBE);
        if (value != ABSENT_PROBE || index.containsKey(key)) {
            return value;
        }
        return null;
    }

    private static long toKey(final Object key) {
        return (Long) Objects.requireNonNull(key, "key");
    }

    private static Long key(final LongCursor cursor) {
        return cursor == null ? null : cursor.key();
    }

    private static LongCursor requireFound(final LongCursor cursor) {
        if (cursor == null) {
            throw new NoSuchElementException();
        }
        return cursor;
    }

    private static Entry<Long, Long> snapshot(final LongCursor cursor) {
        return cursor == null ? null : new SimpleImmutableEntry<>(cursor.key(), cursor.value());
    }

    private Entry<Long, Long> removeAndSnapshot(final LongCursor cursor) {
        final Entry<Long, Long> entry = snapshot(cursor);
        if (entry != null) {
            index.remove(entry.getKey());
        }
        return entry;
    }

    LongIndex index() {
        return index;
    }

    /** The entries of this view, in its order; iterator removal and {@code setValue} write through. */
    private final class EntrySetView extends AbstractSet<Entry<Long, Long>> {
        @Override
        public Iterator<Entry<Long, Long>> iterator() {
            return new ViewIterator<>(LongIndexMapView.this, ViewIterator.ENTRIES);
        }

        @Override
        public int size() {
            return LongIndexMapView.this.size();
        }

        @Override
        public boolean isEmpty() {
            return LongIndexMapView.this.isEmpty();
        }

        @Override
        public boolean contains(final Object o) {
            if (!(o instanceof Entry)) {
                return false;
            }
            final Entry<?, ?> e = (Entry<?, ?>) o;
            if (!(e.getKey() instanceof Long) || !(e.getValue() instanceof Long)) {
                return false;
            }
            final long k = (Long) e.getKey();
            return range.contains(k) && e.getValue().equals(lookup(k));
        }

        @Override
        public boolean remove(final Object o) {
            if (!contains(o)) {
                return false;
            }
            index.remove((Long) ((Entry<?, ?>) o).getKey());
            return true;
        }

        @Override
        public void clear() {
            LongIndexMapView.this.clear();
        }
    }
}
