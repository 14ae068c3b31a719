package io.nearsort.ldi.projection;

import io.nearsort.core.io.FaultInjectingFileIo;
import io.nearsort.core.io.FileIo;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The options builder: every setter lands in its component, toBuilder keeps the rest, build checks the values. */
class ColumnStoreOptionsTest {

    @Test
    void everySetterLandsAndToBuilderKeepsTheRest() {
        final FileIo io = new FaultInjectingFileIo(FileIo.standard());
        final ColumnStoreOptions o = ColumnStoreOptions.builder().buckets(16, 256).training(512, 4, 1024)
                .thresholds(3.0, 0.25).readers(2, 4.5, 6).index(2, 32).maintenance(7).segmentBytes(1L << 20)
                .retainedCommits(5).atCommit(3).commitOnClose(false).memoryBudget(1L << 24).reclamation(0.25)
                .cursorWindow(99).fileIo(io).build();
        assertEquals(new ColumnStoreOptions(16, 256, 512, 4, 1024, 3.0, 0.25, 2, 4.5, 6,
                ColumnStoreOptions.defaults().indexFanout(), 2, 32, 7, 1L << 20, 5, 3, false, 1L << 24, 0.25, 99,
                io), o);
        assertEquals(o, o.toBuilder().build());
        final ColumnStoreOptions changed = o.toBuilder().atCommit(-1).build();
        assertEquals(-1, changed.commitPoint());
        assertEquals(5, changed.retainedCommits());
        assertEquals(ColumnStoreOptions.defaults(), ColumnStoreOptions.builder().build());
        assertEquals(FileIo.standard(), ColumnStoreOptions.defaults().fileIo());
        assertEquals(io, o.toBuilder().readers(1, 8, 8).build().fileIo());
    }

    @Test
    void aNullFileIoIsRefusedByName() {
        assertEquals("fileIo", assertThrows(NullPointerException.class,
                () -> ColumnStoreOptions.builder().fileIo(null)).getMessage());
        final ColumnStoreOptions d = ColumnStoreOptions.defaults();
        assertEquals("fileIo", assertThrows(NullPointerException.class, () -> new ColumnStoreOptions(
                d.bucketCapacity(), d.bufferCapacity(), d.trainingPrefix(), d.fanout(), d.windowSize(), d.phiMax(),
                d.phiMin(), d.readerThreads(), d.theta(), d.thetaGroup(), d.indexFanout(), d.indexNodeUnits(),
                d.indexCachePages(), d.maintenanceTrigger(), d.segmentBytes(), d.retainedCommits(), d.commitPoint(),
                d.commitOnClose(), d.memoryBudget(), d.reclaimThreshold(), d.cursorWindowRows(), null)).getMessage());
    }

    @Test
    void buildNamesTheValueOutOfRange() {
        assertMessage("segmentBytes", () -> ColumnStoreOptions.builder().segmentBytes(10).build());
        assertMessage("retainedCommits", () -> ColumnStoreOptions.builder().retainedCommits(0).build());
        assertMessage("commitPoint", () -> ColumnStoreOptions.builder().atCommit(-2).build());
        assertMessage("memoryBudget", () -> ColumnStoreOptions.builder().memoryBudget(0).build());
        assertMessage("reclaimThreshold", () -> ColumnStoreOptions.builder().reclamation(1.5).build());
        assertMessage("cursorWindowRows", () -> ColumnStoreOptions.builder().cursorWindow(0).build());
        assertMessage("indexNodeUnits", () -> ColumnStoreOptions.builder().index(0, 8).build());
        assertMessage("maintenanceTrigger", () -> ColumnStoreOptions.builder().maintenance(-1).build());
    }

    private static void assertMessage(final String name, final org.junit.jupiter.api.function.Executable build) {
        final String message = assertThrows(IllegalArgumentException.class, build).getMessage();
        assertTrue(message.startsWith(name), message);
    }
}
