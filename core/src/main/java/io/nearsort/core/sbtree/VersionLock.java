package io.nearsort.core.sbtree;

import org.agrona.UnsafeApi;

import java.util.concurrent.locks.LockSupport;

/**
 * The version-based lock of a block in the data layer (SB-Tree §III-F, after HydraList [32] and the optimistic
 * lock coupling of [31]): one {@code long} at the start of the block, {@link BlockHeader#VERSION_OFFSET}.
 *
 * <pre>
 *   bit 0: locked     bit 1: obsolete (unlinked from the data layer)     bits 2..63: version, +1 per write
 * </pre>
 *
 * <p>A writer takes the lock with a compare-and-set from an unlocked version, changes the block, and releases
 * it with a release store of the next version ({@link #unlock}), so that every change is a new version.
 * Readers take no lock: they read a stable (unlocked) version, read the block with plain loads, then
 * {@link #validate} the version behind a load fence and retry when it changed. A reader therefore never acts on
 * a block a writer was changing; it may read garbage meanwhile, which is why readers bound every count they
 * read by the block's capacity and only follow pointers of a validated read or of a block kept alive by
 * {@link EpochReclamation}.
 */
final class VersionLock {
    static final long LOCKED = 1L;
    static final long OBSOLETE = 2L;
    static final long INCREMENT = 4L;

    private static final int SPINS_BEFORE_YIELD = 64;
    private static final int SPINS_BEFORE_PARK = SPINS_BEFORE_YIELD + 64;
    private static final long MIN_PARK_NANOS = 1_000;
    private static final long MAX_PARK_NANOS = 1_000_000;
    private static final int MAX_PARK_DOUBLINGS = 10;

    private VersionLock() {
    }

    /** Formats a fresh block's lock word: version 0, unlocked. */
    static void initialize(final long block) {
        UnsafeApi.putLongVolatile(null, block + BlockHeader.VERSION_OFFSET, 0L);
    }

    /** The current version, waiting while a writer holds the lock (it may be obsolete). */
    static long awaitStable(final long block) {
        for (int spins = 0; ; spins++) {
            final long version = UnsafeApi.getLongVolatile(null, block + BlockHeader.VERSION_OFFSET);
            if ((version & LOCKED) == 0) {
                return version;
            }
            backOff(spins);
        }
    }

    /** Whether the block still has {@code version}: the plain reads made since that version was read hold. */
    static boolean validate(final long block, final long version) {
        UnsafeApi.loadFence();
        return UnsafeApi.getLongVolatile(null, block + BlockHeader.VERSION_OFFSET) == version;
    }

    static boolean isObsolete(final long version) {
        return (version & OBSOLETE) != 0;
    }

    /**
     * Locks the block if it still has {@code version} (unlocked and not obsolete).
     *
     * @return whether the lock was taken
     */
    static boolean tryLock(final long block, final long version) {
        return (version & (LOCKED | OBSOLETE)) == 0
                && UnsafeApi.compareAndSetLong(null, block + BlockHeader.VERSION_OFFSET, version, version | LOCKED);
    }

    /**
     * Locks the block, waiting for another writer to release it.
     *
     * @return the version it had when locked, or -1 when the block is obsolete (then it is not locked)
     */
    static long lock(final long block) {
        for (int spins = 0; ; spins++) {
            final long version = awaitStable(block);
            if (isObsolete(version)) {
                return -1L;
            }
            if (UnsafeApi.compareAndSetLong(null, block + BlockHeader.VERSION_OFFSET, version, version | LOCKED)) {
                return version;
            }
            backOff(spins);
        }
    }

    /** Releases a lock taken at {@code version} after changing the block: readers of that version retry. */
    static void unlock(final long block, final long version) {
        UnsafeApi.putLongRelease(null, block + BlockHeader.VERSION_OFFSET, version + INCREMENT);
    }

    /** Releases a lock taken at {@code version} without having changed the block: its readers stay valid. */
    static void unlockUnchanged(final long block, final long version) {
        UnsafeApi.putLongRelease(null, block + BlockHeader.VERSION_OFFSET, version);
    }

    /** Releases a lock taken at {@code version}, marking the block obsolete: it left the data layer. */
    static void unlockObsolete(final long block, final long version) {
        UnsafeApi.putLongRelease(null, block + BlockHeader.VERSION_OFFSET, (version + INCREMENT) | OBSOLETE);
    }

    /**
     * Busy-waits briefly, then yields, then parks for growing times (up to {@value #MAX_PARK_NANOS} ns): a lock is
     * held for a few hundred nanoseconds at most, but the thread that holds it (or that must publish, or convert)
     * may be descheduled, and on a machine with few cores spinning and yielding would take the core it needs.
     */
    static void backOff(final int spins) {
        if (spins < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else if (spins < SPINS_BEFORE_PARK) {
            Thread.yield();
        } else {
            final int doublings = Math.min(MAX_PARK_DOUBLINGS, (spins - SPINS_BEFORE_PARK) >> 4);
            LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, MIN_PARK_NANOS << doublings));
        }
    }
}
