package io.nearsort.labtree.daf;

import io.nearsort.core.io.FaultInjectingFileIo;
import io.nearsort.core.io.FaultInjectingFileIo.Fault;
import io.nearsort.core.io.FaultInjectingFileIo.Operation;
import io.nearsort.core.io.FileIo;
import io.nearsort.labtree.Linearization;
import io.nearsort.labtree.storage.FaultWorkload;
import io.nearsort.labtree.storage.ObservedFileIo;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22, I/O faults of the DAF baseline: {@link FaultWorkload} over a {@link DirectlyAddressableFile} (a 60×60
 * row-major array, 512-byte pages, an 8-page buffer pool, so that pages are evicted into the journal and read back),
 * reached through its {@code FileIo} overload. The DAF shares the LAB-tree's page file, journal and poisoning
 * ({@code PagedStructure}), so it owes the same contract: every fault is reported naming the file, a flipped bit as
 * corruption; the file goes on with correct content or refuses use; close frees file, journal and frames; reopening
 * gives the last flush that returned (or the failed one, past its commit point).
 */
class DafIoFaultTest {
    private static final String NAME = "faults.daf";

    @TempDir
    Path tmp;

    private static DirectlyAddressableFile open(final Path file, final FileIo io) {
        return DirectlyAddressableFile.open(file, Linearization.rowMajor(), 512, 8, io, FaultWorkload.ROWS,
                FaultWorkload.COLS);
    }

    private FaultWorkload workload() {
        return new FaultWorkload(tmp, FaultWorkload.subject(NAME, DafIoFaultTest::open,
                DirectlyAddressableFile::getLinear, (daf, key, value) -> daf.setLinear(value, key)), "DAF");
    }

    /**
     * The bug the exhaustive run found (FAIL at WRITE #359, the header write of the first flush): a commit without
     * journal slots — a new file's first, every page written in place — was not replayed at reopen, so a flush that
     * failed after its commit point (and said that reopening completes it) reopened as an empty file.
     */
    @Test
    void aFirstFlushFailingAfterItsCommitPointIsCompletedAtReopen() throws IOException {
        final Path file = tmp.toRealPath().resolve("first.daf");
        final FaultInjectingFileIo faulty = new FaultInjectingFileIo(FileIo.standard()).countOnly(path -> false);
        final ObservedFileIo io = new ObservedFileIo(faulty);
        final DirectlyAddressableFile daf = open(file, io);
        for (int key = 0; key < FaultWorkload.N; key += 7) {
            daf.setLinear(key + 1, key);
        }
        // Right after the commit point (the journal's force), fail the next write to the file: the header's.
        io.hook((verb, at) -> {
            if (verb.equals("forcing") && at.getFileName().toString().equals("first.daf.journal")) {
                faulty.inject(Operation.WRITE, 1, Fault.FAIL, false, file::equals);
            }
        });
        final UncheckedIOException e = assertThrows(UncheckedIOException.class, daf::flush);
        assertTrue(e.getMessage().contains("passed its commit point"), e.getMessage());
        assertTrue(daf.pool().file().failedCommitDurable());
        assertThrows(IllegalStateException.class, daf::close);
        try (DirectlyAddressableFile reopened = open(file, FileIo.standard())) {
            for (int key = 0; key < FaultWorkload.N; key++) {
                assertEquals(key % 7 == 0 ? key + 1 : 0.0, reopened.getLinear(key), "element " + key);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(FaultInjectingFileIo.Injection.class)
    void everyInjectionPointIsReportedAndLosesNothing(final FaultInjectingFileIo.Injection fault) throws IOException {
        workload().everyInjectionPoint(fault);
    }

    /** The same at every call, not a sample: 13,555 runs (docs/reliability.md has the time). */
    @ParameterizedTest
    @EnumSource(FaultInjectingFileIo.Injection.class)
    @Tag("slow")
    void everyCallFaulted(final FaultInjectingFileIo.Injection fault) throws IOException {
        workload().everyInjectionPoint(fault, true);
    }

    @Test
    void aFullDiskIsReportedAtEveryStageAndLosesNothing() throws IOException {
        workload().fullDisk(new long[]{0, 300, 512, 1_500, 4_000, 10_000, 25_000, 60_000, 120_000, 250_000});
    }
}
