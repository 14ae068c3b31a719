package io.nearsort.labtree.daf;

import io.nearsort.labtree.Linearization;
import io.nearsort.labtree.storage.FaultWorkload;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Path;

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

    private FaultWorkload workload() {
        return new FaultWorkload(tmp, FaultWorkload.subject(NAME,
                (file, io) -> DirectlyAddressableFile.open(file, Linearization.rowMajor(), 512, 8, io,
                        FaultWorkload.ROWS, FaultWorkload.COLS),
                DirectlyAddressableFile::getLinear, (daf, key, value) -> daf.setLinear(value, key)), "DAF");
    }

    @ParameterizedTest
    @EnumSource(FaultWorkload.Case.class)
    void everyInjectionPointIsReportedAndLosesNothing(final FaultWorkload.Case fault) throws IOException {
        workload().everyInjectionPoint(fault);
    }

    /** The same at every call, not a sample: about 11,000 runs (see docs/reliability.md for the time). */
    @ParameterizedTest
    @EnumSource(FaultWorkload.Case.class)
    @Tag("slow")
    void everyCallFaulted(final FaultWorkload.Case fault) throws IOException {
        workload().everyInjectionPoint(fault, true);
    }

    @Test
    void aFullDiskIsReportedAtEveryStageAndLosesNothing() throws IOException {
        workload().fullDisk(new long[]{0, 300, 512, 1_500, 4_000, 10_000, 25_000, 60_000, 120_000, 250_000});
    }
}
