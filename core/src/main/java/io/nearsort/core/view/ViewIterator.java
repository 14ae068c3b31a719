package io.nearsort.core.view;

import io.nearsort.core.LongCursor;

import java.util.AbstractMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * Iterates a {@link LongIndexMapView} in its order through one cursor, yielding keys or write-through entries.
 * {@link #remove()} deletes the last returned key from the index; the cursor then re-seeks by key.
 */
final class ViewIterator<T> implements Iterator<T> {
    static final boolean ENTRIES = true;
    static final boolean KEYS = false;

    private final LongIndexMapView view;
    private final boolean entries;
    private LongCursor cursor;
    private boolean started;
    private boolean peeked;
    private boolean hasNext;
    private boolean canRemove;
    private long lastKey;

    ViewIterator(final LongIndexMapView view, final boolean entries) {
        this.view = view;
        this.entries = entries;
    }

    @Override
    public boolean hasNext() {
        if (!peeked) {
            if (!started) {
                started = true;
                cursor = view.comparator() == null ? view.absLowest() : view.absHighest();
                hasNext = cursor != null;
            } else if (hasNext) {
                hasNext = view.advance(cursor);
            }
            peeked = true;
        }
        return hasNext;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        peeked = false;
        canRemove = true;
        lastKey = cursor.key();
        return (T) (entries ? new WriteThroughEntry(view, lastKey, cursor.value()) : Long.valueOf(lastKey));
    }

    @Override
    public void remove() {
        if (!canRemove) {
            throw new IllegalStateException("next() was not called, or remove() was already called after it");
        }
        canRemove = false;
        view.index().remove(lastKey);
    }

    /** An entry whose {@code setValue} writes to the index, as {@code TreeMap}'s iterator entries do. */
    private static final class WriteThroughEntry extends AbstractMap.SimpleEntry<Long, Long> {
        private static final long serialVersionUID = 1L;
        private final transient LongIndexMapView view;

        WriteThroughEntry(final LongIndexMapView view, final long key, final long value) {
            super(key, value);
            this.view = view;
        }

        @Override
        public Long setValue(final Long value) {
            Objects.requireNonNull(value, "value");
            view.index().put(getKey(), value);
            return super.setValue(value);
        }

        @Override
        public boolean equals(final Object o) {
            return o instanceof Map.Entry && super.equals(o);
        }

        @Override
        public int hashCode() {
            return super.hashCode();
        }
    }
}
