package io.nearsort.labtree.linearization;

import io.nearsort.labtree.Linearization;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LinearizationTest {
    /** Every coordinate maps into [0, N), no index twice, and the inverse maps back. */
    private static void assertBijection(final Layout layout) {
        final long[] shape = layout.shape();
        final BitSet seen = new BitSet();
        final long[] c = new long[shape.length];
        final long[] back = new long[shape.length];
        for (long n = 0; n < layout.size(); n++) {
            // Walk every coordinate tuple in row-major order.
            long rest = n;
            for (int k = shape.length - 1; k >= 0; k--) {
                c[k] = rest % shape[k];
                rest /= shape[k];
            }
            final long index = layout.index(c);
            assertTrue(index >= 0 && index < layout.size(), Arrays.toString(c) + " -> " + index);
            assertTrue(!seen.get((int) index), "index " + index + " twice");
            seen.set((int) index);
            layout.coordinates(index, back);
            assertArrayEquals(c, back, "inverse of " + index);
        }
        assertEquals(layout.size(), seen.cardinality());
    }

    @Test
    void everyBuiltInLinearizationIsABijection() {
        final List<long[]> shapes = List.of(new long[] {1}, new long[] {7}, new long[] {3, 5}, new long[] {6, 4},
                new long[] {2, 3, 4}, new long[] {5, 1, 3, 2});
        for (final long[] shape : shapes) {
            assertBijection(Linearization.rowMajor().layout(shape));
            assertBijection(Linearization.columnMajor().layout(shape));
            final long[] tile = new long[shape.length];
            Arrays.fill(tile, 2);
            assertBijection(Linearization.blocked(tile).layout(shape));
            Arrays.fill(tile, 3);
            assertBijection(Linearization.blocked(tile).layout(shape));
        }
        for (final long[] shape : List.of(new long[] {1}, new long[] {8}, new long[] {4, 4}, new long[] {2, 16},
                new long[] {8, 2, 4})) {
            assertBijection(Linearization.zOrder().layout(shape));
            assertBijection(Linearization.bitReversal().layout(shape));
        }
        assertBijection(Linearization.bitReversal().layout(2, 4, 8));
    }

    @Test
    void incrementalStepsWalkEveryLayoutInItsOrder() {
        for (final Linearization linearization : new Linearization[] {Linearization.rowMajor(),
            Linearization.columnMajor(), Linearization.blocked(3, 2, 2), Linearization.zOrder(),
            Linearization.bitReversal()}) {
            final Layout layout = linearization.layout(4, 2, 8);
            final long[] c = new long[3];
            final long[] expected = new long[3];
            layout.coordinates(0, c);
            for (long i = 1; i < layout.size(); i++) {
                layout.next(c);
                layout.coordinates(i, expected);
                assertArrayEquals(expected, c, linearization + " step to " + i);
            }
        }
    }

    @Test
    void knownValues() {
        assertEquals(1 * 4 + 2, Linearization.rowMajor().layout(3, 4).index(new long[] {1, 2}));
        assertEquals(2 * 3 + 1, Linearization.columnMajor().layout(3, 4).index(new long[] {1, 2}));
        // 4x4 in 2x2 tiles: tile (0,1) holds 4..7; element (1,2) is its third.
        assertEquals(6, Linearization.blocked(2, 2).layout(4, 4).index(new long[] {1, 2}));
        // 3x3 in 2x2 tiles: tile (0,0) 0..3, tile (0,1) is partial (2x1) 4..5, tile (1,0) (1x2) 6..7, tile (1,1) 8.
        final Layout partial = Linearization.blocked(2, 2).layout(3, 3);
        assertEquals(5, partial.index(new long[] {1, 2}));
        assertEquals(7, partial.index(new long[] {2, 1}));
        assertEquals(8, partial.index(new long[] {2, 2}));
        // Z-order on 4x4: (row 1, column 2) -> bits r1 c2 interleaved: c0=0 r0=1 c1=1 r1=0 -> 0b0110.
        assertEquals(0b0110, Linearization.zOrder().layout(4, 4).index(new long[] {1, 2}));
        // Bit reversal of 8 elements: 1 (001) -> 4 (100), 3 (011) -> 6 (110).
        final Layout fft = Linearization.bitReversal().layout(8);
        assertEquals(4, fft.index(new long[] {1}));
        assertEquals(6, fft.index(new long[] {3}));
    }

    @Test
    void customLinearizationsAreVerified() {
        // Anti-diagonal-free reversed row-major: a bijection.
        final Linearization reversed = Linearization.custom("reversed",
                (c, shape) -> shape[0] * shape[1] - 1 - (c[0] * shape[1] + c[1]),
                (i, shape, c) -> {
                    final long r = shape[0] * shape[1] - 1 - i;
                    c[0] = r / shape[1];
                    c[1] = r % shape[1];
                });
        assertBijection(reversed.layout(5, 7));
        // Not a bijection: the inverse loses the column.
        final Linearization broken = Linearization.custom("rows-only", (c, shape) -> c[0] * shape[1] + c[1],
                (i, shape, c) -> {
                    c[0] = i / shape[1];
                    c[1] = 0;
                });
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> broken.layout(3, 3));
        assertTrue(e.getMessage().contains("'rows-only' is not a bijection on shape [3, 3]"), e.getMessage());
        final Linearization outside = Linearization.custom("outside", (c, shape) -> c[0], (i, shape, c) -> c[0] = i + 4);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> outside.layout(4)).getMessage()
                .contains("outside the shape"));
    }

    @Test
    void unsupportedShapesAndBadCoordinatesAreRejected() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Linearization.zOrder().layout(3, 4))
                .getMessage().contains("zOrder needs power-of-two extents"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Linearization.bitReversal().layout(3, 4))
                .getMessage().contains("power-of-two number of elements"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Linearization.rowMajor().layout(3, 0))
                .getMessage().contains("every dimension must be >= 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Linearization.rowMajor().layout())
                .getMessage().contains("at least one dimension"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Linearization.blocked(2).layout(4, 4))
                .getMessage().contains("one extent per dimension"));
        final Layout layout = Linearization.rowMajor().layout(3, 4);
        assertTrue(assertThrows(IndexOutOfBoundsException.class, () -> layout.index(new long[] {3, 0}))
                .getMessage().contains("coordinate 0 must be in [0, 3)"));
        assertThrows(IndexOutOfBoundsException.class, () -> layout.coordinates(12, new long[2]));
        assertThrows(IllegalArgumentException.class, () -> layout.index(new long[] {1}));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Linearization.rowMajor()
                .layout(1L << 32, 1L << 31)).getMessage().contains("more than 2^62 elements"));
    }
}
