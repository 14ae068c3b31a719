package io.nearsort.labtree;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.nearsort.core.CorruptFileException;
import io.nearsort.labtree.daf.DirectlyAddressableFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Hostile input for the directly addressable file (the LAB-tree's DAF baseline; issue 22): a real DAF of a 60×60
 * array (presence bitmap pages and data pages), damaged as {@link LabArrayFuzzTest#damage} does, is opened and
 * read whole. It must return exactly the values written, or throw an {@link UncheckedIOException} naming the file
 * (a {@link CorruptFileException} cause where the damage is seen as corruption).
 *
 * <p>{@code mvn test} replays the committed corpus ({@code DafFuzzTestInputs}); {@code JAZZER_FUZZ=1} fuzzes
 * (docs/reliability.md, "Hostile input").
 */
class DafFuzzTest {
    private static final int SIDE = 60;
    private static Path dir;
    private static byte[] pristine;
    private static double[] written;

    @BeforeAll
    static void writeTheFile() throws IOException {
        dir = Files.createTempDirectory("daf-fuzz");
        final Path file = dir.resolve("pristine.daf");
        written = new double[SIDE * SIDE];
        final SplittableRandom random = new SplittableRandom(2026);
        try (DirectlyAddressableFile daf = open(file)) {
            for (int i = 0; i < written.length; i++) {
                if (random.nextInt(3) == 0) {
                    written[i] = random.nextDouble() * 1e6 - 5e5;
                    daf.set(written[i], i / SIDE, i % SIDE);
                }
            }
        }
        pristine = Files.readAllBytes(file);
        Files.delete(file);
    }

    @AfterAll
    static void removeTheDirectory() throws IOException {
        Files.deleteIfExists(dir);
    }

    private static DirectlyAddressableFile open(final Path file) {
        return DirectlyAddressableFile.open(file, Linearization.rowMajor(), 512, 8, SIDE, SIDE);
    }

    @FuzzTest(maxDuration = "10m")
    void aDamagedDafIsReportedNeverReadAsData(final FuzzedDataProvider data) throws IOException {
        final Path file = Files.createTempFile(dir, "damaged", ".daf");
        Files.write(file, LabArrayFuzzTest.damage(pristine, data));
        try (DirectlyAddressableFile daf = open(file)) {
            for (int i = 0; i < written.length; i++) {
                final double value = daf.get(i / SIDE, i % SIDE);
                if (Double.compare(value, written[i]) != 0) {
                    fail("element " + i + " read as " + value + ", written as " + written[i]);
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
}
