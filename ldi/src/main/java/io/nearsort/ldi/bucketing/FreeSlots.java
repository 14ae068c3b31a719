package io.nearsort.ldi.bucketing;

/**
 * The free slots of the {@link MainBuffer}, so that the lowest free slot is reused first (Figure 2b's new keys in old
 * positions): a bitmap of free slots under a summary bitmap of the words that have one, so taking the lowest and
 * freeing one cost a few word operations instead of a heap's O(log B) (B = the buffer's capacity).
 */
final class FreeSlots {
    private final long[] words;
    private final long[] summary;
    private int size;

    /** All of {@code [0, capacity)} free. */
    FreeSlots(final int capacity) {
        words = new long[(capacity + 63) >>> 6];
        summary = new long[(words.length + 63) >>> 6];
        for (int slot = 0; slot < capacity; slot++) {
            add(slot);
        }
    }

    int size() {
        return size;
    }

    int pollLowest() {
        for (int s = 0; s < summary.length; s++) {
            if (summary[s] != 0) {
                final int w = (s << 6) + Long.numberOfTrailingZeros(summary[s]);
                final int slot = (w << 6) + Long.numberOfTrailingZeros(words[w]);
                words[w] &= words[w] - 1;
                if (words[w] == 0) {
                    summary[s] &= ~(1L << w);
                }
                size--;
                return slot;
            }
        }
        throw new IllegalStateException("no free slot");
    }

    void add(final int slot) {
        final int w = slot >>> 6;
        if ((words[w] & (1L << slot)) != 0) {
            throw new IllegalStateException("slot " + slot + " is free already");
        }
        words[w] |= 1L << slot;
        summary[w >>> 6] |= 1L << w;
        size++;
    }
}
