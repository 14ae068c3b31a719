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
}
