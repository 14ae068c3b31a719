package io.nearsort.labtree.linearization;

import java.util.Arrays;

/**
 * Z-order (Morton order): the bits of the coordinates interleaved, lowest bits first, dimension 0 the most
 * significant at each bit level. Every extent must be a power of two; a dimension with fewer bits simply stops
 * contributing once its bits run out, so the layout is a bijection onto [0, N) for unequal extents too.
 */
public final class ZOrder extends ShapedLayout {
    private final int[] bits;

    /**
     * Binds Z-order to a shape.
     *
     * @param shape one extent per dimension, each a power of two
     * @throws IllegalArgumentException when the shape is invalid or an extent is not a power of two
     */
    public ZOrder(final long[] shape) {
        super(shape);
        this.bits = new int[shape.length];
        for (int k = 0; k < shape.length; k++) {
            bits[k] = Shape.log2(shape[k]);
            if (bits[k] < 0) {
                throw new IllegalArgumentException("zOrder needs power-of-two extents (got shape "
                        + Arrays.toString(shape) + "); use blocked(...) or a custom linearization");
            }
        }
    }



    @Override
    long indexOf(final long[] coordinates) {
        long index = 0;
        int out = 0;
        for (int level = 0; out < 63; level++) {
            boolean any = false;
            for (int k = shape.length - 1; k >= 0; k--) {
                if (level < bits[k]) {
                    index |= ((coordinates[k] >>> level) & 1L) << out++;
                    any = true;
                }
            }
            if (!any) {
                break;
            }
        }
        return index;
    }

    @Override
    void coordinatesOf(final long index, final long[] coordinates) {
        Arrays.fill(coordinates, 0);
        int in = 0;
        for (int level = 0; in < 63; level++) {
            boolean any = false;
            for (int k = shape.length - 1; k >= 0; k--) {
                if (level < bits[k]) {
                    coordinates[k] |= ((index >>> in++) & 1L) << level;
                    any = true;
                }
            }
            if (!any) {
                break;
            }
        }
    }
}
