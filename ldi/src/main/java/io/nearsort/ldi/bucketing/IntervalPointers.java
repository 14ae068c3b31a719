package io.nearsort.ldi.bucketing;

import java.util.Arrays;

/**
 * One leaf interval's pointers into the {@link MainBuffer} (§2): buffer slots in arrival order, plus the smallest
 * and largest key they point to (used to choose which siblings to combine).
 */
final class IntervalPointers {
    private int[] slots = new int[4];
    private int size;
    private long minKey = Long.MAX_VALUE;
    private long maxKey = Long.MIN_VALUE;

    void add(final int slot, final long key) {
        if (size == slots.length) {
            slots = Arrays.copyOf(slots, size * 2);
        }
        slots[size++] = slot;
        minKey = Math.min(minKey, key);
        maxKey = Math.max(maxKey, key);
    }

    int size() {
        return size;
    }

    int slot(final int i) {
        return slots[i];
    }

    long minKey() {
        return minKey;
    }

    long maxKey() {
        return maxKey;
    }

    /** Drops the {@code n} oldest pointers and recomputes the key range of the rest. */
    void removeOldest(final int n, final MainBuffer buffer) {
        System.arraycopy(slots, n, slots, 0, size - n);
        size -= n;
        minKey = Long.MAX_VALUE;
        maxKey = Long.MIN_VALUE;
        for (int i = 0; i < size; i++) {
            final long key = buffer.key(slots[i]);
            minKey = Math.min(minKey, key);
            maxKey = Math.max(maxKey, key);
        }
    }
}
