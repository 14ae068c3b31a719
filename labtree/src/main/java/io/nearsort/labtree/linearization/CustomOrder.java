package io.nearsort.labtree.linearization;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A user-defined linearization: a forward map and its inverse, checked to be a bijection onto [0, N) when bound.
 * Up to {@link #EXHAUSTIVE_LIMIT} elements every index is checked (f⁻¹ lands inside the shape and f(f⁻¹(i)) = i,
 * which makes f⁻¹ injective and so both maps bijections); beyond, {@link #SAMPLES} random indices are.
 */
public final class CustomOrder extends ShapedLayout {
    /** Shapes up to this many elements are checked exhaustively. */
    public static final long EXHAUSTIVE_LIMIT = 1 << 20;
    /** Random indices checked for larger shapes. */
    public static final int SAMPLES = 100_000;

    /** The forward map f. */
    @FunctionalInterface
    public interface Forward {
        /**
         * f(i) for one element.
         *
         * @param coordinates the element's d coordinates, coordinate k in [0, N_k); a copy the map may modify
         * @param shape       the bound shape, one extent per dimension; a copy the map may modify
         * @return the linearized index, which must be in [0, N0·…·N(d-1))
         */
        long index(long[] coordinates, long[] shape);
    }

    /** The inverse map f⁻¹. */
    @FunctionalInterface
    public interface Inverse {
        /**
         * f⁻¹(index) for one linearized index.
         *
         * @param index       the linearized index, in [0, N0·…·N(d-1))
         * @param shape       the bound shape, one extent per dimension; a copy the map may modify
         * @param coordinates receives the d coordinates, coordinate k to be in [0, N_k)
         */
        void coordinates(long index, long[] shape, long[] coordinates);
    }

    private final String name;
    private final Forward forward;
    private final Inverse inverse;

    /**
     * Binds a user-defined map to a shape and checks it is a bijection (see the class comment).
     *
     * @param name    the linearization's name, for error messages
     * @param shape   one extent per dimension, each >= 1
     * @param forward the forward map f
     * @param inverse the inverse map f⁻¹
     * @throws IllegalArgumentException when the shape is invalid or a checked index shows the maps are not inverse
     *                                  bijections onto [0, N)
     */
    public CustomOrder(final String name, final long[] shape, final Forward forward, final Inverse inverse) {
        super(shape);
        this.name = name;
        this.forward = forward;
        this.inverse = inverse;
        verify();
    }

    private void verify() {
        final long[] c = new long[shape.length];
        if (size <= EXHAUSTIVE_LIMIT) {
            for (long i = 0; i < size; i++) {
                check(i, c);
            }
        } else {
            final SplittableRandom random = new SplittableRandom(size);
            for (int s = 0; s < SAMPLES; s++) {
                check(random.nextLong(size), c);
            }
        }
    }

    private void check(final long i, final long[] c) {
        inverse.coordinates(i, shape.clone(), c);
        for (int k = 0; k < shape.length; k++) {
            if (c[k] < 0 || c[k] >= shape[k]) {
                throw new IllegalArgumentException("linearization '" + name + "' is not a bijection on shape "
                        + Arrays.toString(shape) + ": the inverse of " + i + " is " + Arrays.toString(c)
                        + ", outside the shape");
            }
        }
        final long back = forward.index(c.clone(), shape.clone());
        if (back != i) {
            throw new IllegalArgumentException("linearization '" + name + "' is not a bijection on shape "
                    + Arrays.toString(shape) + ": f(f^-1(" + i + ")) = f(" + Arrays.toString(c) + ") = " + back);
        }
    }



    @Override
    long indexOf(final long[] coordinates) {
        final long index = forward.index(coordinates.clone(), shape.clone());
        if (index < 0 || index >= size) {
            throw new IllegalStateException("linearization '" + name + "' mapped " + Arrays.toString(coordinates)
                    + " to " + index + ", outside [0, " + size + ")");
        }
        return index;
    }

    @Override
    void coordinatesOf(final long index, final long[] coordinates) {
        inverse.coordinates(index, shape.clone(), coordinates);
    }
}
