package io.nearsort.core;

/**
 * A skeleton for {@link LongCursor} implementations: the current entry, the strict seeks in terms of the
 * inclusive ones (with the domain's ends, where no key is higher or lower), and the ends in terms of the seeks.
 * Subclasses implement {@link #seekCeiling}, {@link #seekFloor}, {@link #next}, {@link #previous} and
 * {@link #ensureOpen}, and settle with {@link #position} or {@link #unposition}.
 */
public abstract class AbstractLongCursor implements LongCursor {
    private boolean positioned;
    private long key;
    private long value;

    /** For subclasses. */
    protected AbstractLongCursor() {
    }

    /**
     * Fails when the cursor's index is closed.
     *
     * @throws IllegalStateException after the index's {@code close()}
     */
    protected abstract void ensureOpen();

    @Override
    public boolean seekHigher(final long target) {
        if (target == Long.MAX_VALUE) {
            ensureOpen();
            return unposition();
        }
        return seekCeiling(target + 1);
    }

    @Override
    public boolean seekLower(final long target) {
        if (target == Long.MIN_VALUE) {
            ensureOpen();
            return unposition();
        }
        return seekFloor(target - 1);
    }

    @Override
    public boolean seekFirst() {
        return seekCeiling(Long.MIN_VALUE);
    }

    @Override
    public boolean seekLast() {
        return seekFloor(Long.MAX_VALUE);
    }

    @Override
    public boolean isPositioned() {
        return positioned;
    }

    @Override
    public long key() {
        requirePositioned();
        return key;
    }

    @Override
    public long value() {
        requirePositioned();
        return value;
    }

    /**
     * Positions the cursor on {@code key → value}; returns true.
     *
     * @param key the entry's key
     * @param value the entry's value
     * @return always true, for {@code return position(k, v);} in seeks and moves
     */
    protected final boolean position(final long key, final long value) {
        this.key = key;
        this.value = value;
        this.positioned = true;
        return true;
    }

    /**
     * Leaves the cursor unpositioned; returns false.
     *
     * @return always false, for {@code return unposition();} in seeks and moves
     */
    protected final boolean unposition() {
        positioned = false;
        return false;
    }

    /**
     * Checks that the cursor is positioned on an entry.
     *
     * @throws IllegalStateException when the cursor is not positioned
     */
    protected final void requirePositioned() {
        if (!positioned) {
            throw new IllegalStateException("cursor is not positioned on an entry");
        }
    }
}
