package io.nearsort.labtree.storage;


import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FileIo;
import io.nearsort.core.memory.UnsafeAccess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * A file of fixed-size pages (LAB-tree's storage, Remark B.5: own buffer pool over 8 KiB pages, file-system caching
 * off with O_DIRECT). Page 0 is the header ({@link FileHeaderDescriptor}); data pages 1… carry a trailer with their
 * number and a CRC32C ({@link PageTrailerDescriptor}), verified on every read. Direct I/O is used where the file
 * system accepts it; elsewhere the file is opened for buffered I/O and {@link #directIo()} says so. Pages past the
 * end of the written file read as corruption, never as zeros. Confined to one thread.
 *
 * <p>Crash consistency: {@link #sync()} commits atomically through a redo journal next to the file
 * ({@link JournalDescriptor}). Until then no page of the last commit is overwritten in place, so a process killed
 * at any moment leaves a file that opens at its last completed {@code sync()}: {@link #open} replays a committed
 * journal or discards an uncommitted one. A new file appears with its header complete (written aside, then
 * renamed). The journal is deleted by {@link #close()}. Two processes must not open one file at a time.
 *
 * <p>Every file is opened, renamed and deleted through the {@link FileIo} given to {@link #open} (issue 22's
 * I/O-fault seam); only metadata ({@link Files#exists}, {@link Files#size}, the file store) is asked of
 * {@link Files} directly.
 */
public final class PageFile implements AutoCloseable {
    /** Smallest page: a trailer needs room, and O_DIRECT needs 512-byte alignment. */
    public static final int MIN_PAGE_SIZE = 512;
    /** Largest page. */
    public static final int MAX_PAGE_SIZE = 1 << 20;
    private static final System.Logger LOG = System.getLogger(PageFile.class.getName());
    private static final int ALIGNMENT = 4096;

    private final Path path;
    private final int pageSize;
    private final FileIo io;
    private final FileChannel channel;
    private final Journal journal;
    private final boolean directIo;
    private final String directIoNotice;
    private final AlignedBuffer header;
    private final ByteBuffer headerBuffer;
    private long pageCount;
    /** The last commit: its data pages are never written in place until the next commit is durable. */
    private long committedPageCount;
    private long generation;
    /** Pages written or allocated since the last commit. */
    private boolean changed;
    /** Pages written in place since the file was last forced. */
    private boolean unforced;
    /** Why a commit failed, after which the file refuses use (its journal is kept for recovery at reopen). */
    private String failedCommit;
    /** Whether the failed commit had passed its commit point (reopening the file completes it). */
    private boolean failedCommitDurable;
    private boolean closed;

    /** The committed state the header records. */
    private record Header(int pageSize, long pageCount, long generation) {
    }

    private PageFile(final Path path, final int pageSize, final FileIo io, final FileChannel channel,
                     final Journal journal, final boolean directIo, final String directIoNotice,
                     final AlignedBuffer header, final Header committed) {
        this.path = path;
        this.pageSize = pageSize;
        this.io = io;
        this.channel = channel;
        this.journal = journal;
        this.directIo = directIo;
        this.directIoNotice = directIoNotice;
        this.header = header;
        this.headerBuffer = header.page();
        this.pageCount = committed.pageCount;
        this.committedPageCount = committed.pageCount;
        this.generation = committed.generation;
    }

    /**
     * Opens {@code path}, creating it with {@code pageSize}-byte pages if it does not exist. An existing file must
     * have been written with the same page size; if it was not closed, it is recovered to its last commit first.
     *
     * @param path        the file; its journal lives next to it
     * @param pageSize    bytes per page, a power of two from {@value #MIN_PAGE_SIZE} to {@value #MAX_PAGE_SIZE}
     * @param tryDirectIo whether to try O_DIRECT; buffered I/O is used where it is refused or when false
     * @return the open file, at its last commit
     * @throws IllegalArgumentException if {@code pageSize} is out of range or differs from an existing file's
     * @throws CorruptFileException  if an existing file has a bad header or is shorter than its header says
     * @throws IllegalStateException if the JVM lacks {@value UnsafeAccess#REQUIRED_FLAG}, which releasing the
     *                               page buffers needs (checked before the file is touched)
     */
    public static PageFile open(final Path path, final int pageSize, final boolean tryDirectIo) throws IOException {
        return open(path, pageSize, tryDirectIo, FileIo.standard());
    }

    /**
     * Opens {@code path} as {@link #open(Path, int, boolean)} does, reaching the file and its journal through
     * {@code io}.
     *
     * @param path        the file; its journal lives next to it
     * @param pageSize    bytes per page, a power of two from {@value #MIN_PAGE_SIZE} to {@value #MAX_PAGE_SIZE}
     * @param tryDirectIo whether to try O_DIRECT; buffered I/O is used where it is refused or when false
     * @param io          how the file and its journal are opened, renamed and deleted, not null
     * @return the open file, at its last commit
     * @throws IOException              if the file cannot be created, recovered or opened
     * @throws IllegalArgumentException if {@code pageSize} is out of range or differs from an existing file's
     * @throws CorruptFileException     if an existing file has a bad header or is shorter than its header says
     * @throws IllegalStateException    if the JVM lacks {@value UnsafeAccess#REQUIRED_FLAG}, which releasing the
     *                                  page buffers needs (checked before the file is touched)
     */
    public static PageFile open(final Path path, final int pageSize, final boolean tryDirectIo, final FileIo io)
            throws IOException {
        Objects.requireNonNull(io, "io");
        if (pageSize < MIN_PAGE_SIZE || pageSize > MAX_PAGE_SIZE || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("pageSize must be a power of two in [" + MIN_PAGE_SIZE + ", "
                    + MAX_PAGE_SIZE + "] (got: " + pageSize + ")");
        }
        UnsafeAccess.requireAvailable();
        final AlignedBuffer header = allocatePageBuffer(pageSize);
        FileChannel channel = null;
        try {
            if (!Files.exists(path)) {
                io.deleteIfExists(Journal.pathOf(path)); // a journal without its file belongs to nothing
                create(io, path, header.page());
            }
            final Header committed = recover(io, path, pageSize, header.page());
            final OpenOption[] options = {StandardOpenOption.READ, StandardOpenOption.WRITE};
            String notice = null;
            if (tryDirectIo) {
                try {
                    final OpenOption[] direct = java.util.Arrays.copyOf(options, options.length + 1);
                    direct[options.length] = directOption();
                    channel = io.open(path, direct);
                    final long blockSize = Files.getFileStore(path).getBlockSize();
                    if (pageSize % blockSize != 0 || ALIGNMENT % blockSize != 0) {
                        channel.close();
                        channel = null;
                        notice = "page size " + pageSize + " is not a multiple of the block size " + blockSize;
                    }
                } catch (final UnsupportedOperationException | IOException | ReflectiveOperationException e) {
                    notice = e.toString();
                }
                if (channel == null) {
                    LOG.log(System.Logger.Level.INFO, "{0}: direct I/O unavailable ({1}); using buffered I/O",
                            path, notice);
                }
            } else {
                notice = "not requested";
            }
            final boolean direct = channel != null;
            if (channel == null) {
                channel = io.open(path, options);
            }
            return new PageFile(path, pageSize, io, channel, Journal.create(io, path, pageSize), direct,
                    direct ? null : notice, header, committed);
        } catch (final IOException | RuntimeException | Error e) {
            final ReleaseChain release = new ReleaseChain().run(header::free);
            if (channel != null) {
                release.run(channel::close);
            }
            try {
                release.rethrow();
            } catch (final IOException | RuntimeException | Error suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * A new file is written aside and renamed, so that a process killed while creating it leaves either no file or
     * an empty one with a complete header.
     */
    private static void create(final FileIo io, final Path path, final ByteBuffer page) throws IOException {
        final Path aside = path.resolveSibling(path.getFileName() + ".new");
        for (int i = 0; i < page.capacity(); i += Long.BYTES) {
            page.putLong(i, 0);
        }
        FileHeaderDescriptor.encode(page, page.capacity(), 0, 0);
        try {
            try (FileChannel channel = io.open(aside, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                writeFully(channel, page, 0, page.capacity());
                channel.force(true);
            }
            io.move(aside, path, StandardCopyOption.ATOMIC_MOVE);
            io.forceDirectory(path.toAbsolutePath().getParent()); // the rename survives the power too
        } catch (final IOException | RuntimeException e) {
            try {
                io.deleteIfExists(aside); // no half-written file left behind; the next open creates it afresh
            } catch (final IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Reads the header through a plain channel (direct I/O cannot read a header whose page size is not known yet),
     * replaying or discarding a journal left by a process that did not close the file ({@link JournalDescriptor}),
     * and cuts off pages past the commit that such a process wrote.
     */
    private static Header recover(final FileIo io, final Path path, final int pageSize, final ByteBuffer scratch)
            throws IOException {
        try (FileChannel channel = io.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            Header header = null;
            CorruptFileException unreadable = null;
            try {
                header = readHeader(path, channel, pageSize, scratch);
            } catch (final CorruptFileException e) {
                unreadable = e; // a commit in the journal may rewrite it
            }
            final boolean crashed = Journal.recover(io, path, channel, header == null ? -1 : header.generation(),
                    pageSize, scratch);
            if (crashed) {
                header = readHeader(path, channel, pageSize, scratch);
                final long committedLength = (header.pageCount() + 1) * pageSize;
                if (channel.size() > committedLength) {
                    channel.truncate(committedLength);
                }
            } else if (unreadable != null) {
                throw unreadable;
            }
            return header;
        }
    }

    /**
     * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}, looked up by name: it lives in {@code jdk.unsupported}, and
     * a compile-time reference draws a proprietary-API warning from newer compilers that no annotation suppresses.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static OpenOption directOption() throws ReflectiveOperationException {
        final Class<? extends Enum> type = (Class<? extends Enum>) Class.forName("com.sun.nio.file.ExtendedOpenOption");
        return (OpenOption) Enum.valueOf(type, "DIRECT");
    }

    static AlignedBuffer allocatePageBuffer(final int pageSize) {
        return new AlignedBuffer(pageSize, ALIGNMENT);
    }

    /**
     * The file's location.
     *
     * @return the path the file was opened at
     */
    public Path path() {
        return path;
    }

    /**
     * The size of every page, the header included.
     *
     * @return bytes per page, a power of two from {@value #MIN_PAGE_SIZE} to {@value #MAX_PAGE_SIZE}
     */
    public int pageSize() {
        return pageSize;
    }

    /**
     * Whether pages bypass the operating system's cache.
     *
     * @return true when the file is open with O_DIRECT, false for buffered I/O
     */
    public boolean directIo() {
        return directIo;
    }

    /**
     * Why direct I/O is not used, or null when it is.
     *
     * @return the reason ({@code "not requested"}, or what refused it), or null with direct I/O
     */
    public String directIoNotice() {
        return directIoNotice;
    }

    /**
     * Data pages allocated so far (numbered 1 … pageCount).
     *
     * @return the number of data pages, 0 for a new file; includes pages not yet committed
     */
    public long pageCount() {
        return pageCount;
    }

    /**
     * Commits made to the file since it was created ({@link #sync()}s that changed it).
     *
     * @return the number of commits, 0 for a new file
     */
    public long generation() {
        return generation;
    }

    /**
     * A new page number at the end of the file; its content exists once written.
     *
     * @return the new page's number, {@link #pageCount()} after the call
     * @throws IllegalStateException if the file is closed or a commit failed
     */
    public long allocate() {
        checkUsable();
        changed = true;
        return ++pageCount;
    }

    /**
     * Makes pages up to {@code page} addressable without writing them (a directly addressable file allocates pages
     * lazily; the ones never written stay holes of a sparse file, and the caller must not read them).
     *
     * @param page the highest page number to make addressable, >= 1; nothing changes if it already is
     * @throws IllegalArgumentException if {@code page} is below 1
     * @throws IllegalStateException    if the file is closed or a commit failed
     */
    public void extendTo(final long page) {
        checkUsable();
        if (page < 1) {
            throw new IllegalArgumentException("page must be >= 1 (got: " + page + ")");
        }
        if (page > pageCount) {
            changed = true;
            pageCount = page;
        }
    }

    /**
     * Reads data page {@code page} into {@code buffer} (the page of a buffer from {@link #allocatePageBuffer}): its
     * image in the journal if it was written there since the last commit, otherwise the file's.
     *
     * @throws CorruptFileException if the page's checksum or number is wrong, or the file ends before it
     */
    void read(final long page, final ByteBuffer buffer) throws IOException {
        checkPage(page);
        final long slot = journal.slotOf(page);
        final Path source = slot == 0 ? path : journal.path();
        final long offset = slot == 0 ? page * pageSize : JournalDescriptor.slotPosition(slot, pageSize);
        if (slot == 0 ? !readFully(channel, buffer, page * pageSize, pageSize) : !journal.read(slot, buffer)) {
            throw CorruptFileException.inPage(source, page, offset, "file ends inside the page (truncated to "
                    + Files.size(source) + " bytes)");
        }
        final int checksumOffset = PageTrailerDescriptor.checksumOffset(pageSize);
        if (FileHeaderDescriptor.checksum(buffer, checksumOffset) != buffer.getInt(checksumOffset)) {
            throw CorruptFileException.inPage(source, page, offset, "checksum mismatch");
        }
        final long stored = buffer.getLong(PageTrailerDescriptor.pageNumberOffset(pageSize));
        if (stored != page) {
            throw CorruptFileException.inPage(source, page, offset, "holds page " + stored);
        }
    }

    /**
     * Writes data page {@code page} from {@code buffer}, filling in its trailer: to the journal if the last commit
     * holds the page, in place otherwise.
     */
    void write(final long page, final ByteBuffer buffer) throws IOException {
        checkPage(page);
        buffer.putLong(PageTrailerDescriptor.pageNumberOffset(pageSize), page);
        final int checksumOffset = PageTrailerDescriptor.checksumOffset(pageSize);
        buffer.putInt(checksumOffset, FileHeaderDescriptor.checksum(buffer, checksumOffset));
        changed = true;
        if (page <= committedPageCount) {
            journal.write(page, buffer);
        } else {
            writeFully(channel, buffer, page * pageSize, pageSize);
            unforced = true;
        }
    }

    private void checkPage(final long page) {
        checkUsable();
        if (page < 1 || page > pageCount) {
            throw new IllegalArgumentException("page must be in [1, " + pageCount + "] (got: " + page + ") in "
                    + path);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(path + " is closed");
        }
    }

    private void checkUsable() {
        checkOpen();
        if (failedCommit != null) {
            throw new IllegalStateException(path + ": a commit failed (" + failedCommit + "); close the file and "
                    + "reopen it, which recovers it to its last complete commit");
        }
    }

    /**
     * Validates the header and returns the committed state it records.
     */
    private static Header readHeader(final Path path, final FileChannel channel, final int pageSize,
                                     final ByteBuffer b) throws IOException {
        if (!readFully(channel, b, 0, FileHeaderDescriptor.LENGTH)) {
            throw CorruptFileException.inPage(path, -1, 0, "file is " + channel.size()
                    + " bytes, shorter than its header");
        }
        if (b.getLong(FileHeaderDescriptor.MAGIC_OFFSET) != FileHeaderDescriptor.MAGIC) {
            throw CorruptFileException.inPage(path, -1, 0, "not a nearsort LAB-tree file (bad magic)");
        }
        final int version = b.getInt(FileHeaderDescriptor.VERSION_OFFSET);
        if (version != FileHeaderDescriptor.VERSION && version != FileHeaderDescriptor.VERSION_1) {
            throw CorruptFileException.inPage(path, -1, 0, "format version " + version + ", this build reads "
                    + FileHeaderDescriptor.VERSION_1 + " and " + FileHeaderDescriptor.VERSION);
        }
        final int checksumOffset = FileHeaderDescriptor.checksumOffset(version);
        if (FileHeaderDescriptor.checksum(b, checksumOffset) != b.getInt(checksumOffset)) {
            throw CorruptFileException.inPage(path, -1, 0, "header checksum mismatch");
        }
        final int storedPageSize = b.getInt(FileHeaderDescriptor.PAGE_SIZE_OFFSET);
        if (storedPageSize != pageSize) {
            throw new IllegalArgumentException(path + " has " + storedPageSize + "-byte pages; pageSize must "
                    + "match (got: " + pageSize + ")");
        }
        final long pageCount = b.getLong(FileHeaderDescriptor.PAGE_COUNT_OFFSET);
        final long needed = (pageCount + 1) * pageSize;
        if (pageCount < 0 || channel.size() < needed) {
            throw CorruptFileException.inPage(path, -1, 0, "header lists " + pageCount + " pages (" + needed
                    + " bytes) but the file holds " + channel.size() + " bytes (truncated)");
        }
        final long generation = version == FileHeaderDescriptor.VERSION_1 ? 0
                : b.getLong(FileHeaderDescriptor.GENERATION_OFFSET);
        return new Header(storedPageSize, pageCount, generation);
    }

    /**
     * Commits every page written since the last commit and the page count atomically, and forces them to the
     * device ({@link JournalDescriptor}'s protocol). Does nothing when nothing changed. If it fails, the file
     * refuses further use; reopening it recovers the last complete commit (this one, if its commit point passed).
     *
     * @throws IOException           if writing or forcing the journal, the pages or the header fails
     * @throws IllegalStateException if the file is closed or an earlier commit failed
     */
    public void sync() throws IOException {
        checkUsable();
        if (!changed) {
            return;
        }
        final long next = generation + 1;
        boolean durable = false;
        try {
            if (unforced) {
                channel.force(true); // pages past the last commit, written in place: durable before the commit
                unforced = false;
            }
            journal.commit(next, pageCount, headerBuffer);
            durable = true;
            journal.checkpoint(channel, headerBuffer);
            for (int i = 0; i < pageSize; i += Long.BYTES) {
                headerBuffer.putLong(i, 0);
            }
            FileHeaderDescriptor.encode(headerBuffer, pageSize, pageCount, next);
            writeFully(channel, headerBuffer, 0, pageSize);
            channel.force(true);
            journal.reset();
            generation = next;
            committedPageCount = pageCount;
            changed = false;
        } catch (final IOException | RuntimeException e) {
            failedCommit = e.toString();
            failedCommitDurable = durable;
            if (!durable) {
                // The commit record may be complete in the journal though its force failed (the operating system
                // keeps written pages whatever fsync says): drop it, so that reopening cannot apply a commit this
                // call reports as failed.
                try {
                    journal.discard();
                } catch (final IOException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            if (e instanceof CorruptFileException || !(e instanceof IOException failure)) {
                throw e;
            }
            throw new IOException(path + ": commit " + next + (durable
                    ? " passed its commit point (its journal is durable) but did not complete; reopening the file "
                    + "completes it: " : " failed before its commit point; the file stays at commit " + generation
                    + ": ") + failure.getMessage(), failure);
        }
    }

    /**
     * Whether the commit that failed had passed its commit point, so that reopening the file completes it (its
     * changes are durable); false while no commit failed.
     *
     * @return true when reopening the file gives the failed commit's state, false when it gives the one before
     */
    public boolean failedCommitDurable() {
        return failedCommitDurable;
    }

    /**
     * Closes the file without committing (see {@link #sync()}) and frees the header buffer; every step runs even if
     * an earlier one fails. Deletes the journal unless a failed commit left one for recovery.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        new ReleaseChain().run(journal::close).run(channel::close).run(header::free).rethrow();
    }

    /** The unchecked form of an I/O failure, naming the file. */
    UncheckedIOException failure(final String action, final IOException e) {
        if (e instanceof CorruptFileException corrupt) {
            return unchecked(corrupt);
        }
        return new UncheckedIOException(path + ": " + action + " failed: " + e.getMessage(), e);
    }

    /**
     * How the LAB-tree's unchecked API reports corruption: an {@link UncheckedIOException} with the
     * {@link CorruptFileException}'s message, the exception as its cause.
     *
     * @param e the corruption found
     * @return a new exception to throw, with {@code e}'s message and {@code e} as its cause
     */
    public static UncheckedIOException unchecked(final CorruptFileException e) {
        return new UncheckedIOException(e.getMessage(), e);
    }

    /** Reads {@code length} bytes into {@code b} from {@code position}; false if the file ends first. */
    static boolean readFully(final FileChannel channel, final ByteBuffer b, final long position, final int length)
            throws IOException {
        b.clear().limit(length);
        try {
            while (b.hasRemaining()) {
                if (channel.read(b, position + b.position()) < 0) {
                    return false;
                }
            }
            return true;
        } finally {
            b.clear();
        }
    }

    /** Writes {@code b}'s first {@code length} bytes at {@code position}. */
    static void writeFully(final FileChannel channel, final ByteBuffer b, final long position, final int length)
            throws IOException {
        b.clear().limit(length);
        try {
            while (b.hasRemaining()) {
                channel.write(b, position + b.position());
            }
        } finally {
            b.clear();
        }
    }
}
