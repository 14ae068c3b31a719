package io.nearsort.core.betree;

import java.util.Arrays;

/**
 * A batch of buffered messages on the heap, sorted by key with one message per key: a node buffer being flushed,
 * or the group of messages a flush carries to one child. Growable scratch owned by the tree's writer.
 */
final class Messages {
    long[] keys;
    long[] values;
    byte[] kinds;
    int count;

    Messages(final int capacity) {
        keys = new long[capacity];
        values = new long[capacity];
        kinds = new byte[capacity];
    }

    void ensureCapacity(final int capacity) {
        if (keys.length < capacity) {
            final int grown = Math.max(capacity, keys.length + (keys.length >> 1));
            keys = Arrays.copyOf(keys, grown);
            values = Arrays.copyOf(values, grown);
            kinds = Arrays.copyOf(kinds, grown);
        }
    }

    /** Makes this batch the one message {@code key → value} of {@code kind}. */
    void setSingle(final long key, final long value, final byte kind) {
        keys[0] = key;
        values[0] = value;
        kinds[0] = kind;
        count = 1;
    }

    /** Index of the first message with a key {@code >= key} among {@code [from, count)}. */
    int lowerBound(final long key, final int from) {
        final int found = Arrays.binarySearch(keys, from, count, key); // keys are unique
        return found >= 0 ? found : -found - 1;
    }

    /** Replaces this batch with messages {@code [from, to)} of {@code source}. */
    void copyOf(final Messages source, final int from, final int to) {
        final int n = to - from;
        ensureCapacity(n);
        System.arraycopy(source.keys, from, keys, 0, n);
        System.arraycopy(source.values, from, values, 0, n);
        System.arraycopy(source.kinds, from, kinds, 0, n);
        count = n;
    }

    /** Removes messages {@code [from, to)}. */
    void remove(final int from, final int to) {
        final int tail = count - to;
        System.arraycopy(keys, to, keys, from, tail);
        System.arraycopy(values, to, values, from, tail);
        System.arraycopy(kinds, to, kinds, from, tail);
        count -= to - from;
    }

    /**
     * Merges {@code older} and {@code newer} into {@code out} by key; where both hold a key, the newer message
     * replaces the older one (Bε-tree messages are applied in arrival order, and an upsert or a delete decides
     * its key alone). Returns how many older messages were replaced.
     */
    static int merge(final Messages older, final Messages newer, final Messages out) {
        out.ensureCapacity(older.count + newer.count);
        int i = 0;
        int j = 0;
        int k = 0;
        int replaced = 0;
        while (i < older.count && j < newer.count) {
            final long a = older.keys[i];
            final long b = newer.keys[j];
            if (a < b) {
                out.put(k++, older, i++);
            } else {
                if (a == b) {
                    i++;
                    replaced++;
                }
                out.put(k++, newer, j++);
            }
        }
        while (i < older.count) {
            out.put(k++, older, i++);
        }
        while (j < newer.count) {
            out.put(k++, newer, j++);
        }
        out.count = k;
        return replaced;
    }

    private void put(final int at, final Messages source, final int index) {
        keys[at] = source.keys[index];
        values[at] = source.values[index];
        kinds[at] = source.kinds[index];
    }
}
