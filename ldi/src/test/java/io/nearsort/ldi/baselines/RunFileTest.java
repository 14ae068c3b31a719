package io.nearsort.ldi.baselines;

import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.io.BucketLocation;
import io.nearsort.ldi.io.RecordFile;
import io.nearsort.ldi.projection.BlockMerger;
import io.nearsort.ldi.projection.ProjectionLayout;
import io.nearsort.ldi.projection.StoreOracle;
import io.nearsort.ldi.projection.StoredBucket;
import io.nearsort.ldi.projection.TableLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run block read back is checked against what was written at its place, not only against its checksum. Found by
 * {@link BaselineRunFuzzTest} (a damaged block whose checksum was recomputed): a block that decoded to other keys
 * went into a merge, which wrote blocks out of key order and failed with
 * {@code IllegalStateException: run blocks must come in key order} instead of reporting the corruption.
 */
class RunFileTest {
    private static final ProjectionLayout LAYOUT = new TableLayout(StoreOracle.SCHEMA, StoreOracle.PROJECTIONS)
            .projection("by_id");

    @TempDir
    Path dir;

    /** Rows {@code from..from+n-1} of by_id (id, note), row ids equal to their keys, sorted. */
    private static StoredBucket block(final long from, final int n, final String note) {
        final long[] keys = new long[n];
        final List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys[i] = from + i;
            rows.add(new Object[] {from + i, note});
        }
        return StoredBucket.sorted(LAYOUT.columns(), StoredBucket.ofRows(LAYOUT.columns(), keys, keys.clone(), rows));
    }

    /** Overwrites the record at {@code at} with {@code block}'s encoding and a checksum that holds. */
    private static void forge(final Path file, final BucketLocation at, final StoredBucket block) throws IOException {
        final ByteBuffer payload = block.encode(LAYOUT.columns());
        assertEquals(at.length(), payload.remaining(), "the forged block has the size of the one it replaces");
        final CRC32C crc = new CRC32C();
        crc.update(payload.duplicate());
        final ByteBuffer header = ByteBuffer.allocate(RecordFile.RECORD_HEADER)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(payload.remaining()).putInt((int) crc.getValue())
                .flip();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            RecordFile.writeFully(ch, header, at.offset());
            RecordFile.writeFully(ch, payload, at.offset() + RecordFile.RECORD_HEADER);
        }
    }

    private RunFile run(final Path path) throws IOException {
        final RunFile run = new RunFile(FileIo.standard(), path, LAYOUT);
        run.append(block(0, 4, "a"));
        run.append(block(10, 4, "b"));
        run.append(block(20, 4, "c"));
        return run;
    }

    private static void readAll(final RunFile run) throws IOException {
        final BlockMerger.BlockSource blocks = run.reader();
        while (blocks.next() != null) {
            // read and checked
        }
    }

    @Test
    void aBlockWithOtherKeysIsCorruptionEvenWithAValidChecksum() throws IOException {
        final Path path = dir.resolve("keys.run");
        try (RunFile run = run(path)) {
            readAll(run);
            final BucketLocation second = run.overlapping(10, 13).get(0);
            forge(path, second, block(30, 4, "b")); // keys beyond the next block's: a merge would write them last
            final CorruptFileException e = assertThrows(CorruptFileException.class, () -> readAll(run));
            assertEquals(path, e.file());
            assertEquals(second.offset(), e.offset());
            assertTrue(e.getMessage().contains("where 4 rows with keys [10, 13] were written"), e.getMessage());
        }
    }

    @Test
    void aBlockWithItsRowsOutOfOrderIsCorruption() throws IOException {
        final Path path = dir.resolve("order.run");
        try (RunFile run = run(path)) {
            final BucketLocation second = run.overlapping(10, 13).get(0);
            // Same keys, row ids and count, but the rows unsorted: keys 10, 12, 11, 13.
            final long[] keys = {10, 12, 11, 13};
            final List<Object[]> rows = new ArrayList<>();
            for (long k : keys) {
                rows.add(new Object[] {k, "b"});
            }
            forge(path, second, StoredBucket.ofRows(LAYOUT.columns(), keys, keys.clone(), rows));
            final CorruptFileException e = assertThrows(CorruptFileException.class, () -> readAll(run));
            assertTrue(e.getMessage().contains("out of order"), e.getMessage());
        }
    }

    @Test
    void aForgedBlockWithinItsFenceIsNotSeen() throws IOException {
        // The limit of what the fence can tell: same keys, other values, a valid checksum. Read as written there.
        final Path path = dir.resolve("values.run");
        try (RunFile run = run(path)) {
            final BucketLocation second = run.overlapping(10, 13).get(0);
            forge(path, second, block(10, 4, "x"));
            readAll(run);
        }
    }
}
