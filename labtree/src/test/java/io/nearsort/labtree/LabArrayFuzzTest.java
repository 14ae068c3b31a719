package io.nearsort.labtree;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.nearsort.core.CorruptFileException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Hostile input for the LAB-tree's reader (issue 22): a real array file, damaged as the fuzzer says (bytes
 * overwritten, the file cut short or extended), is opened and read whole. The reader must either return exactly
 * the values written or throw an {@link UncheckedIOException} naming the file (a {@link CorruptFileException}
 * cause where the damage is detected as corruption); any other exception, a wrong value, a hang or an
 * out-of-memory error is a finding. The header page, the meta page, the tree's internal pages and its sparse and
 * dense leaves are all in the file, so every page reader of the format is reached.
 *
 * <p>{@code mvn test} replays the committed corpus ({@code LabArrayFuzzTestInputs}); {@code JAZZER_FUZZ=1} fuzzes
 * (docs/reliability.md, "Hostile input").
 */
class LabArrayFuzzTest {
    private static final int ELEMENTS = 3_000;
    private static final int PAGE_SIZE = 512;
    private static Path dir;
    private static byte[] pristine;
    private static double[] written;

    @BeforeAll
    static void writeTheArray() throws IOException {
        dir = Files.createTempDirectory("labtree-fuzz");
        final Path file = dir.resolve("pristine.lab");
        written = new double[ELEMENTS];
        final SplittableRandom random = new SplittableRandom(2026);
        try (LabArray array = builder(file).build()) {
            // Dense stretches and scattered elements, so both leaf formats are written.
            for (int i = 0; i < ELEMENTS; i++) {
                if (i < 1_200 || random.nextInt(8) == 0) {
                    written[i] = random.nextDouble() * 1e6 - 5e5;
                    array.set(written[i], i);
                }
            }
        }
        pristine = Files.readAllBytes(file);
        Files.delete(file);
    }

    @AfterAll
    static void removeTheFiles() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (final Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static LabArray.Builder builder(final Path file) {
        return LabArray.builder(file).shape(ELEMENTS).pageSize(PAGE_SIZE).bufferPoolPages(16);
    }

    @FuzzTest(maxDuration = "10m")
    void aDamagedArrayFileIsReportedNeverReadAsData(final FuzzedDataProvider data) throws IOException {
        final byte[] damaged = damage(pristine, data);
        final Path file = Files.createTempFile(dir, "damaged", ".lab");
        Files.write(file, damaged);
        try (LabArray array = builder(file).build()) {
            for (int i = 0; i < ELEMENTS; i++) {
                final double value = array.get(i);
                if (Double.compare(value, written[i]) != 0) {
                    fail("element " + i + " read as " + value + ", written as " + written[i] + " (file damaged "
                            + "at bytes that changed: " + changedBytes(damaged) + ")");
                }
            }
        } catch (final UncheckedIOException e) {
            assertTrue(e.getMessage().contains(file.getFileName().toString()), () -> "names the file: " + e);
            if (e.getCause() instanceof CorruptFileException) {
                assertEquals(e.getCause().getMessage(), e.getMessage());
            }
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".journal"));
        }
    }

    /**
     * The fuzzer's damage: up to eight edits, each an overwritten run of bytes, a cut or an extension. The first
     * choices land in the header and meta pages more often than chance would, since those are read first.
     */
    static byte[] damage(final byte[] original, final FuzzedDataProvider data) {
        byte[] bytes = original.clone();
        final int edits = data.consumeInt(1, 8);
        for (int e = 0; e < edits && data.remainingBytes() > 0; e++) {
            switch (data.consumeInt(0, 3)) {
                case 0, 1 -> {
                    final int limit = data.consumeBoolean() ? Math.min(bytes.length, 2 * PAGE_SIZE) : bytes.length;
                    if (limit == 0) {
                        break;
                    }
                    final int at = data.consumeInt(0, limit - 1);
                    final byte[] with = data.consumeBytes(Math.min(16, bytes.length - at));
                    System.arraycopy(with, 0, bytes, at, with.length);
                }
                case 2 -> bytes = Arrays.copyOf(bytes, data.consumeInt(0, bytes.length));
                default -> {
                    final byte[] tail = data.consumeBytes(2 * PAGE_SIZE);
                    final int from = bytes.length;
                    bytes = Arrays.copyOf(bytes, from + tail.length);
                    System.arraycopy(tail, 0, bytes, from, tail.length);
                }
            }
        }
        return bytes;
    }

    private static String changedBytes(final byte[] damaged) {
        final StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(damaged.length, pristine.length) && s.length() < 200; i++) {
            if (damaged[i] != pristine[i]) {
                s.append(i).append(' ');
            }
        }
        return s + "length " + damaged.length + " of " + pristine.length;
    }
}
