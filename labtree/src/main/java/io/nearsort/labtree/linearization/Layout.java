package io.nearsort.labtree.linearization;

/**
 * A linearization bound to an array shape N0 × … × N(d-1) (LAB-tree §3): the bijection f from d-d indices onto
 * [0, N0·…·N(d-1)) and its inverse. Implementations are immutable and thread-safe.
 */
public interface Layout {
    /** The shape, one extent per dimension (a copy). */
    long[] shape();

    /** N0·…·N(d-1), the number of linearized indices. */
    long size();

    /** f(i): the linearized index of {@code coordinates} (each in [0, N_k)). */
    long index(long[] coordinates);

    /** f⁻¹(index) written into {@code coordinates} (length d). */
    void coordinates(long index, long[] coordinates);

    /**
     * Steps {@code coordinates} to the element that follows it in this order, f⁻¹(f(c) + 1) (the caller ensures
     * there is one). Layouts override this with an incremental step (LAB-tree §3: incremental computation of
     * f∘g⁻¹ while iterating in g's order).
     */
    default void next(final long[] coordinates) {
        coordinates(index(coordinates) + 1, coordinates);
    }
}
