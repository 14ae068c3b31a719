package io.nearsort.labtree.linearization;

/** A layout over a validated shape: holds the shape and its size, and checks arguments for the subclasses. */
abstract class ShapedLayout implements Layout {
    final long[] shape;
    final long size;

    ShapedLayout(final long[] shape) {
        this.size = Shape.size(shape);
        this.shape = shape.clone();
    }

    @Override
    public final long[] shape() {
        return shape.clone();
    }

    @Override
    public final long size() {
        return size;
    }

    @Override
    public final long index(final long[] coordinates) {
        Shape.checkCoordinates(shape, coordinates);
        return indexOf(coordinates);
    }

    @Override
    public final void coordinates(final long index, final long[] coordinates) {
        Shape.checkIndex(size, index, shape.length, coordinates);
        coordinatesOf(index, coordinates);
    }

    /** f on checked coordinates. */
    abstract long indexOf(long[] coordinates);

    /** f⁻¹ on a checked index. */
    abstract void coordinatesOf(long index, long[] coordinates);
}
