package io.nearsort.labtree;

import io.nearsort.core.CorruptFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LabArrayTest {
    @TempDir
    Path dir;

    private static long linear(final long row, final long col, final long cols) {
        return row * cols + col;
    }

    @ParameterizedTest
    @EnumSource(SplitStrategy.class)
    void randomOperationsMatchAnInMemoryArrayAcrossReopen(final SplitStrategy strategy) {
        for (final LeafFormat format : LeafFormat.values()) {
            for (final Linearization linearization : new Linearization[] {Linearization.rowMajor(),
                Linearization.columnMajor(), Linearization.blocked(8, 8), Linearization.zOrder()}) {
                final Path file = dir.resolve(strategy + "-" + format + "-" + linearization.name() + ".lab");
                final int rows = 64;
                final int cols = 64;
                final Map<Long, Double> oracle = new HashMap<>();
                final SplittableRandom random = new SplittableRandom(strategy.ordinal() * 31L + format.ordinal());
                for (int session = 0; session < 3; session++) {
                    try (LabArray a = open(file, rows, cols, linearization, strategy, format)) {
                        for (int op = 0; op < 3_000; op++) {
                            final long r = random.nextInt(rows);
                            // Runs of neighbouring columns make dense regions; the rest is scattered.
                            final long c = op % 3 == 0 ? random.nextInt(cols) : (op / 3) % cols;
                            final double value = random.nextInt(5) == 0 ? 0.0 : random.nextInt(1, 1000) / 8.0;
                            a.set(value, r, c);
                            if (value == 0.0) {
                                oracle.remove(linear(r, c, cols));
                            } else {
                                oracle.put(linear(r, c, cols), value);
                            }
                            if (op % 500 == 0) {
                                assertMatches(a, oracle, rows, cols);
                            }
                        }
                        assertEquals(oracle.size(), a.stats().size());
                    }
                    try (LabArray a = open(file, rows, cols, linearization, strategy, format)) {
                        assertMatches(a, oracle, rows, cols);
                    }
                }
            }
        }
    }

    private LabArray open(final Path file, final int rows, final int cols, final Linearization linearization,
                          final SplitStrategy strategy, final LeafFormat format) {
        // 512-byte pages: κs = 30, κd = 60, fanout 31: many leaves and a three-level tree at 4k elements.
        return LabArray.builder(file).shape(rows, cols).linearization(linearization).splitStrategy(strategy)
                .leafFormat(format).pageSize(512).bufferPoolPages(8).build();
    }

    private static void assertMatches(final LabArray a, final Map<Long, Double> oracle, final int rows,
                                      final int cols) {
        for (long r = 0; r < rows; r++) {
            for (long c = 0; c < cols; c++) {
                assertEquals(oracle.getOrDefault(linear(r, c, cols), 0.0), a.get(r, c), 0.0, "(" + r + ", " + c + ")");
            }
        }
    }

    @Test
    void example1OnDisk() {
        // 12 sequential inserts with leaf capacity 4: split-in-middle makes 5 leaves, split-aligned 3.
        for (final SplitStrategy strategy : new SplitStrategy[] {SplitStrategy.MIDDLE, SplitStrategy.ALIGNED}) {
            try (LabArray a = LabArray.builder(dir.resolve("ex1-" + strategy)).shape(12).splitStrategy(strategy)
                    .leafFormat(LeafFormat.SPARSE_ONLY).leafCapacities(4, 4).pageSize(512).build()) {
                for (long i = 0; i < 12; i++) {
                    a.set(i + 1, i);
                }
                assertEquals(strategy == SplitStrategy.MIDDLE ? 5 : 3, a.stats().leafCount(), strategy.name());
                for (long i = 0; i < 12; i++) {
                    assertEquals(i + 1, a.get(i));
                }
            }
        }
    }

    @Test
    void theDynamicFormatStoresDenseRegionsInFewerLeaves() {
        long sparseLeaves = 0;
        for (final LeafFormat format : LeafFormat.values()) {
            try (LabArray a = LabArray.builder(dir.resolve("dense-" + format)).shape(100, 100).leafFormat(format)
                    .pageSize(1024).build()) {
                for (long r = 0; r < 100; r++) {
                    for (long c = 0; c < 100; c++) {
                        a.set(r * 100 + c + 1, r, c);
                    }
                }
                final LabStats s = a.stats();
                assertEquals(10_000, s.size());
                if (format == LeafFormat.SPARSE_ONLY) {
                    sparseLeaves = s.leafCount();
                    assertEquals(0, s.denseLeafCount());
                } else {
                    assertEquals(s.leafCount(), s.denseLeafCount(), "a full matrix is all dense leaves");
                    assertTrue(s.leafCount() * 1.9 < sparseLeaves, s.leafCount() + " vs " + sparseLeaves);
                }
            }
        }
    }

    @Test
    void deletingEverythingFreesLeavesAndTheirPagesAreReused() {
        try (LabArray a = LabArray.builder(dir.resolve("del.lab")).shape(5000).pageSize(512).build()) {
            final SplittableRandom random = new SplittableRandom(1);
            for (int i = 0; i < 5000; i++) {
                a.set(random.nextInt(1, 100), random.nextInt(5000));
            }
            final long pages = a.stats().filePages();
            assertEquals(3, a.stats().height(), "root, internal level, leaves: internal splits and collapse covered");
            for (long i = 0; i < 5000; i++) {
                a.set(0.0, i);
            }
            final LabStats empty = a.stats();
            assertEquals(0, empty.size());
            assertEquals(1, empty.leafCount());
            assertEquals(1, empty.height());
            for (int i = 0; i < 5000; i++) {
                a.set(random.nextInt(1, 100), random.nextInt(5000));
            }
            assertTrue(a.stats().filePages() <= pages + 2, "freed pages are reused: " + a.stats().filePages()
                    + " vs " + pages);
        }
    }

    @Test
    void aDamagedHeaderFailsTheBuildWithTheSharedCorruptionType() throws IOException {
        final Path file = dir.resolve("header.lab");
        try (LabArray a = LabArray.builder(file).shape(100).pageSize(512).build()) {
            a.set(1.5, 7);
        }
        final byte[] bytes = Files.readAllBytes(file);
        bytes[0] ^= 1; // the magic number
        Files.write(file, bytes);
        final CorruptFileException e = CorruptionAssertions.assertCorrupt(
                () -> LabArray.builder(file).shape(100).pageSize(512).build());
        assertEquals(file, e.file());
        assertEquals(-1, e.page());
        assertEquals(0, e.offset());
        assertTrue(e.getMessage().contains("not a nearsort LAB-tree file"), e.getMessage());
    }

    @Test
    void aDamagedLeafIsReportedNotReturned() throws IOException {
        final Path file = dir.resolve("bad.lab");
        try (LabArray a = LabArray.builder(file).shape(1000).pageSize(512).build()) {
            for (long i = 0; i < 1000; i++) {
                a.set(i + 0.5, i);
            }
        }
        final byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 300] ^= 0x40; // inside the last page
        Files.write(file, bytes);
        try (LabArray a = LabArray.builder(file).shape(1000).pageSize(512).build()) {
            int corrupt = 0;
            for (long i = 0; i < 1000; i++) {
                try {
                    assertEquals(i + 0.5, a.get(i));
                } catch (final UncheckedIOException e) {
                    final CorruptFileException cause = assertInstanceOf(CorruptFileException.class, e.getCause());
                    assertTrue(cause.getMessage().startsWith(file + " is corrupt at page "), cause.getMessage());
                    corrupt++;
                }
            }
            assertTrue(corrupt > 0, "the damaged page was read");
        }
    }

    @Test
    void aMismatchedReopenNamesTheParameter() {
        final Path file = dir.resolve("m.lab");
        LabArray.builder(file).shape(10, 10).splitStrategy(SplitStrategy.MIDDLE).pageSize(512).build().close();
        assertMessage("shape must match (got: [10, 11])", () -> LabArray.builder(file).shape(10, 11).pageSize(512)
                .build());
        assertMessage("linearization must match (got: columnMajor)", () -> LabArray.builder(file).shape(10, 10)
                .linearization(Linearization.columnMajor()).pageSize(512).build());
        assertMessage("splitStrategy must match (got: ALIGNED)", () -> LabArray.builder(file).shape(10, 10)
                .splitStrategy(SplitStrategy.ALIGNED).pageSize(512).build());
        assertMessage("pageSize must match (got: 1024)", () -> LabArray.builder(file).shape(10, 10).pageSize(1024)
                .build());
        assertMessage("leafCapacities must fit a 512-byte page", () -> LabArray.builder(dir.resolve("n.lab"))
                .shape(10).leafCapacities(100, 200).pageSize(512).build());
        assertMessage("shape is required", () -> LabArray.builder(dir.resolve("o.lab")).build());
        assertMessage("bufferPoolPages must be >= 8 (got: 2)", () -> LabArray.builder(file).bufferPoolPages(2));
        // The stored definition still opens.
        try (LabArray a = LabArray.builder(file).shape(10, 10).pageSize(512).build()) {
            assertEquals(0.0, a.get(3, 3));
        }
    }

    private static void assertMessage(final String expected, final org.junit.jupiter.api.function.Executable call) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void closeReleasesEveryDirectByte() {
        final java.lang.management.BufferPoolMXBean direct = java.lang.management.ManagementFactory
                .getPlatformMXBeans(java.lang.management.BufferPoolMXBean.class).stream()
                .filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();
        final long before = direct.getMemoryUsed();
        final LabArray a = LabArray.builder(dir.resolve("mem.lab")).shape(200, 200).pageSize(4096)
                .bufferPoolPages(64).updateBuffer(1000, FlushPolicy.LPP).build();
        for (long i = 0; i < 40_000; i += 3) {
            a.setLinear(1.0, i);
        }
        assertTrue(direct.getMemoryUsed() > before, "frames are off-heap");
        a.close();
        assertEquals(before, direct.getMemoryUsed(), "no direct bytes remain after close");
    }

    /**
     * Issue 22: when saving the buffered updates fails at close, nothing is committed and the file and every frame
     * are still released (the pool used to stay open).
     */
    @Test
    void aFailingSaveAtCloseCommitsNothingAndReleasesEverything() throws java.io.IOException {
        final Path file = dir.toRealPath().resolve("save.lab");
        try (LabArray a = LabArray.builder(file).shape(100, 100).pageSize(512).bufferPoolPages(8).build()) {
            for (long i = 0; i < 10_000; i += 2) {
                a.setLinear(1.0, i);
            }
        }
        final long pages = Files.size(file) / 512;
        for (long p = 2; p < pages; p++) { // every page but the header and the meta page
            ResourceProbe.flipByte(file, p * 512 + 40);
        }
        final byte[] damaged = Files.readAllBytes(file);
        final long before = ResourceProbe.directBytes(); // after the reads above, whose buffers the JDK caches
        final LabArray a = LabArray.builder(file).shape(100, 100).pageSize(512).bufferPoolPages(8)
                .updateBuffer(20_000, FlushPolicy.ALL).build();
        for (long i = 1; i < 10_000; i += 2) {
            a.setLinear(2.0, i); // buffered: applied to the leaves at close
        }
        final Path journal = file.resolveSibling("save.lab.journal");
        assertEquals(2, ResourceProbe.openDescriptors(file, journal));
        final CorruptFileException e = CorruptionAssertions.assertCorrupt(a::close);
        assertEquals(file, e.file());
        assertEquals(0, ResourceProbe.openDescriptors(file, journal), "file and journal closed");
        assertEquals(before, ResourceProbe.directBytes(), "every frame freed");
        assertTrue(java.util.Arrays.equals(damaged, Files.readAllBytes(file)), "nothing committed");
        assertTrue(Files.notExists(journal));
    }

    @Test
    void useAfterCloseAndOutOfRangeIndicesFailClearly() {
        final LabArray a = LabArray.builder(dir.resolve("c.lab")).shape(4, 4).pageSize(512).build();
        assertTrue(assertThrows(IndexOutOfBoundsException.class, () -> a.get(4, 0)).getMessage()
                .contains("coordinate 0 must be in [0, 4)"));
        assertThrows(IndexOutOfBoundsException.class, () -> a.getLinear(16));
        a.close();
        assertTrue(assertThrows(IllegalStateException.class, () -> a.get(0, 0)).getMessage().contains("is closed"));
        a.close();
    }

    @Test
    void aNonZeroDefaultValueIsKept() {
        final Path file = dir.resolve("d.lab");
        try (LabArray a = LabArray.builder(file).shape(100).defaultValue(Double.NaN).pageSize(512).build()) {
            assertTrue(Double.isNaN(a.get(5)));
            a.set(0.0, 5);
            assertEquals(0.0, a.get(5));
            assertEquals(1, a.stats().size());
        }
        try (LabArray a = LabArray.builder(file).shape(100).pageSize(512).build()) {
            assertTrue(Double.isNaN(a.get(6)));
            a.set(Double.NaN, 5);
            assertEquals(0, a.stats().size());
        }
    }
}
