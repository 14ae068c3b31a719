package io.nearsort.labtree.storage;


import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * A file of fixed-size pages (LAB-tree's storage, Remark B.5: own buffer pool over 8 KiB pages, file-system caching
 * off with O_DIRECT). Page 0 is the header ({@link FileHeaderDescriptor}); data pages 1… carry a trailer with their
 * number and a CRC32C ({@link PageTrailerDescriptor}), verified on every read. Direct I/O is used where the file
 * system accepts it; elsewhere the file is opened for buffered I/O and {@link #directIo()} says so. Pages past the
 * end of the written file read as corruption, never as zeros. Confined to one thread.
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
    private final FileChannel channel;
    private final boolean directIo;
    private final String directIoNotice;
    private final AlignedBuffer header;
    private final ByteBuffer headerBuffer;
    private final CRC32C crc = new CRC32C();
    private long pageCount;
    private boolean closed;

    private PageFile(final Path path, final int pageSize, final FileChannel channel, final boolean directIo,
                     final String directIoNotice) {
        this.path = path;
        this.pageSize = pageSize;
        this.channel = channel;
        this.directIo = directIo;
        this.directIoNotice = directIoNotice;
        this.header = allocatePageBuffer(pageSize);
        this.headerBuffer = header.page();
    }

    /**
     * Opens {@code path}, creating it with {@code pageSize}-byte pages if it does not exist. An existing file must
     * have been written with the same page size.
     *
     * @throws CorruptFileException if an existing file has a bad header or is shorter than its header says
     */
    public static PageFile open(final Path path, final int pageSize, final boolean tryDirectIo) throws IOException {
        if (pageSize < MIN_PAGE_SIZE || pageSize > MAX_PAGE_SIZE || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("pageSize must be a power of two in [" + MIN_PAGE_SIZE + ", "
                    + MAX_PAGE_SIZE + "] (got: " + pageSize + ")");
        }
        final boolean exists = Files.exists(path);
        final long pageCount = exists ? readHeader(path, pageSize) : 0;
        final OpenOption[] options = {StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE};
        FileChannel channel = null;
        String notice = null;
        if (tryDirectIo) {
            try {
                final OpenOption[] direct = java.util.Arrays.copyOf(options, options.length + 1);
                direct[options.length] = directOption();
                channel = FileChannel.open(path, direct);
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
                LOG.log(System.Logger.Level.INFO, "{0}: direct I/O unavailable ({1}); using buffered I/O", path,
                        notice);
            }
        } else {
            notice = "not requested";
        }
        final boolean direct = channel != null;
        if (channel == null) {
            channel = FileChannel.open(path, options);
        }
        final PageFile file = new PageFile(path, pageSize, channel, direct, direct ? null : notice);
        file.pageCount = pageCount;
        try {
            if (!exists) {
                file.writeHeader();
            }
        } catch (final IOException | RuntimeException e) {
            file.close();
            throw e;
        }
        return file;
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

    public Path path() {
        return path;
    }

    public int pageSize() {
        return pageSize;
    }

    /** Whether pages bypass the operating system's cache. */
    public boolean directIo() {
        return directIo;
    }

    /** Why direct I/O is not used, or null when it is. */
    public String directIoNotice() {
        return directIoNotice;
    }

    /** Data pages allocated so far (numbered 1 … pageCount). */
    public long pageCount() {
        return pageCount;
    }

    /** A new page number at the end of the file; its content exists once written. */
    public long allocate() {
        checkOpen();
        return ++pageCount;
    }

    /**
     * Makes pages up to {@code page} addressable without writing them (a directly addressable file allocates pages
     * lazily; the ones never written stay holes of a sparse file, and the caller must not read them).
     */
    public void extendTo(final long page) {
        checkOpen();
        if (page < 1) {
            throw new IllegalArgumentException("page must be >= 1 (got: " + page + ")");
        }
        pageCount = Math.max(pageCount, page);
    }

    /**
     * Reads data page {@code page} into {@code buffer} (the page of a buffer from {@link #allocatePageBuffer}).
     *
     * @throws CorruptFileException if the page's checksum or number is wrong, or the file ends before it
     */
    void read(final long page, final ByteBuffer buffer) throws IOException {
        checkPage(page);
        buffer.clear();
        final long position = page * pageSize;
        int read = 0;
        while (read < pageSize) {
            final int n = channel.read(buffer, position + read);
            if (n < 0) {
                throw new CorruptFileException(path, page, "file ends inside the page (truncated to "
                        + channel.size() + " bytes)");
            }
            read += n;
        }
        final int checksumOffset = PageTrailerDescriptor.checksumOffset(pageSize);
        if (checksum(buffer, checksumOffset) != buffer.getInt(checksumOffset)) {
            throw new CorruptFileException(path, page, "checksum mismatch");
        }
        final long stored = buffer.getLong(PageTrailerDescriptor.pageNumberOffset(pageSize));
        if (stored != page) {
            throw new CorruptFileException(path, page, "holds page " + stored);
        }
        buffer.clear();
    }

    /** Writes data page {@code page} from {@code buffer}, filling in its trailer. */
    void write(final long page, final ByteBuffer buffer) throws IOException {
        checkPage(page);
        buffer.putLong(PageTrailerDescriptor.pageNumberOffset(pageSize), page);
        final int checksumOffset = PageTrailerDescriptor.checksumOffset(pageSize);
        buffer.putInt(checksumOffset, checksum(buffer, checksumOffset));
        writeFully(buffer, page * pageSize);
    }

    private void writeFully(final ByteBuffer buffer, final long position) throws IOException {
        buffer.clear();
        int written = 0;
        while (written < pageSize) {
            written += channel.write(buffer, position + written);
        }
        buffer.clear();
    }

    private int checksum(final ByteBuffer buffer, final int length) {
        crc.reset();
        crc.update(buffer.duplicate().position(0).limit(length));
        return (int) crc.getValue();
    }

    private void checkPage(final long page) {
        checkOpen();
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

    private void writeHeader() throws IOException {
        final ByteBuffer b = headerBuffer;
        for (int i = 0; i < pageSize; i += Long.BYTES) {
            b.putLong(i, 0);
        }
        b.putLong(FileHeaderDescriptor.MAGIC_OFFSET, FileHeaderDescriptor.MAGIC);
        b.putInt(FileHeaderDescriptor.VERSION_OFFSET, FileHeaderDescriptor.VERSION);
        b.putInt(FileHeaderDescriptor.PAGE_SIZE_OFFSET, pageSize);
        b.putLong(FileHeaderDescriptor.PAGE_COUNT_OFFSET, pageCount);
        b.putInt(FileHeaderDescriptor.CHECKSUM_OFFSET, checksum(b, FileHeaderDescriptor.CHECKED_LENGTH));
        writeFully(b, 0);
    }

    /**
     * Validates the header of an existing file through a plain channel (direct I/O cannot read a header whose page
     * size is not known yet) and returns its page count.
     */
    private static long readHeader(final Path path, final int pageSize) throws IOException {
        final ByteBuffer b = ByteBuffer.allocate(FileHeaderDescriptor.CHECKSUM_OFFSET + Integer.BYTES)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            while (b.hasRemaining()) {
                if (channel.read(b, b.position()) < 0) {
                    throw new CorruptFileException(path, -1, "file is " + channel.size() + " bytes, shorter than "
                            + "its header");
                }
            }
            if (b.getLong(FileHeaderDescriptor.MAGIC_OFFSET) != FileHeaderDescriptor.MAGIC) {
                throw new CorruptFileException(path, -1, "not a nearsort LAB-tree file (bad magic)");
            }
            final CRC32C crc = new CRC32C();
            crc.update(b.array(), 0, FileHeaderDescriptor.CHECKED_LENGTH);
            if ((int) crc.getValue() != b.getInt(FileHeaderDescriptor.CHECKSUM_OFFSET)) {
                throw new CorruptFileException(path, -1, "header checksum mismatch");
            }
            final int version = b.getInt(FileHeaderDescriptor.VERSION_OFFSET);
            if (version != FileHeaderDescriptor.VERSION) {
                throw new CorruptFileException(path, -1, "format version " + version + ", this build reads "
                        + FileHeaderDescriptor.VERSION);
            }
            final int storedPageSize = b.getInt(FileHeaderDescriptor.PAGE_SIZE_OFFSET);
            if (storedPageSize != pageSize) {
                throw new IllegalArgumentException(path + " has " + storedPageSize + "-byte pages; pageSize must "
                        + "match (got: " + pageSize + ")");
            }
            final long pageCount = b.getLong(FileHeaderDescriptor.PAGE_COUNT_OFFSET);
            final long needed = (pageCount + 1) * pageSize;
            if (pageCount < 0 || channel.size() < needed) {
                throw new CorruptFileException(path, -1, "header lists " + pageCount + " pages (" + needed
                        + " bytes) but the file holds " + channel.size() + " bytes (truncated)");
            }
            return pageCount;
        }
    }

    /** Writes the header and forces everything to the device. */
    public void sync() throws IOException {
        checkOpen();
        writeHeader();
        channel.force(true);
    }

    /** Closes the file without writing the header (see {@link #sync()}); frees the header buffer. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            channel.close();
        } finally {
            header.free();
        }
    }

    /** The unchecked form of an I/O failure, naming the file. */
    UncheckedIOException failure(final String action, final IOException e) {
        return new UncheckedIOException(path + ": " + action + " failed: " + e.getMessage(), e);
    }
}
