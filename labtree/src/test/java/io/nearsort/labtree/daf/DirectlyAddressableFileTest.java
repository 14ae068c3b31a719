package io.nearsort.labtree.daf;

import io.nearsort.labtree.Linearization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static io.nearsort.labtree.CorruptionAssertions.assertCorrupt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DirectlyAddressableFileTest {
    @TempDir
    Path dir;

    @Test
    void matchesAnOracleAcrossReopenAndAllocatesOnlyWrittenPages() throws IOException {
        final Path file = dir.resolve("a.daf");
        final double[][] oracle = new double[300][300];
        final SplittableRandom random = new SplittableRandom(5);
        long allocated;
        try (DirectlyAddressableFile daf = DirectlyAddressableFile.open(file, Linearization.rowMajor(), 512, 8, 300,
                300)) {
            // Only rows 0..9 and 200..209: most pages stay unallocated.
            for (int i = 0; i < 5000; i++) {
                final int r = random.nextBoolean() ? random.nextInt(10) : 200 + random.nextInt(10);
                final int c = random.nextInt(300);
                final double v = random.nextInt(1, 100);
                daf.set(v, r, c);
                oracle[r][c] = v;
            }
            allocated = daf.allocatedPages();
            assertTrue(allocated <= 2 * (10 * 300 / 62 + 2), "only the written rows' pages: " + allocated);
            assertTrue(daf.addressablePages() > 1400);
        }
        // Pages past the last written one do not exist; the unwritten ones before it are holes (not measurable here).
        assertTrue(Files.size(file) < 300L * 300 * 8, "the file ends at the last written page: " + Files.size(file));
        try (DirectlyAddressableFile daf = DirectlyAddressableFile.open(file, Linearization.rowMajor(), 512, 8, 300,
                300)) {
            assertEquals(allocated, daf.allocatedPages());
            for (int r = 0; r < 300; r++) {
                for (int c = 0; c < 300; c++) {
                    assertEquals(oracle[r][c], daf.get(r, c), 0.0);
                }
            }
        }
    }

    @Test
    void damageIsReportedAndMismatchesNamed() throws IOException {
        final Path file = dir.resolve("b.daf");
        try (DirectlyAddressableFile daf = DirectlyAddressableFile.open(file, Linearization.rowMajor(), 512, 8, 100)) {
            for (long i = 0; i < 100; i++) {
                daf.set(i + 1, i);
            }
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DirectlyAddressableFile.open(file,
                Linearization.rowMajor(), 512, 8, 101)).getMessage().contains("shape and linearization must match"));
        final byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 100] ^= 1;
        Files.write(file, bytes);
        try (DirectlyAddressableFile daf = DirectlyAddressableFile.open(file, Linearization.rowMajor(), 512, 8, 100)) {
            assertTrue(assertCorrupt(() -> daf.get(99)).page() > 0, "a data page, not the header");
        }
    }
}
