package io.nearsort.labtree.linearization;

import java.util.Arrays;

/** Validation and arithmetic shared by the built-in layouts. */
final class Shape {
    private Shape() {
    }

    /** The number of elements of {@code shape}, validated: d >= 1, every extent >= 1, product below 2^62. */
    static long size(final long[] shape) {
        if (shape.length == 0) {
            throw new IllegalArgumentException("shape needs at least one dimension");
        }
        long size = 1;
        for (final long extent : shape) {
            if (extent < 1) {
                throw new IllegalArgumentException("every dimension must be >= 1 (got shape " + Arrays.toString(shape)
                        + ")");
            }
            if (size > (1L << 62) / extent) {
                throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has more than 2^62 elements");
            }
            size *= extent;
        }
        return size;
    }

    static void checkCoordinates(final long[] shape, final long[] coordinates) {
        if (coordinates.length != shape.length) {
            throw new IllegalArgumentException("expected " + shape.length + " coordinates (got "
                    + coordinates.length + ")");
        }
        for (int k = 0; k < shape.length; k++) {
            if (coordinates[k] < 0 || coordinates[k] >= shape[k]) {
                throw new IndexOutOfBoundsException("coordinate " + k + " must be in [0, " + shape[k] + ") (got "
                        + Arrays.toString(coordinates) + ")");
            }
        }
    }

    static void checkIndex(final long size, final long index, final int dimensions, final long[] coordinates) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index must be in [0, " + size + ") (got " + index + ")");
        }
        if (coordinates.length != dimensions) {
            throw new IllegalArgumentException("expected room for " + dimensions + " coordinates (got "
                    + coordinates.length + ")");
        }
    }

    /** log2 of a power of two, or -1. */
    static int log2(final long value) {
        return Long.bitCount(value) == 1 ? Long.numberOfTrailingZeros(value) : -1;
    }
}
