package io.nearsort.labtree.linearization;

import java.util.Arrays;

/**
 * Bit-reversal order, the access order of radix-2 FFTs: the row-major index with its log2(N) bits reversed. N must
 * be a power of two. The map is an involution, so it is its own inverse.
 */
public final class BitReversalOrder extends ShapedLayout {
    private final MajorOrder rowMajor;
    private final int bits;

    /**
     * Binds bit-reversal order to a shape.
     *
     * @param shape one extent per dimension, each >= 1; their product must be a power of two
     * @throws IllegalArgumentException when the shape is invalid or its number of elements is not a power of two
     */
    public BitReversalOrder(final long[] shape) {
        super(shape);
        this.rowMajor = new MajorOrder(shape, true);
        this.bits = Shape.log2(rowMajor.size());
        if (bits < 0) {
            throw new IllegalArgumentException("bitReversal needs a power-of-two number of elements (got shape "
                    + Arrays.toString(shape) + ")");
        }
    }



    private long reverse(final long index) {
        return bits == 0 ? 0 : Long.reverse(index) >>> (64 - bits);
    }

    @Override
    long indexOf(final long[] coordinates) {
        return reverse(rowMajor.indexOf(coordinates));
    }

    @Override
    void coordinatesOf(final long index, final long[] coordinates) {
        rowMajor.coordinatesOf(reverse(index), coordinates);
    }
}
