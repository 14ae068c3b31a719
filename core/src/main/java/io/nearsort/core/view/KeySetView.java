package io.nearsort.core.view;

import java.util.AbstractSet;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableSet;
import java.util.SortedSet;

/** The live key set of a {@link LongIndexMapView}, as a {@link NavigableSet}; it does not support adding. */
final class KeySetView extends AbstractSet<Long> implements NavigableSet<Long> {
    private final LongIndexMapView map;

    KeySetView(final LongIndexMapView map) {
        this.map = map;
    }

    @Override
    public Iterator<Long> iterator() {
        return new ViewIterator<>(map, ViewIterator.KEYS);
    }

    @Override
    public Iterator<Long> descendingIterator() {
        return descendingSet().iterator();
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public boolean isEmpty() {
        return map.isEmpty();
    }

    @Override
    public boolean contains(final Object o) {
        return map.containsKey(o);
    }

    @Override
    public boolean remove(final Object o) {
        return map.remove(o) != null;
    }

    @Override
    public void clear() {
        map.clear();
    }

    @Override
    public Comparator<? super Long> comparator() {
        return map.comparator();
    }

    @Override
    public Long first() {
        return map.firstKey();
    }

    @Override
    public Long last() {
        return map.lastKey();
    }

    @Override
    public Long lower(final Long key) {
        return map.lowerKey(key);
    }

    @Override
    public Long floor(final Long key) {
        return map.floorKey(key);
    }

    @Override
    public Long ceiling(final Long key) {
        return map.ceilingKey(key);
    }

    @Override
    public Long higher(final Long key) {
        return map.higherKey(key);
    }

    @Override
    public Long pollFirst() {
        return key(map.pollFirstEntry());
    }

    @Override
    public Long pollLast() {
        return key(map.pollLastEntry());
    }

    @Override
    public NavigableSet<Long> descendingSet() {
        return new KeySetView((LongIndexMapView) map.descendingMap());
    }

    @Override
    public NavigableSet<Long> subSet(final Long fromElement, final boolean fromInclusive,
                                     final Long toElement, final boolean toInclusive) {
        return new KeySetView((LongIndexMapView) map.subMap(fromElement, fromInclusive, toElement, toInclusive));
    }

    @Override
    public NavigableSet<Long> headSet(final Long toElement, final boolean inclusive) {
        return new KeySetView((LongIndexMapView) map.headMap(toElement, inclusive));
    }

    @Override
    public NavigableSet<Long> tailSet(final Long fromElement, final boolean inclusive) {
        return new KeySetView((LongIndexMapView) map.tailMap(fromElement, inclusive));
    }

    @Override
    public SortedSet<Long> subSet(final Long fromElement, final Long toElement) {
        return subSet(fromElement, true, toElement, false);
    }

    @Override
    public SortedSet<Long> headSet(final Long toElement) {
        return headSet(toElement, false);
    }

    @Override
    public SortedSet<Long> tailSet(final Long fromElement) {
        return tailSet(fromElement, true);
    }

    private static Long key(final Map.Entry<Long, Long> entry) {
        return entry == null ? null : entry.getKey();
    }
}
