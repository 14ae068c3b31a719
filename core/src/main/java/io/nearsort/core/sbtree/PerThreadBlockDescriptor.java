package io.nearsort.core.sbtree;

/**
 * The layout of a per-thread data block (SB-Tree §III-C, §IV-A, Figure 4): append-only, written by one thread,
 * keys and values interleaved so that an insert writes one contiguous stretch, followed by the write stamps that
 * order writes of one key from different threads ({@link WriteStamps}).
 *
 * <pre>
 *   0              4              8              12             16                      24                     32
 *   +--------------+--------------+--------------+--------------+-----------------------+----------------------+
 *   | published    | owner id     | generation   | flags (int): | min key (long)        | max key (long)       |
 *   | (int)        | (int)        | (int)        | 1 ascending  |                       |                      |
 *   +--------------+--------------+--------------+--------------+-----------------------+----------------------+
 *   32: slot in the segmented block (int)    36..63: unused
 *   64: entries[c]: key (long), value (long)       64 + 16·c: stamps[c] (int): stamp << 1 | tombstone
 * </pre>
 *
 * <p>{@code published} is the number of complete entries: the owner writes entry {@code i} and the header,
 * then stores {@code i + 1} with release semantics; readers load it with acquire semantics and read only below
 * it. The min and max keys and the ascending flag describe at least the published entries (they may already
 * include an entry being written: a wider range, or "not ascending", only makes a reader look harder).
 */
final class PerThreadBlockDescriptor {
    static final int PUBLISHED_OFFSET = 0;
    static final int OWNER_OFFSET = 4;
    static final int GENERATION_OFFSET = 8;
    static final int FLAGS_OFFSET = 12;
    static final int MIN_KEY_OFFSET = 16;
    static final int MAX_KEY_OFFSET = 24;
    static final int SLOT_OFFSET = 32;
    static final int ENTRIES_OFFSET = 64;
    static final int ENTRY_LENGTH = 2 * Long.BYTES;

    static final int FLAG_ASCENDING = 1;
    static final int TOMBSTONE = 1;

    final int capacity;
    final int stampsOffset;

    PerThreadBlockDescriptor(final int blockSize) {
        this(blockSize, capacity(blockSize));
    }

    /** Per-thread blocks holding at most {@code capacity} entries, at most what fits {@code blockSize} bytes. */
    PerThreadBlockDescriptor(final int blockSize, final int capacity) {
        if (capacity < 1 || capacity > capacity(blockSize)) {
            throw new IllegalArgumentException("capacity must be in [1, " + capacity(blockSize) + "] (got: "
                    + capacity + ")");
        }
        this.capacity = capacity;
        this.stampsOffset = ENTRIES_OFFSET + capacity * ENTRY_LENGTH;
    }

    /** Entries a per-thread block of {@code blockSize} bytes holds. */
    static int capacity(final int blockSize) {
        return (blockSize - ENTRIES_OFFSET) / (ENTRY_LENGTH + Integer.BYTES);
    }

    static long keyAddress(final long block, final int index) {
        return block + ENTRIES_OFFSET + (long) index * ENTRY_LENGTH;
    }

    static long valueAddress(final long block, final int index) {
        return block + ENTRIES_OFFSET + (long) index * ENTRY_LENGTH + Long.BYTES;
    }

    long stampAddress(final long block, final int index) {
        return block + stampsOffset + ((long) index << 2);
    }
}
