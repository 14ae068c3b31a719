package io.nearsort.labtree;

import io.nearsort.labtree.linearization.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LAB-tree §3's access types against a plain double[][] oracle. */
class AccessTypesTest {
    private static final int ROWS = 40;
    private static final int COLS = 50;

    @TempDir
    Path dir;

    private double[][] populate(final LabArray a, final long seed) {
        final double[][] oracle = new double[ROWS][COLS];
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 1200; i++) {
            final int r = random.nextInt(ROWS);
            final int c = i % 3 == 0 ? random.nextInt(COLS) : (i / 3) % COLS;
            final double v = random.nextInt(4) == 0 ? 0 : random.nextInt(1, 100);
            a.set(v, r, c);
            oracle[r][c] = v;
        }
        return oracle;
    }

    @Test
    void iterationInAnyAccessOrderMatchesTheOracleAfterReopen() {
        for (final Linearization storage : new Linearization[] {Linearization.rowMajor(),
            Linearization.blocked(8, 16)}) {
            final Path file = dir.resolve(storage.name() + ".lab");
            final double[][] oracle;
            try (LabArray a = LabArray.builder(file).shape(ROWS, COLS).linearization(storage).pageSize(512)
                    .build()) {
                oracle = populate(a, storage.name().length());
            }
            try (LabArray a = LabArray.builder(file).shape(ROWS, COLS).linearization(storage).pageSize(512)
                    .build()) {
                for (final Linearization access : new Linearization[] {Linearization.rowMajor(),
                    Linearization.columnMajor(), Linearization.blocked(8, 16)}) {
                    final Layout g = access.layout(ROWS, COLS);
                    for (final boolean nonDefaultOnly : new boolean[] {false, true}) {
                        final List<Long> positions = new ArrayList<>();
                        a.forEach(access, nonDefaultOnly, (position, c, value) -> {
                            assertEquals(position, g.index(c), "position is g(index)");
                            assertEquals(oracle[(int) c[0]][(int) c[1]], value, 0.0);
                            positions.add(position);
                        });
                        long expected = 0;
                        for (final long p : positions) {
                            assertTrue(p >= expected, "visited in g's order");
                            expected = p + 1;
                        }
                        long stored = 0;
                        for (final double[] row : oracle) {
                            for (final double v : row) {
                                stored += v != 0 ? 1 : 0;
                            }
                        }
                        assertEquals(nonDefaultOnly ? stored : (long) ROWS * COLS, positions.size(),
                                storage + " accessed by " + access + (nonDefaultOnly ? ", non-default only" : ""));
                    }
                }
            }
        }
    }

    @Test
    void rectanglesReadAndWriteLikeTheOracle() {
        try (LabArray a = LabArray.builder(dir.resolve("rect.lab")).shape(ROWS, COLS).pageSize(512).build()) {
            final double[][] oracle = populate(a, 7);
            final SplittableRandom random = new SplittableRandom(8);
            for (int trial = 0; trial < 200; trial++) {
                final long r0 = random.nextInt(ROWS);
                final long c0 = random.nextInt(COLS);
                final long r1 = r0 + random.nextInt((int) (ROWS - r0));
                final long c1 = c0 + random.nextInt((int) (COLS - c0));
                final int cells = (int) ((r1 - r0 + 1) * (c1 - c0 + 1));
                final long[] lo = {r0, c0};
                final long[] hi = {r1, c1};
                if (trial % 2 == 0) {
                    final double[] values = new double[cells];
                    for (int i = 0; i < cells; i++) {
                        values[i] = random.nextInt(3) == 0 ? 0 : random.nextInt(1, 50);
                    }
                    a.writeRectangle(lo, hi, values);
                    int i = 0;
                    for (long r = r0; r <= r1; r++) {
                        for (long c = c0; c <= c1; c++) {
                            oracle[(int) r][(int) c] = values[i++];
                        }
                    }
                }
                final double[] read = new double[cells];
                a.readRectangle(lo, hi, read);
                final double[] expected = new double[cells];
                int i = 0;
                for (long r = r0; r <= r1; r++) {
                    for (long c = c0; c <= c1; c++) {
                        expected[i++] = oracle[(int) r][(int) c];
                    }
                }
                assertArrayEquals(expected, read, "[" + r0 + ".." + r1 + "] x [" + c0 + ".." + c1 + "]");
            }
            assertTrue(assertThrows(IndexOutOfBoundsException.class, () -> a.readRectangle(new long[] {0, 0},
                    new long[] {ROWS, 0}, new double[ROWS + 1])).getMessage().contains("rectangle dimension 0"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> a.readRectangle(new long[] {0, 0},
                    new long[] {1, 1}, new double[3])).getMessage().contains("must hold the rectangle's 4 cells"));
        }
    }

    @Test
    void writingFromInsideAnIterationFails() {
        try (LabArray a = LabArray.builder(dir.resolve("cme.lab")).shape(10).pageSize(512).build()) {
            a.set(1, 3);
            assertThrows(ConcurrentModificationException.class, () -> a.forEach(Linearization.rowMajor(), true,
                    (position, c, value) -> a.set(2, 4)));
            a.set(2, 4); // allowed again afterwards
            assertEquals(2, a.get(4));
        }
    }
}
