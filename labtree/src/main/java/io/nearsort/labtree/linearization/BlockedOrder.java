package io.nearsort.labtree.linearization;

import java.util.Arrays;

/**
 * Blocked (tiled) order: the array is cut into tiles of the given extents, tiles are laid out in row-major
 * order, and each tile's elements in row-major order inside it. Tiles at the upper edges may be partial; they are
 * stored compactly, so the layout stays a bijection onto [0, N) for any shape.
 */
public final class BlockedOrder extends ShapedLayout {
    private final long[] tile;

    /**
     * Binds blocked order to a shape.
     *
     * @param shape one extent per dimension, each >= 1
     * @param tile  the tile's extent per dimension, each >= 1 (may exceed the shape's); copied
     * @throws IllegalArgumentException when the shape is invalid, or {@code tile} has not one extent per dimension
     *                                  or an extent below 1
     */
    public BlockedOrder(final long[] shape, final long[] tile) {
        super(shape);
        if (tile.length != shape.length) {
            throw new IllegalArgumentException("blocked tile needs one extent per dimension (shape "
                    + Arrays.toString(shape) + ", tile " + Arrays.toString(tile) + ")");
        }
        for (final long extent : tile) {
            if (extent < 1) {
                throw new IllegalArgumentException("tile extents must be >= 1 (got " + Arrays.toString(tile) + ")");
            }
        }
        this.tile = tile.clone();
    }



    /** Extent along dimension k of the tile with tile coordinate b (the last tile may be partial). */
    private long extent(final int k, final long b) {
        return Math.min(tile[k], shape[k] - b * tile[k]);
    }

    /** Product of the full extents of the dimensions after k. */
    private long after(final int k) {
        long product = 1;
        for (int m = k + 1; m < shape.length; m++) {
            product *= shape[m];
        }
        return product;
    }

    @Override
    long indexOf(final long[] coordinates) {
        // Elements in the tiles before this one, dimension by dimension: the earlier tiles along k are all full.
        long before = 0;
        long prefixExtents = 1;
        long offset = 0;
        for (int k = 0; k < shape.length; k++) {
            final long b = coordinates[k] / tile[k];
            before += prefixExtents * (b * tile[k]) * after(k);
            final long h = extent(k, b);
            prefixExtents *= h;
            offset = offset * h + coordinates[k] % tile[k];
        }
        return before + offset;
    }

    @Override
    void coordinatesOf(final long index, final long[] coordinates) {
        long rest = index;
        long prefixExtents = 1;
        final long[] extents = new long[shape.length];
        for (int k = 0; k < shape.length; k++) {
            final long slab = prefixExtents * tile[k] * after(k); // one full tile row along k
            final long b = rest / slab;
            rest -= b * slab;
            coordinates[k] = b * tile[k];
            extents[k] = extent(k, b);
            prefixExtents *= extents[k];
        }
        for (int k = shape.length - 1; k >= 0; k--) {
            coordinates[k] += rest % extents[k];
            rest /= extents[k];
        }
    }
}
