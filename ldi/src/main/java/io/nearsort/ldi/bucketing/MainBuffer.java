package io.nearsort.ldi.bucketing;

/**
 * LDI's main buffer of B tuples (§2): fixed slots that leaf intervals point into. A written bucket frees its
 * slots, and the next tuples reuse them (so the buffer rows of Figure 2b show new keys in old positions).
 */
final class MainBuffer {
    private final long[] keys;
    private final long[] rowRefs;
    private final long[] arrivals;
    private final boolean[] used;
    private final FreeSlots free;

    MainBuffer(final int capacity) {
        keys = new long[capacity];
        rowRefs = new long[capacity];
        arrivals = new long[capacity];
        used = new boolean[capacity];
        free = new FreeSlots(capacity);
    }

    /** Stores a tuple in the lowest free slot and returns the slot. */
    int store(final long key, final long rowRef, final long arrival) {
        final int slot = free.pollLowest();
        keys[slot] = key;
        rowRefs[slot] = rowRef;
        arrivals[slot] = arrival;
        used[slot] = true;
        return slot;
    }

    void release(final int slot) {
        used[slot] = false;
        free.add(slot);
    }

    boolean isFull() {
        return free.size() == 0;
    }

    int capacity() {
        return keys.length;
    }

    int occupied() {
        return keys.length - free.size();
    }

    boolean used(final int slot) {
        return used[slot];
    }

    long key(final int slot) {
        return keys[slot];
    }

    long rowRef(final int slot) {
        return rowRefs[slot];
    }

    long arrival(final int slot) {
        return arrivals[slot];
    }
}
