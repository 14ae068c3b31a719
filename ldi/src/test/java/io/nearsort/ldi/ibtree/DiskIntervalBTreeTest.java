package io.nearsort.ldi.ibtree;

import io.nearsort.core.CorruptFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The on-disk IB-tree against brute-force interval intersection. */
class DiskIntervalBTreeTest {
    @TempDir
    Path dir;

    @Test
    void searchesMatchBruteForceAcrossNodeSizes() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(3);
        final int n = 30_000;
        final long[] lows = new long[n];
        final long[] highs = new long[n];
        final long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            lows[i] = switch (i % 50) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                default -> rnd.nextLong(-1_000_000, 1_000_000);
            };
            final long width = i % 97 == 0 ? rnd.nextLong(0, 500_000) : rnd.nextLong(0, 300);
            highs[i] = lows[i] > Long.MAX_VALUE - width ? Long.MAX_VALUE : lows[i] + width;
            values[i] = i;
        }
        for (int k : new int[] {1, 2, 8}) {
            final Path file = dir.resolve("t" + k + ".ibt");
            DiskIntervalBTree.write(file, k, 42L, lows, highs, values, n);
            try (DiskIntervalBTree tree = DiskIntervalBTree.open(file, 16)) {
                assertEquals(n, tree.size());
                assertEquals(42L, tree.fingerprint());
                assertEquals(k * 4096, tree.nodeBytes());
                assertTrue(k > 2 || tree.height() >= 2, "height " + tree.height());
                for (int q = 0; q < 300; q++) {
                    final long lo = q % 30 == 0 ? Long.MIN_VALUE : rnd.nextLong(-1_100_000, 1_100_000);
                    final long hi = q % 31 == 0 ? Long.MAX_VALUE : lo + rnd.nextLong(0, q % 3 == 0 ? 50_000 : 500);
                    final List<Long> got = new ArrayList<>();
                    final long[] lastLow = {Long.MIN_VALUE};
                    tree.search(lo, hi, (low, high, value) -> {
                        assertTrue(low >= lastLow[0], "ascending low");
                        lastLow[0] = low;
                        assertEquals(lows[(int) value], low);
                        assertEquals(highs[(int) value], high);
                        got.add(value);
                    });
                    final List<Long> expected = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        if (lows[i] <= hi && highs[i] >= lo) {
                            expected.add((long) i);
                        }
                    }
                    got.sort(null);
                    assertEquals(expected, got, "[" + lo + ", " + hi + "] with k = " + k);
                }
                final List<Long> none = new ArrayList<>();
                tree.search(5, 4, (low, high, value) -> none.add(value));
                assertTrue(none.isEmpty());
            }
        }
    }

    @Test
    void emptyTreesAndCorruptionAndBadArguments() throws IOException {
        final Path file = dir.resolve("empty.ibt");
        DiskIntervalBTree.write(file, 1, 0L, new long[0], new long[0], new long[0], 0);
        try (DiskIntervalBTree tree = DiskIntervalBTree.open(file, 1)) {
            assertEquals(0, tree.size());
            tree.search(Long.MIN_VALUE, Long.MAX_VALUE, (low, high, value) -> {
                throw new AssertionError("empty");
            });
        }
        assertThrows(IllegalArgumentException.class,
                () -> DiskIntervalBTree.write(file, 0, 0L, new long[0], new long[0], new long[0], 0));
        assertThrows(IllegalArgumentException.class, () -> DiskIntervalBTree.open(file, 0));

        final Path full = dir.resolve("full.ibt");
        final long[] lows = {1, 5, 9};
        DiskIntervalBTree.write(full, 1, 7L, lows, new long[] {2, 6, 10}, new long[] {0, 1, 2}, 3);
        try (RandomAccessFile f = new RandomAccessFile(full.toFile(), "rw")) {
            f.seek(4096 + 10);
            f.write(0x55);
        }
        try (DiskIntervalBTree tree = DiskIntervalBTree.open(full, 4)) {
            final CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> tree.search(0, 100, (low, high, value) -> { }));
            assertTrue(e.getMessage().contains("checksum"), e.getMessage());
        }
        try (RandomAccessFile f = new RandomAccessFile(full.toFile(), "rw")) {
            f.setLength(4096 + 17);
        }
        assertThrows(CorruptFileException.class, () -> DiskIntervalBTree.open(full, 4));
    }
}
