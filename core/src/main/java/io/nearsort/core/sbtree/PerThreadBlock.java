package io.nearsort.core.sbtree;

import org.agrona.UnsafeApi;

import static io.nearsort.core.sbtree.PerThreadBlockDescriptor.FLAGS_OFFSET;
import static io.nearsort.core.sbtree.PerThreadBlockDescriptor.FLAG_ASCENDING;
import static io.nearsort.core.sbtree.PerThreadBlockDescriptor.GENERATION_OFFSET;
import static io.nearsort.core.sbtree.PerThreadBlockDescriptor.MAX_KEY_OFFSET;
import static io.nearsort.core.sbtree.PerThreadBlockDescriptor.MIN_KEY_OFFSET;
import static io.nearsort.core.sbtree.PerThreadBlockDescriptor.OWNER_OFFSET;
import static io.nearsort.core.sbtree.PerThreadBlockDescriptor.PUBLISHED_OFFSET;
import static io.nearsort.core.sbtree.PerThreadBlockDescriptor.SLOT_OFFSET;
import static io.nearsort.core.sbtree.PerThreadBlockDescriptor.TOMBSTONE;

/**
 * Operations on per-thread data blocks (layout: {@link PerThreadBlockDescriptor}). The owner thread formats a
 * block, {@linkplain #write writes} entries and {@linkplain #publish publishes} them; any thread reads the
 * published entries. Which slot the owner may write next is decided outside the block, by the owner's
 * reservation word ({@link ThreadContext}), so that a block is never written once its segmented block is
 * sealed for conversion.
 */
final class PerThreadBlock {
    private PerThreadBlock() {
    }

    /** Formats an empty per-thread block of {@code owner}; not yet visible to any other thread. */
    static void format(final long block, final int owner, final int generation, final int slot) {
        UnsafeApi.putInt(block + OWNER_OFFSET, owner);
        UnsafeApi.putInt(block + GENERATION_OFFSET, generation);
        UnsafeApi.putInt(block + FLAGS_OFFSET, FLAG_ASCENDING);
        UnsafeApi.putLong(block + MIN_KEY_OFFSET, Long.MAX_VALUE);
        UnsafeApi.putLong(block + MAX_KEY_OFFSET, Long.MIN_VALUE);
        UnsafeApi.putInt(block + SLOT_OFFSET, slot);
        UnsafeApi.putIntRelease(null, block + PUBLISHED_OFFSET, 0);
    }

    /**
     * Writes entry {@code index} and widens the header's key range (owner only, {@code index} reserved).
     *
     * @param ascending whether the block stays strictly ascending with this entry
     */
    static void write(final PerThreadBlockDescriptor d, final long block, final int index, final long key,
                      final long value, final int stamp, final boolean ascending, final boolean newMin,
                      final boolean newMax) {
        UnsafeApi.putLong(PerThreadBlockDescriptor.keyAddress(block, index), key);
        UnsafeApi.putLong(PerThreadBlockDescriptor.valueAddress(block, index), value);
        UnsafeApi.putInt(d.stampAddress(block, index), stamp);
        if (newMin) {
            UnsafeApi.putLong(block + MIN_KEY_OFFSET, key);
        }
        if (newMax) {
            UnsafeApi.putLong(block + MAX_KEY_OFFSET, key);
        }
        if (!ascending) {
            UnsafeApi.putInt(block + FLAGS_OFFSET, 0);
        }
    }

    /** Makes entries {@code [0, count)} visible to readers (release store; owner only). */
    static void publish(final long block, final int count) {
        UnsafeApi.putIntRelease(null, block + PUBLISHED_OFFSET, count);
    }

    /** The number of complete entries (acquire load: the entries below it are visible). */
    static int published(final PerThreadBlockDescriptor d, final long block) {
        final int count = UnsafeApi.getIntAcquire(null, block + PUBLISHED_OFFSET);
        return count < 0 ? 0 : Math.min(count, d.capacity);
    }

    static int owner(final long block) {
        return UnsafeApi.getInt(block + OWNER_OFFSET);
    }

    static int generation(final long block) {
        return UnsafeApi.getInt(block + GENERATION_OFFSET);
    }

    static int slot(final long block) {
        return UnsafeApi.getInt(block + SLOT_OFFSET);
    }

    static boolean isAscending(final long block) {
        return (UnsafeApi.getInt(block + FLAGS_OFFSET) & FLAG_ASCENDING) != 0;
    }

    static long minKey(final long block) {
        return UnsafeApi.getLong(block + MIN_KEY_OFFSET);
    }

    static long maxKey(final long block) {
        return UnsafeApi.getLong(block + MAX_KEY_OFFSET);
    }

    static long key(final long block, final int index) {
        return UnsafeApi.getLong(PerThreadBlockDescriptor.keyAddress(block, index));
    }

    static long value(final long block, final int index) {
        return UnsafeApi.getLong(PerThreadBlockDescriptor.valueAddress(block, index));
    }

    /** The stored stamp of entry {@code index}: {@code stamp << 1 | tombstone}. */
    static int stamp(final PerThreadBlockDescriptor d, final long block, final int index) {
        return UnsafeApi.getInt(d.stampAddress(block, index));
    }

    static boolean isTombstone(final int storedStamp) {
        return (storedStamp & TOMBSTONE) != 0;
    }

    /**
     * The position of the newest entry with {@code key} among the first {@code count}, or -1: a binary search
     * while the block is ascending (each key at most once), a backward scan otherwise.
     */
    static int findNewest(final long block, final int count, final long key) {
        if (count == 0 || key < minKey(block) || key > maxKey(block)) {
            return -1;
        }
        if (isAscending(block)) {
            int lo = 0;
            int hi = count - 1;
            while (lo <= hi) {
                final int mid = (lo + hi) >>> 1;
                final long k = key(block, mid);
                if (k < key) {
                    lo = mid + 1;
                } else if (k > key) {
                    hi = mid - 1;
                } else {
                    return mid;
                }
            }
            return -1;
        }
        for (int i = count - 1; i >= 0; i--) {
            if (key(block, i) == key) {
                return i;
            }
        }
        return -1;
    }
}
