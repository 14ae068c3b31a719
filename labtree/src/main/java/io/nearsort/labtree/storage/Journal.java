package io.nearsort.labtree.storage;

import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FileIo;
import org.agrona.collections.Long2LongHashMap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The redo journal of a {@link PageFile} ({@link JournalDescriptor} has the layout and the protocol): holds the
 * after-images of committed pages changed since the last commit, commits them atomically and checkpoints them
 * into the file. Confined to the file's thread.
 */
final class Journal implements AutoCloseable {
    private final FileIo io;
    private final Path path;
    private final int pageSize;
    private final FileChannel channel;
    /** page → slot (0: none). */
    private final Long2LongHashMap slots = new Long2LongHashMap(0);
    private long[] pages = new long[16];
    private int[] checksums = new int[16];
    private int slotCount;
    /** A commit record is in the journal and not yet checkpointed: the journal must outlive this process. */
    private boolean pending;

    private Journal(final FileIo io, final Path path, final int pageSize, final FileChannel channel) {
        this.io = io;
        this.path = path;
        this.pageSize = pageSize;
        this.channel = channel;
    }

    static Path pathOf(final Path file) {
        return file.resolveSibling(file.getFileName() + JournalDescriptor.SUFFIX);
    }

    /**
     * An empty journal for {@code file} (recovery has run), opened through {@code io}, its directory entry made
     * durable: a commit forces the journal's content before its commit point, and a power loss must not take the
     * file away with its entry.
     */
    static Journal create(final FileIo io, final Path file, final int pageSize) throws IOException {
        final Path path = pathOf(file);
        final FileChannel channel = io.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
        try {
            io.forceDirectory(path.toAbsolutePath().getParent());
        } catch (final IOException | RuntimeException e) {
            try {
                channel.close();
            } catch (final IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return new Journal(io, path, pageSize, channel);
    }

    Path path() {
        return path;
    }

    /** The slot holding {@code page}'s latest image since the last commit, or 0. */
    long slotOf(final long page) {
        return slots.get(page);
    }

    /** Reads slot {@code slot} into {@code buffer}; false if the journal ends first. */
    boolean read(final long slot, final ByteBuffer buffer) throws IOException {
        return PageFile.readFully(channel, buffer, JournalDescriptor.slotPosition(slot, pageSize), pageSize);
    }

    /** Writes {@code page}'s image (trailer filled in) to its slot, taking a new slot on the page's first write. */
    void write(final long page, final ByteBuffer image) throws IOException {
        long slot = slots.get(page);
        if (slot == 0) {
            slot = ++slotCount;
            if (slot == pages.length) {
                pages = Arrays.copyOf(pages, pages.length * 2);
                checksums = Arrays.copyOf(checksums, checksums.length * 2);
            }
            slots.put(page, slot);
            pages[(int) slot] = page;
        }
        checksums[(int) slot] = image.getInt(PageTrailerDescriptor.checksumOffset(pageSize));
        PageFile.writeFully(channel, image, JournalDescriptor.slotPosition(slot, pageSize), pageSize);
    }

    /**
     * Step 2 of the protocol, the commit point: writes the slot table and the commit record through
     * {@code scratch} (a page buffer) and forces the journal.
     */
    void commit(final long generation, final long pageCount, final ByteBuffer scratch) throws IOException {
        final CRC32C tableCrc = new CRC32C();
        final int perChunk = pageSize / JournalDescriptor.TABLE_ENTRY_LENGTH;
        final long tablePosition = JournalDescriptor.tablePosition(slotCount, pageSize);
        for (int first = 1; first <= slotCount; first += perChunk) {
            final int n = Math.min(perChunk, slotCount - first + 1);
            for (int k = 0; k < n; k++) {
                final int at = k * JournalDescriptor.TABLE_ENTRY_LENGTH;
                scratch.putLong(at + JournalDescriptor.TABLE_PAGE_OFFSET, pages[first + k]);
                scratch.putInt(at + JournalDescriptor.TABLE_CHECKSUM_ENTRY_OFFSET, checksums[first + k]);
            }
            final int length = n * JournalDescriptor.TABLE_ENTRY_LENGTH;
            tableCrc.update(scratch.duplicate().position(0).limit(length));
            PageFile.writeFully(channel, scratch, tablePosition
                    + (long) (first - 1) * JournalDescriptor.TABLE_ENTRY_LENGTH, length);
        }
        scratch.putLong(JournalDescriptor.MAGIC_OFFSET, JournalDescriptor.MAGIC);
        scratch.putInt(JournalDescriptor.VERSION_OFFSET, JournalDescriptor.VERSION);
        scratch.putInt(JournalDescriptor.PAGE_SIZE_OFFSET, pageSize);
        scratch.putLong(JournalDescriptor.GENERATION_OFFSET, generation);
        scratch.putLong(JournalDescriptor.PAGE_COUNT_OFFSET, pageCount);
        scratch.putLong(JournalDescriptor.SLOT_COUNT_OFFSET, slotCount);
        scratch.putInt(JournalDescriptor.TABLE_CHECKSUM_OFFSET, (int) tableCrc.getValue());
        scratch.putInt(JournalDescriptor.CHECKSUM_OFFSET,
                FileHeaderDescriptor.checksum(scratch, JournalDescriptor.CHECKSUM_OFFSET));
        pending = true;
        PageFile.writeFully(channel, scratch, 0, JournalDescriptor.RECORD_LENGTH);
        channel.force(true);
    }

    /**
     * Step 3's copies: every slot to its page of {@code file}, through {@code scratch} (a page buffer the file's
     * channel accepts), each image checked against the table.
     *
     * @throws CorruptFileException naming the journal if a slot no longer holds what was written to it
     */
    void checkpoint(final FileChannel file, final ByteBuffer scratch) throws IOException {
        for (int s = 1; s <= slotCount; s++) {
            if (!readSlot(channel, s, pages[s], checksums[s], scratch, pageSize)) {
                throw CorruptFileException.inPage(path, pages[s], JournalDescriptor.slotPosition(s, pageSize),
                        "journal slot " + s + " does not hold the image committed for the page");
            }
            PageFile.writeFully(file, scratch, pages[s] * pageSize, pageSize);
        }
    }

    /**
     * After a commit failed before its commit point: empties the journal so that no commit record in it can be
     * replayed, and lets {@link #close()} delete it. The slots are gone, so the file must refuse further use.
     */
    void discard() throws IOException {
        channel.truncate(0);
        pending = false;
    }

    /** Step 4: an empty journal for the next commit. */
    void reset() throws IOException {
        channel.truncate(0);
        slots.clear();
        slotCount = 0;
        pending = false;
    }

    /** Closes the journal and deletes it unless a commit in it still waits for its checkpoint. */
    @Override
    public void close() throws IOException {
        channel.close();
        if (!pending) {
            io.deleteIfExists(path);
        }
    }

    /**
     * Recovery at open: replays the journal of {@code file} into it if it holds a complete commit not older than
     * the file's header ({@code headerGeneration}, -1 when the header is unreadable; {@code filePageSize} from the
     * header, or the caller's when unreadable), then deletes the journal. Reads through {@code scratch}, a page
     * buffer; opens and deletes the journal through {@code io}. A commit that looks incomplete is read a second time
     * before the journal is discarded, so that one corrupted read cannot drop a durable commit.
     *
     * @return whether a journal was found (the file was not closed, so pages past its header's count are
     *         uncommitted)
     */
    static boolean recover(final FileIo io, final Path file, final FileChannel fileChannel, final long headerGeneration,
                           final int filePageSize, final ByteBuffer scratch) throws IOException {
        final Path path = pathOf(file);
        if (!Files.exists(path)) {
            return false;
        }
        try (FileChannel journal = io.open(path, StandardOpenOption.READ)) {
            Recovered commit = readCommit(journal, path, filePageSize, scratch);
            if (commit == null) {
                // Discarding the journal is final: a durable commit that only looked incomplete because a read
                // returned a flipped bit would be lost, and after a partial checkpoint the file left a mixture of two
                // commits. Read it again; a torn commit stays torn, a transient read error does not recur.
                commit = readCommit(journal, path, filePageSize, scratch);
            }
            if (commit != null && commit.generation >= headerGeneration) {
                for (int s = 1; s <= commit.slotCount; s++) {
                    if (!readSlot(journal, s, commit.pages[s], commit.checksums[s], scratch, filePageSize)) {
                        throw CorruptFileException.inPage(path, commit.pages[s],
                                JournalDescriptor.slotPosition(s, filePageSize), "journal slot " + s
                                + " changed during recovery");
                    }
                    PageFile.writeFully(fileChannel, scratch, commit.pages[s] * filePageSize, filePageSize);
                }
                for (int i = 0; i < filePageSize; i += Long.BYTES) {
                    scratch.putLong(i, 0);
                }
                FileHeaderDescriptor.encode(scratch, filePageSize, commit.pageCount, commit.generation);
                PageFile.writeFully(fileChannel, scratch, 0, filePageSize);
                fileChannel.force(true);
            }
        }
        io.deleteIfExists(path);
        return true;
    }

    /** A complete commit read back from a journal. */
    private record Recovered(long generation, long pageCount, int slotCount, long[] pages, int[] checksums) {
    }

    /** The journal's commit if it is complete (record, table and every slot intact), otherwise null. */
    private static Recovered readCommit(final FileChannel journal, final Path path, final int filePageSize,
                                        final ByteBuffer scratch) throws IOException {
        if (!PageFile.readFully(journal, scratch, 0, JournalDescriptor.RECORD_LENGTH)
                || scratch.getLong(JournalDescriptor.MAGIC_OFFSET) != JournalDescriptor.MAGIC
                || scratch.getInt(JournalDescriptor.CHECKSUM_OFFSET)
                != FileHeaderDescriptor.checksum(scratch, JournalDescriptor.CHECKSUM_OFFSET)) {
            return null; // no commit record, or a torn one: the commit did not happen
        }
        final int version = scratch.getInt(JournalDescriptor.VERSION_OFFSET);
        final int pageSize = scratch.getInt(JournalDescriptor.PAGE_SIZE_OFFSET);
        final long slotCount = scratch.getLong(JournalDescriptor.SLOT_COUNT_OFFSET);
        if (version != JournalDescriptor.VERSION || pageSize != filePageSize || slotCount < 0
                || slotCount > Integer.MAX_VALUE / 16) {
            // A checksummed record this build cannot apply to this file: refuse rather than drop a commit.
            throw CorruptFileException.inPage(path, -1, 0, "journal commit record of version " + version + " with "
                    + pageSize + "-byte pages and " + slotCount + " slots; this build replays version "
                    + JournalDescriptor.VERSION + " next to a file of " + filePageSize + "-byte pages");
        }
        final long generation = scratch.getLong(JournalDescriptor.GENERATION_OFFSET);
        final long pageCount = scratch.getLong(JournalDescriptor.PAGE_COUNT_OFFSET);
        final int tableChecksum = scratch.getInt(JournalDescriptor.TABLE_CHECKSUM_OFFSET);
        final long tablePosition = JournalDescriptor.tablePosition(slotCount, pageSize);
        // A commit without slots (every page it changed was new, so written in place: a new file's first commit)
        // is the record alone; otherwise the journal ends at its table.
        final long committedLength = slotCount == 0 ? JournalDescriptor.RECORD_LENGTH
                : tablePosition + slotCount * JournalDescriptor.TABLE_ENTRY_LENGTH;
        if (journal.size() < committedLength) {
            return null; // a length from the record is trusted only once the journal holds it
        }
        final int n = (int) slotCount;
        final long[] pages = new long[n + 1];
        final int[] checksums = new int[n + 1];
        final CRC32C crc = new CRC32C();
        final int perChunk = pageSize / JournalDescriptor.TABLE_ENTRY_LENGTH;
        for (int first = 1; first <= n; first += perChunk) {
            final int count = Math.min(perChunk, n - first + 1);
            final int length = count * JournalDescriptor.TABLE_ENTRY_LENGTH;
            if (!PageFile.readFully(journal, scratch, tablePosition + (long) (first - 1)
                    * JournalDescriptor.TABLE_ENTRY_LENGTH, length)) {
                return null;
            }
            crc.update(scratch.duplicate().position(0).limit(length));
            for (int k = 0; k < count; k++) {
                final int at = k * JournalDescriptor.TABLE_ENTRY_LENGTH;
                pages[first + k] = scratch.getLong(at + JournalDescriptor.TABLE_PAGE_OFFSET);
                checksums[first + k] = scratch.getInt(at + JournalDescriptor.TABLE_CHECKSUM_ENTRY_OFFSET);
            }
        }
        if ((int) crc.getValue() != tableChecksum) {
            return null;
        }
        for (int s = 1; s <= n; s++) {
            if (pages[s] < 1 || !readSlot(journal, s, pages[s], checksums[s], scratch, pageSize)) {
                return null; // a slot the commit's force did not make durable
            }
        }
        return new Recovered(generation, pageCount, n, pages, checksums);
    }

    /** Reads slot {@code slot} into {@code image}; whether it is intact and holds {@code page} with {@code crc}. */
    private static boolean readSlot(final FileChannel journal, final long slot, final long page, final int crc,
                                    final ByteBuffer image, final int pageSize) throws IOException {
        if (!PageFile.readFully(journal, image, JournalDescriptor.slotPosition(slot, pageSize), pageSize)) {
            return false;
        }
        final int checksumOffset = PageTrailerDescriptor.checksumOffset(pageSize);
        return image.getInt(checksumOffset) == crc
                && FileHeaderDescriptor.checksum(image, checksumOffset) == crc
                && image.getLong(PageTrailerDescriptor.pageNumberOffset(pageSize)) == page;
    }
}
