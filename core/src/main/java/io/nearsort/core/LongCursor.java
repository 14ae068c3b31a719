package io.nearsort.core;

/**
 * A reusable, allocation-free position in a {@link LongIndex}, moving in key order in either direction.
 *
 * <p>A cursor is either <em>positioned</em> on an entry ({@link #key()} and {@link #value()} are defined) or
 * not (after a seek or move that found nothing). Every seek and move returns whether the cursor is positioned
 * afterwards. A cursor stays valid across modifications of its index: after a modification it re-seeks from the
 * key it was on, so {@link #next()} still returns the smallest key greater than the current one, even if the
 * current entry was removed in the meantime.
 *
 * <p>A cursor is confined to one thread and is only valid while its index is open.
 */
public interface LongCursor {
    /**
     * Positions on the smallest key {@code >= key}.
     *
     * @param key the inclusive lower bound; any long
     * @return whether such a key exists (the cursor is positioned)
     */
    boolean seekCeiling(long key);

    /**
     * Positions on the smallest key {@code > key}.
     *
     * @param key the exclusive lower bound; any long ({@link Long#MAX_VALUE} finds nothing)
     * @return whether such a key exists (the cursor is positioned)
     */
    boolean seekHigher(long key);

    /**
     * Positions on the largest key {@code <= key}.
     *
     * @param key the inclusive upper bound; any long
     * @return whether such a key exists (the cursor is positioned)
     */
    boolean seekFloor(long key);

    /**
     * Positions on the largest key {@code < key}.
     *
     * @param key the exclusive upper bound; any long ({@link Long#MIN_VALUE} finds nothing)
     * @return whether such a key exists (the cursor is positioned)
     */
    boolean seekLower(long key);

    /**
     * Positions on the smallest key.
     *
     * @return whether the index holds any entry (the cursor is positioned)
     */
    boolean seekFirst();

    /**
     * Positions on the largest key.
     *
     * @return whether the index holds any entry (the cursor is positioned)
     */
    boolean seekLast();

    /**
     * Moves to the next larger key; on failure the cursor is no longer positioned.
     *
     * @return whether a larger key existed (the cursor is positioned)
     */
    boolean next();

    /**
     * Moves to the next smaller key; on failure the cursor is no longer positioned.
     *
     * @return whether a smaller key existed (the cursor is positioned)
     */
    boolean previous();

    /**
     * Whether the cursor is on an entry.
     *
     * @return true when {@link #key()} and {@link #value()} are defined
     */
    boolean isPositioned();

    /**
     * The current key.
     *
     * @return the key of the entry the cursor is on
     * @throws IllegalStateException when not positioned
     */
    long key();

    /**
     * The current value, as of the moment the cursor moved onto the entry.
     *
     * @return the value the entry had when the cursor moved onto it
     * @throws IllegalStateException when not positioned
     */
    long value();
}
