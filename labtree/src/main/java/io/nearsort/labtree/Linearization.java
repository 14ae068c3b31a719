package io.nearsort.labtree;

import io.nearsort.labtree.linearization.BitReversalOrder;
import io.nearsort.labtree.linearization.BlockedOrder;
import io.nearsort.labtree.linearization.CustomOrder;
import io.nearsort.labtree.linearization.Layout;
import io.nearsort.labtree.linearization.MajorOrder;
import io.nearsort.labtree.linearization.ZOrder;

import java.util.function.Function;

/**
 * A storage layout for d-dimensional arrays (LAB-tree §3): a bijection f from array indices onto
 * [0, N0·…·N(d-1)), bound to a shape with {@link #layout(long...)}. The array element at index i is stored under the
 * LAB-tree key f(i).
 */
public final class Linearization {
    private final String name;
    private final Function<long[], Layout> binder;

    private Linearization(final String name, final Function<long[], Layout> binder) {
        this.name = name;
        this.binder = binder;
    }

    /**
     * Row-major: the last dimension varies fastest.
     *
     * @return the row-major linearization, named {@code rowMajor}
     */
    public static Linearization rowMajor() {
        return new Linearization("rowMajor", shape -> new MajorOrder(shape, true));
    }

    /**
     * Column-major: the first dimension varies fastest.
     *
     * @return the column-major linearization, named {@code columnMajor}
     */
    public static Linearization columnMajor() {
        return new Linearization("columnMajor", shape -> new MajorOrder(shape, false));
    }

    /**
     * Tiles of the given extents in row-major order, row-major inside each tile.
     *
     * @param tile the tile's extent per dimension, each >= 1, one per dimension of the shapes it is bound to
     *             (checked when bound); copied
     * @return the blocked linearization, named {@code blocked[...]} after the tile extents
     */
    public static Linearization blocked(final long... tile) {
        final long[] copy = tile.clone();
        return new Linearization("blocked" + java.util.Arrays.toString(copy), shape -> new BlockedOrder(shape, copy));
    }

    /**
     * Z-order (Morton): interleaved coordinate bits; power-of-two extents.
     *
     * @return the Z-order linearization, named {@code zOrder}
     */
    public static Linearization zOrder() {
        return new Linearization("zOrder", ZOrder::new);
    }

    /**
     * Bit-reversal of the row-major index (FFT order); a power-of-two number of elements.
     *
     * @return the bit-reversal linearization, named {@code bitReversal}
     */
    public static Linearization bitReversal() {
        return new Linearization("bitReversal", BitReversalOrder::new);
    }

    /**
     * A user-defined bijection and its inverse, verified when bound to a shape ({@link CustomOrder}).
     *
     * @param name    the linearization's name, returned by {@link #name()} and used in error messages
     * @param forward the forward map f from coordinates to [0, N)
     * @param inverse the inverse map f⁻¹ from [0, N) to coordinates
     * @return the custom linearization
     */
    public static Linearization custom(final String name, final CustomOrder.Forward forward,
                                       final CustomOrder.Inverse inverse) {
        return new Linearization(name, shape -> new CustomOrder(name, shape, forward, inverse));
    }

    /**
     * This linearization for an array of the given shape.
     *
     * @param shape one extent per dimension, at least one dimension, each >= 1, at most 2^62 elements; copied
     * @return the layout bound to {@code shape}
     * @throws IllegalArgumentException if the shape is invalid or this linearization does not support it
     */
    public Layout layout(final long... shape) {
        return binder.apply(shape.clone());
    }

    /**
     * The name this linearization was created with.
     *
     * @return the name, e.g. {@code rowMajor}, {@code blocked[8, 8]} or a custom linearization's name
     */
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}
