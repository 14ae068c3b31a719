package io.nearsort.core.memory;

/**
 * A per-thread stack of free page addresses in a concurrent {@link PageArena}: allocations and frees that hit
 * it take no lock. Confined to its thread.
 */
final class ThreadPageCache {
    private final long[] pages;
    private int count;

    ThreadPageCache(final int capacity) {
        this.pages = new long[capacity];
    }

    int capacity() {
        return pages.length;
    }

    boolean isEmpty() {
        return count == 0;
    }

    boolean isFull() {
        return count == pages.length;
    }

    void push(final long page) {
        pages[count++] = page;
    }

    long pop() {
        return pages[--count];
    }
}
