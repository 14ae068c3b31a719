package io.nearsort.labtree.linearization;

/**
 * Row-major (the last dimension varies fastest) or column-major (the first varies fastest) order.
 */
public final class MajorOrder extends ShapedLayout {
    private final boolean rowMajor;

    /**
     * Binds row-major or column-major order to a shape.
     *
     * @param shape    one extent per dimension, each >= 1
     * @param rowMajor true for row-major (last dimension fastest), false for column-major (first dimension fastest)
     * @throws IllegalArgumentException when the shape is invalid
     */
    public MajorOrder(final long[] shape, final boolean rowMajor) {
        super(shape);
        this.rowMajor = rowMajor;
    }



    @Override
    long indexOf(final long[] coordinates) {
        long index = 0;
        final int d = shape.length;
        for (int step = 0; step < d; step++) {
            final int k = rowMajor ? step : d - 1 - step;
            index = index * shape[k] + coordinates[k];
        }
        return index;
    }

    /** An odometer step: the fastest dimension advances, carrying into the slower ones. */
    @Override
    public void next(final long[] coordinates) {
        final int d = shape.length;
        for (int step = d - 1; step >= 0; step--) {
            final int k = rowMajor ? step : d - 1 - step;
            if (++coordinates[k] < shape[k]) {
                return;
            }
            coordinates[k] = 0;
        }
    }

    @Override
    void coordinatesOf(final long index, final long[] coordinates) {
        long rest = index;
        final int d = shape.length;
        for (int step = d - 1; step >= 0; step--) {
            final int k = rowMajor ? step : d - 1 - step;
            coordinates[k] = rest % shape[k];
            rest /= shape[k];
        }
    }
}
