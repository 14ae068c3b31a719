package io.nearsort.ldi.projection;

import io.nearsort.core.io.FaultInjectingFileIo;
import io.nearsort.core.io.FaultInjectingFileIo.Fault;
import io.nearsort.core.io.FaultInjectingFileIo.Operation;
import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.commit.BucketEntry;
import io.nearsort.ldi.io.BucketPointer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rebuild of the IB-tree file that fails (issue 22, I/O faults) leaves the bucket directory searching exactly the
 * live buckets, and a later rebuild succeeds.
 */
class BucketDirectoryFaultTest {
    @TempDir
    Path dir;

    private static BucketEntry entry(final int i) {
        return new BucketEntry(BucketPointer.of(0, 100L * i), 50, 10L * i, 10L * i + 5, 4, i, true);
    }

    private static List<Long> pointers(final List<BucketEntry> entries) {
        final List<Long> out = new ArrayList<>();
        entries.forEach(e -> out.add(e.pointer()));
        out.sort(null);
        return out;
    }

    @Test
    void aRebuildWhoseNewFileCannotBeOpenedKeepsTheOldTreeSearching() throws IOException {
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard());
        final List<BucketEntry> first = List.of(entry(1), entry(2), entry(3));
        try (BucketDirectory d = new BucketDirectory(io, dir.resolve("p.ibt"), first, 1, 16, 4)) {
            d.add(entry(4));
            d.retire(entry(2));
            final Path ibt = dir.resolve("p.ibt");
            // The new file is written and moved into place; opening it fails.
            io.inject(Operation.OPEN, 1, Fault.FAIL, false, ibt::equals);
            final IOException e = assertThrows(IOException.class, () -> d.maybeRebuildIndex(true));
            assertTrue(e.getMessage().contains("p.ibt"), e.getMessage());
            assertEquals(1, io.injected());
            final List<Long> expected = pointers(List.of(entry(1), entry(3), entry(4)));
            assertEquals(expected, pointers(d.search(Long.MIN_VALUE, Long.MAX_VALUE, false)));
            assertEquals(List.of(entry(3).pointer()), pointers(d.search(30, 35, false)));
            io.clear();
            d.maybeRebuildIndex(true);
            assertEquals(expected, pointers(d.search(Long.MIN_VALUE, Long.MAX_VALUE, false)));
        }
    }
}
