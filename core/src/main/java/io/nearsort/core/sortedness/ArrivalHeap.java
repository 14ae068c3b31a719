package io.nearsort.core.sortedness;

/**
 * A binary min-heap of (key, value, arrival) entries ordered by (key, arrival): equal keys leave in arrival
 * order, which is what keeps the (K,L)-adaptive sort stable and the streaming estimator's ranks exact. Its
 * capacity is fixed between {@link #reset} calls. Confined to one thread.
 */
final class ArrivalHeap {
    private long[] keys = new long[0];
    private long[] values = new long[0];
    private long[] arrivals = new long[0];
    private int size;

    /** Empties the heap and makes room for {@code capacity} entries. */
    void reset(final int capacity) {
        if (keys.length < capacity) {
            keys = new long[capacity];
            values = new long[capacity];
            arrivals = new long[capacity];
        }
        size = 0;
    }

    /** Bytes of Java heap its arrays hold (array payloads). */
    long heapBytes() {
        return (long) Long.BYTES * (keys.length + values.length + arrivals.length);
    }

    int size() {
        return size;
    }

    void push(final long key, final long value, final long arrival) {
        int i = size++;
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            if (!less(key, arrival, keys[parent], arrivals[parent])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        set(i, key, value, arrival);
    }

    long minKey() {
        return keys[0];
    }

    long minValue() {
        return values[0];
    }

    long minArrival() {
        return arrivals[0];
    }

    /** Removes the smallest entry; the heap must not be empty. */
    void popMin() {
        final int last = --size;
        if (last == 0) {
            return;
        }
        final long key = keys[last];
        final long value = values[last];
        final long arrival = arrivals[last];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= last) {
                break;
            }
            if (child + 1 < last && less(keys[child + 1], arrivals[child + 1], keys[child], arrivals[child])) {
                child++;
            }
            if (!less(keys[child], arrivals[child], key, arrival)) {
                break;
            }
            move(child, i);
            i = child;
        }
        set(i, key, value, arrival);
    }

    /** The key of the {@code i}-th entry in heap order (not sorted). */
    long key(final int i) {
        return keys[i];
    }

    long value(final int i) {
        return values[i];
    }

    long arrival(final int i) {
        return arrivals[i];
    }

    private void move(final int from, final int to) {
        keys[to] = keys[from];
        values[to] = values[from];
        arrivals[to] = arrivals[from];
    }

    private void set(final int i, final long key, final long value, final long arrival) {
        keys[i] = key;
        values[i] = value;
        arrivals[i] = arrival;
    }

    private static boolean less(final long k1, final long a1, final long k2, final long a2) {
        return k1 < k2 || (k1 == k2 && a1 < a2);
    }
}
