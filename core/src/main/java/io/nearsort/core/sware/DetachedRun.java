package io.nearsort.core.sware;

/**
 * The sorted entries one flush cycle took out of the SWARE buffer, on their way to the tree (§IV-A). Detaching
 * them lets the buffer take appends again while another thread writes them to the tree (§IV-D, see
 * {@link SortednessAwareIndex}). Its arrays trade places with the buffer's at every detach, so no entry is copied
 * twice; whoever holds the index's tree lock owns it. Point reads beside the write read it too ({@link #find}):
 * its arrays stay as they are until the next detach, which waits for every read holding the buffer's shared lock.
 */
final class DetachedRun {
    long[] keys = new long[0];
    long[] values = new long[0];
    boolean[] tombstones = new boolean[0];
    /** The entries are {@code [0, count)}, ascending; equal keys are adjacent, the last of them the newest. */
    int count;
    /** Whether only the last of equal keys is to be written (a prefix flushed without sorting keeps them all). */
    boolean keepLastOfEqual;
    /** Whether any entry may be a tombstone; while false, {@link #tombstones} is all false. */
    boolean mayHoldTombstones;

    /** The tombstone flags, or null when no entry is a tombstone ({@link #mayHoldTombstones} false). */
    boolean[] tombstonesIfAny() {
        return mayHoldTombstones ? tombstones : null;
    }

    /** The position of the newest entry for {@code key} (the last of equal keys), or -1. */
    int find(final long key) {
        int lo = 0;
        int hi = count;
        while (lo < hi) { // the first position holding a larger key
            final int mid = (lo + hi) >>> 1;
            if (keys[mid] <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo > 0 && keys[lo - 1] == key ? lo - 1 : -1;
    }

    /** Bytes of Java heap its arrays hold (array payloads). */
    long heapBytes() {
        return (long) (2 * Long.BYTES + 1) * keys.length;
    }

    /** Arrays of at least {@code capacity} entries, allocated once. */
    void ensureCapacity(final int capacity) {
        if (keys.length < capacity) {
            keys = new long[capacity];
            values = new long[capacity];
            tombstones = new boolean[capacity];
        }
    }
}
