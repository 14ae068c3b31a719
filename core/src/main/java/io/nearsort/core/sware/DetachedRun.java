package io.nearsort.core.sware;

/**
 * The sorted entries one flush cycle took out of the SWARE buffer, on their way to the tree (§IV-A). Detaching
 * them lets the buffer take appends again while another thread writes them to the tree (§IV-D, see
 * {@link SortednessAwareIndex}). Its arrays trade places with the buffer's at every detach, so no entry is copied
 * twice; whoever holds the index's tree lock owns it.
 */
final class DetachedRun {
    long[] keys = new long[0];
    long[] values = new long[0];
    boolean[] tombstones = new boolean[0];
    /** The entries are {@code [0, count)}, ascending; equal keys are adjacent, the last of them the newest. */
    int count;
    /** Whether only the last of equal keys is to be written (a prefix flushed without sorting keeps them all). */
    boolean keepLastOfEqual;

    /** Arrays of at least {@code capacity} entries, allocated once. */
    void ensureCapacity(final int capacity) {
        if (keys.length < capacity) {
            keys = new long[capacity];
            values = new long[capacity];
            tombstones = new boolean[capacity];
        }
    }
}
