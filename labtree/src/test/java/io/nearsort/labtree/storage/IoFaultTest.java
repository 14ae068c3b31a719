package io.nearsort.labtree.storage;

import io.nearsort.core.io.FaultInjectingFileIo;
import io.nearsort.core.io.FaultInjectingFileIo.Fault;
import io.nearsort.core.io.FaultInjectingFileIo.Operation;
import io.nearsort.core.io.FileIo;
import io.nearsort.labtree.FlushPolicy;
import io.nearsort.labtree.LabArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.nearsort.labtree.storage.FaultWorkload.under;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22, I/O faults: {@link FaultWorkload} over a {@link LabArray} (a 60×60 array with 512-byte pages and an
 * 8-page buffer pool), once write-through and once with an update buffer: every injection point of each fault is
 * reported and loses nothing (see {@link FaultWorkload} for what is checked after each).
 */
class IoFaultTest {
    private static final String NAME = "faults.lab";

    @TempDir
    Path tmp;

    /** The workload's configurations: write-through, and with an update buffer (§5) flushed by LPP. */
    enum Config {
        WRITE_THROUGH(0),
        UPDATE_BUFFER(64);

        final int updateBuffer;

        Config(final int updateBuffer) {
            this.updateBuffer = updateBuffer;
        }
    }

    /** The array of the workload in {@code config}. */
    static FaultWorkload.Subject subject(final Config config) {
        return FaultWorkload.subject(NAME, (file, io) -> {
            final LabArray.Builder b = LabArray.builder(file).shape(FaultWorkload.ROWS, FaultWorkload.COLS)
                    .pageSize(512).bufferPoolPages(8).fileIo(io);
            return (config.updateBuffer > 0 ? b.updateBuffer(config.updateBuffer, FlushPolicy.LPP) : b).build();
        }, LabArray::getLinear, (array, key, value) -> array.setLinear(value, key));
    }

    private FaultWorkload workload(final Config config) {
        return new FaultWorkload(tmp, subject(config), config.name());
    }

    @ParameterizedTest
    @EnumSource(FaultInjectingFileIo.Injection.class)
    void everyInjectionPointIsReportedAndLosesNothing(final FaultInjectingFileIo.Injection fault) throws IOException {
        for (final Config config : Config.values()) {
            workload(config).everyInjectionPoint(fault);
        }
    }

    @Test
    void aFullDiskIsReportedAtEveryStageAndLosesNothing() throws IOException {
        final long[] budgets = {0, 300, 512, 1_500, 4_000, 10_000, 25_000, 60_000, 120_000, 250_000, 500_000};
        for (final Config config : Config.values()) {
            workload(config).fullDisk(budgets);
        }
    }

    @Test
    void aNullFileIoIsRefusedNamingTheParameter() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LabArray.builder(tmp.resolve("x.lab")).fileIo(null));
        assertTrue(e.getMessage().contains("fileIo"), e.getMessage());
    }

    /** Every file labtree touches goes through the seam: nothing of the workload reaches the disk around it. */
    @Test
    void everyFileOfTheArrayIsReachedThroughTheSeam() throws IOException {
        final Path dir = Files.createDirectories(tmp.toRealPath().resolve("seam"));
        final FaultWorkload workload = workload(Config.WRITE_THROUGH);
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                .inject(Operation.OPEN, 1, Fault.FAIL, true, under(dir));
        final UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> workload.execute(dir, io));
        assertTrue(e.getMessage().contains(NAME), e.getMessage());
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "a dead device: no file was created around the seam");
        }
        final List<String> ops = new ArrayList<>();
        final FaultInjectingFileIo counting = new FaultInjectingFileIo(FileIo.standard()).countOnly(under(dir));
        workload.execute(dir, counting);
        for (final Operation op : Operation.values()) {
            ops.add(op + "=" + counting.calls(op));
        }
        for (final Operation op : List.of(Operation.OPEN, Operation.READ, Operation.WRITE, Operation.FORCE,
                Operation.MOVE, Operation.DELETE)) {
            assertTrue(counting.calls(op) > 0, () -> op + " goes through the seam: " + ops);
        }
        System.out.println("[io-faults] calls of the workload: " + ops);
    }
}
