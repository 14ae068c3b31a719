package io.nearsort.labtree.linearization;

/**
 * A linearization bound to an array shape N0 × … × N(d-1) (LAB-tree §3): the bijection f from d-d indices onto
 * [0, N0·…·N(d-1)) and its inverse. Implementations are immutable and thread-safe.
 */
public interface Layout {
    /**
     * The shape, one extent per dimension (a copy).
     *
     * @return a fresh array of the d extents, each >= 1
     */
    long[] shape();

    /**
     * N0·…·N(d-1), the number of linearized indices.
     *
     * @return the product of the extents, at least 1
     */
    long size();

    /**
     * f(i): the linearized index of {@code coordinates} (each in [0, N_k)).
     *
     * @param coordinates one coordinate per dimension (length d), coordinate k in [0, N_k); not modified
     * @return the linearized index, in [0, {@link #size()})
     */
    long index(long[] coordinates);

    /**
     * f⁻¹(index) written into {@code coordinates} (length d).
     *
     * @param index       the linearized index, in [0, {@link #size()})
     * @param coordinates receives the d coordinates of {@code index}; its length must be d
     */
    void coordinates(long index, long[] coordinates);

    /**
     * Steps {@code coordinates} to the element that follows it in this order, f⁻¹(f(c) + 1) (the caller ensures
     * there is one). Layouts override this with an incremental step (LAB-tree §3: incremental computation of
     * f∘g⁻¹ while iterating in g's order).
     *
     * @param coordinates the current element's d coordinates, overwritten with those of the next element
     */
    default void next(final long[] coordinates) {
        coordinates(index(coordinates) + 1, coordinates);
    }
}
