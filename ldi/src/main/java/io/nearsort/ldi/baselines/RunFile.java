package io.nearsort.ldi.baselines;

import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.io.BucketLocation;
import io.nearsort.ldi.io.RecordFile;
import io.nearsort.ldi.projection.BlockMerger;
import io.nearsort.ldi.projection.ProjectionLayout;
import io.nearsort.ldi.projection.StoredBucket;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A sorted run of one projection on disk: checksummed column-wise blocks of consecutive keys (the encoding of
 * LDI's buckets), and in memory the fence of each block (its key span, row count and place), so a range query reads
 * only the blocks it overlaps and a merge streams the blocks in order. A block read back is checked against its
 * fence as well as its checksum: it must hold the rows counted, sorted by key then row id, within the key span.
 */
final class RunFile implements AutoCloseable {
    private final ProjectionLayout layout;
    private final RecordFile file;
    private final LongArrayList lows = new LongArrayList();
    private final LongArrayList highs = new LongArrayList();
    private final LongArrayList offsets = new LongArrayList();
    private final IntArrayList lengths = new IntArrayList();
    private final IntArrayList counts = new IntArrayList();
    private long rows;
    private long bytes;

    /** Creates the run file {@code path} through {@code io} (replacing any file of that name). */
    RunFile(final FileIo io, final Path path, final ProjectionLayout layout) throws IOException {
        io.deleteIfExists(path);
        this.layout = layout;
        this.file = RecordFile.open(io, path, layout.identity("sorted run"));
    }

    /** Appends the next block; blocks must come in key order. */
    void append(final StoredBucket block) throws IOException {
        if (!lows.isEmpty() && block.low() < highs.getLong(highs.size() - 1)) {
            throw new IllegalStateException("run blocks must come in key order: " + block.low() + " after "
                    + highs.getLong(highs.size() - 1));
        }
        final ByteBuffer payload = block.encode(layout.columns());
        bytes += RecordFile.RECORD_HEADER + payload.remaining();
        offsets.addLong(file.append(payload));
        lengths.addInt(payload.limit());
        lows.addLong(block.low());
        highs.addLong(block.high());
        counts.addInt(block.count());
        rows += block.count();
    }

    /** The blocks whose key span intersects {@code [lo, hi]}, in key order. */
    List<BucketLocation> overlapping(final long lo, final long hi) {
        // Block highs ascend: binary search for the first block ending at or after lo.
        int a = 0;
        int b = highs.size();
        while (a < b) {
            final int mid = (a + b) >>> 1;
            if (highs.getLong(mid) < lo) {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        final List<BucketLocation> out = new ArrayList<>();
        for (int i = a; i < lows.size() && lows.getLong(i) <= hi; i++) {
            out.add(new BucketLocation(offsets.getLong(i), lengths.getInt(i)));
        }
        return out;
    }

    /**
     * Decodes a block read from this run (its checksum verified) and checks it against the block's fence.
     *
     * @throws CorruptFileException naming the file and the block's offset when the payload does not decode, or
     *         decodes to a block other than the one written there (row count, key span, order)
     */
    StoredBucket decode(final BucketLocation at, final ByteBuffer payload) throws CorruptFileException {
        final int i = indexOf(at.offset());
        if (i < 0) {
            throw new IllegalArgumentException(file.path() + " has no block at byte " + at.offset());
        }
        final StoredBucket block;
        try {
            block = StoredBucket.decode(payload, layout.columns(), layout.keyColumn());
        } catch (IllegalStateException e) {
            throw new CorruptFileException(file.path(), at.offset(), e.getMessage());
        }
        if (block.count() != counts.getInt(i) || block.low() != lows.getLong(i) || block.high() != highs.getLong(i)) {
            throw new CorruptFileException(file.path(), at.offset(), "block of " + block.count() + " rows with keys ["
                    + block.low() + ", " + block.high() + "] where " + counts.getInt(i) + " rows with keys ["
                    + lows.getLong(i) + ", " + highs.getLong(i) + "] were written");
        }
        for (int r = 1; r < block.count(); r++) {
            final int c = Long.compare(block.key(r - 1), block.key(r));
            if (c > 0 || c == 0 && block.rowId(r - 1) >= block.rowId(r)) {
                throw new CorruptFileException(file.path(), at.offset(), "block rows out of order at row " + r);
            }
        }
        return block;
    }

    /** The index of the block at {@code offset} (offsets ascend), or -1. */
    private int indexOf(final long offset) {
        int a = 0;
        int b = offsets.size() - 1;
        while (a <= b) {
            final int mid = (a + b) >>> 1;
            final long at = offsets.getLong(mid);
            if (at < offset) {
                a = mid + 1;
            } else if (at > offset) {
                b = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** The blocks in key order, read one at a time, verified. */
    BlockMerger.BlockSource reader() {
        final int[] next = {0};
        return () -> {
            if (next[0] == offsets.size()) {
                return null;
            }
            final int i = next[0]++;
            final BucketLocation at = new BucketLocation(offsets.getLong(i), lengths.getInt(i));
            return decode(at, file.read(at.offset(), at.length()));
        };
    }

    RecordFile file() {
        return file;
    }

    Path path() {
        return file.path();
    }

    long rows() {
        return rows;
    }

    /** Bytes of records written. */
    long bytes() {
        return bytes;
    }

    void force() throws IOException {
        file.force();
    }

    /** Closes the file's channel (the file stays; see {@link BaselineProjection#delete}). */
    @Override
    public void close() throws IOException {
        file.close();
    }
}
