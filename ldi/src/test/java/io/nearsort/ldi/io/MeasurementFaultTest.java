package io.nearsort.ldi.io;

import io.nearsort.core.io.FaultInjectingFileIo;
import io.nearsort.core.io.FaultInjectingFileIo.Fault;
import io.nearsort.core.io.FaultInjectingFileIo.Operation;
import io.nearsort.core.io.FileIo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 22's I/O faults in the LDI measurement tools ({@link WriteMax}, {@link ThetaCalibration}): at every call of
 * each class (open, write, force, read, delete), a failed call, a short write, a flipped bit and a full disk. The
 * tools hold nothing durable, so the outcome to check is narrower than a store's: a measurement either completes
 * with a positive figure (a short write, a flipped bit in data it only times) or throws an {@link IOException}
 * naming its scratch file; and the scratch file is gone afterwards, unless deleting it is what failed, which the
 * exception then says.
 */
class MeasurementFaultTest {
    @TempDir
    Path dir;

    private interface Measurement {
        double run(FileIo io, Path directory) throws IOException;
    }

    private static final Map<String, Measurement> TOOLS = Map.of(
            "WriteMax", (io, d) -> WriteMax.seconds(io, d, 3L << 20),
            "ThetaCalibration", (io, d) -> ThetaCalibration.measure(io, d, 512, 2));

    @Test
    void everyFaultIsReportedNamingTheScratchFileAndLeavesNoScratchFile() throws IOException {
        final Map<String, Integer> outcomes = new TreeMap<>();
        for (final Map.Entry<String, Measurement> tool : TOOLS.entrySet()) {
            final FaultInjectingFileIo counter = new FaultInjectingFileIo(FileIo.standard()).countOnly(p -> true);
            assertTrue(tool.getValue().run(counter, dir) > 0, tool.getKey() + " measures without faults");
            for (final Operation op : List.of(Operation.OPEN, Operation.WRITE, Operation.FORCE, Operation.READ,
                    Operation.DELETE)) {
                for (long n = 1; n <= counter.calls(op); n++) {
                    final long nth = n;
                    run(tool, "FAIL " + op + " #" + n, io -> io.inject(op, nth, Fault.FAIL, false, p -> true),
                            outcomes);
                }
            }
            for (long n = 1; n <= counter.calls(Operation.WRITE); n++) {
                final long nth = n;
                run(tool, "SHORT_WRITE #" + n, io -> io.inject(Operation.WRITE, nth, Fault.SHORT_WRITE, false,
                        p -> true), outcomes);
            }
            for (long n = 1; n <= counter.calls(Operation.READ); n += 7) {
                final long nth = n;
                run(tool, "FLIP_BIT #" + n, io -> io.inject(Operation.READ, nth, Fault.FLIP_BIT, false, p -> true),
                        outcomes);
            }
            for (final long room : new long[] {0, 100, 1L << 20, 2L << 20}) {
                run(tool, "disk full after " + room, io -> io.diskFullAfter(room, p -> true), outcomes);
            }
        }
        System.out.println("[measurement-faults] " + outcomes);
        assertTrue(outcomes.keySet().stream().anyMatch(k -> k.endsWith("threw")), "some faults were reported");
    }

    private void run(final Map.Entry<String, Measurement> tool, final String fault,
                     final Consumer<FaultInjectingFileIo> inject, final Map<String, Integer> outcomes)
            throws IOException {
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard());
        inject.accept(io);
        final String where = tool.getKey() + ", " + fault;
        String outcome;
        try {
            final double figure = tool.getValue().run(io, dir);
            assertTrue(figure > 0 && Double.isFinite(figure), where + ": " + figure);
            outcome = "completed";
        } catch (final IOException e) {
            final String message = e.getMessage();
            if (message == null || !(message.contains("write-max") || message.contains("theta-"))) {
                fail(where + ": the error does not name the scratch file: " + message, e);
            }
            outcome = "threw";
        }
        try (Stream<Path> left = Files.list(dir)) {
            final List<Path> files = left.toList();
            if (!files.isEmpty()) {
                assertTrue(fault.startsWith("FAIL DELETE"), where + ": scratch files left: " + files);
                for (final Path f : files) {
                    Files.delete(f);
                }
                outcome += ", scratch left by the failed delete";
            }
        }
        assertTrue(io.calls(Operation.OPEN) >= 1, where + ": the scratch file was not opened through the FileIo");
        outcomes.merge(tool.getKey() + " " + fault.replaceAll(" #\\d+| after \\d+", "") + ": " + outcome, 1,
                Integer::sum);
    }
}
