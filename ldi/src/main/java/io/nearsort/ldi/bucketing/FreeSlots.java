package io.nearsort.ldi.bucketing;

/** The free slots of the {@link MainBuffer}: a binary min-heap, so the lowest free slot is reused first. */
final class FreeSlots {
    private final int[] heap;
    private int size;

    /** All of {@code [0, capacity)} free. */
    FreeSlots(final int capacity) {
        heap = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            heap[i] = i;
        }
        size = capacity;
    }

    int size() {
        return size;
    }

    int pollLowest() {
        if (size == 0) {
            throw new IllegalStateException("no free slot");
        }
        final int lowest = heap[0];
        final int last = heap[--size];
        int i = 0;
        while (true) {
            final int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            final int smaller = child + 1 < size && heap[child + 1] < heap[child] ? child + 1 : child;
            if (heap[smaller] >= last) {
                break;
            }
            heap[i] = heap[smaller];
            i = smaller;
        }
        if (size > 0) {
            heap[i] = last;
        }
        return lowest;
    }

    void add(final int slot) {
        int i = size++;
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            if (heap[parent] <= slot) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = slot;
    }
}
