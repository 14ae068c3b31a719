package io.nearsort.ldi.io;

import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FileIo;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * An append-only file of checksummed records behind a header: magic, format version and a caller-given identity
 * string (the column store puts the projection's schema there, so a file is never read with the wrong one).
 * Each record is {@code [length:int][crc32c:int][payload]}; {@link #read} verifies the checksum, so corruption is
 * reported as a {@link CorruptFileException} naming the file and offset, never returned as data.
 * Appends are buffered by the OS until {@link #force}.
 */
public final class RecordFile implements AutoCloseable {
    /** Bytes before a record's payload. */
    public static final int RECORD_HEADER = 8;
    private static final int MAGIC = 0x4C44494E; // "LDIN"
    private static final int VERSION = 1;

    private final Path path;
    private final FileChannel channel;
    private final long dataStart;
    private volatile long end;

    private RecordFile(final Path path, final FileChannel channel, final long dataStart, final long end) {
        this.path = path;
        this.channel = channel;
        this.dataStart = dataStart;
        this.end = end;
    }

    /**
     * Opens {@code path}, creating it with {@code identity} if it does not exist; checks an existing header.
     *
     * @param path     the file to open or create
     * @param identity the identity string of the header (the column store puts the projection's schema there); an
     *                 existing file must hold exactly this one
     * @return the open file, appending after its last byte
     * @throws IOException when the file cannot be opened, read or written; a {@link CorruptFileException} when an
     *         existing header has a wrong magic, version, length or checksum
     * @throws IllegalArgumentException when an existing file was written for another identity
     */
    public static RecordFile open(final Path path, final String identity) throws IOException {
        return open(FileIo.standard(), path, identity);
    }

    /**
     * Opens {@code path} through {@code io}, creating it with {@code identity} if it does not exist; checks an
     * existing header.
     *
     * @param io       how the file is opened (its channel does every later read, write and force)
     * @param path     the file to open or create
     * @param identity the identity string of the header; an existing file must hold exactly this one
     * @return the open file, appending after its last byte
     * @throws IOException when the file cannot be opened, read or written; a {@link CorruptFileException} when an
     *         existing header has a wrong magic, version, length or checksum
     * @throws IllegalArgumentException when an existing file was written for another identity
     */
    public static RecordFile open(final FileIo io, final Path path, final String identity) throws IOException {
        final boolean exists = Files.exists(path);
        final FileChannel ch = io.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            final byte[] id = identity.getBytes(StandardCharsets.UTF_8);
            final int headerLength = 16 + id.length;
            if (!exists || ch.size() == 0) {
                final ByteBuffer h = ByteBuffer.allocate(headerLength).order(ByteOrder.LITTLE_ENDIAN);
                h.putInt(MAGIC).putInt(VERSION).putInt(id.length).put(id);
                final CRC32C crc = new CRC32C();
                crc.update(id);
                h.putInt((int) crc.getValue()).flip();
                writeFully(ch, h, 0);
                ch.force(true);
                return new RecordFile(path, ch, headerLength, headerLength);
            }
            final ByteBuffer h = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
            readFully(ch, h, 0, path);
            if (h.getInt(0) != MAGIC) {
                throw new CorruptFileException(path, 0, "not a column store file (bad magic)");
            }
            if (h.getInt(4) != VERSION) {
                throw new CorruptFileException(path, 4, "format version " + h.getInt(4) + ", expected " + VERSION);
            }
            final int storedLength = h.getInt(8);
            if (storedLength < 0 || storedLength > ch.size() - 16) {
                throw new CorruptFileException(path, 8, "header length " + storedLength + " out of range");
            }
            final ByteBuffer stored = ByteBuffer.allocate(storedLength + 4).order(ByteOrder.LITTLE_ENDIAN);
            readFully(ch, stored, 12, path);
            final byte[] storedId = new byte[storedLength];
            stored.get(0, storedId);
            final CRC32C crc = new CRC32C();
            crc.update(storedId);
            if ((int) crc.getValue() != stored.getInt(storedLength)) {
                throw new CorruptFileException(path, 12, "header checksum mismatch");
            }
            final String storedIdentity = new String(storedId, StandardCharsets.UTF_8);
            if (!storedIdentity.equals(identity)) {
                throw new IllegalArgumentException(path + " was written for " + storedIdentity + ", not " + identity);
            }
            return new RecordFile(path, ch, 16L + storedLength, ch.size());
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Appends a record and returns its offset.
     *
     * @param payload the record's payload, from its position to its limit; its position ends at its limit
     * @return the file offset of the record (its header), to pass to {@link #read}
     * @throws IOException when the write fails
     */
    public long append(final ByteBuffer payload) throws IOException {
        final int length = payload.remaining();
        final CRC32C crc = new CRC32C();
        crc.update(payload.duplicate());
        final ByteBuffer header = ByteBuffer.allocate(RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(length).putInt((int) crc.getValue()).flip();
        final long offset = end;
        writeFully(channel, header, offset);
        writeFully(channel, payload, offset + RECORD_HEADER);
        end = offset + RECORD_HEADER + length;
        return offset;
    }

    /**
     * Reads and verifies the record at {@code offset} whose payload is {@code length} bytes.
     *
     * @param offset the record's file offset, as {@link #append} returned it
     * @param length the record's payload bytes, not negative
     * @return the verified payload, a little-endian buffer
     * @throws IOException when the read fails; a {@link CorruptFileException} when the file ends early or the
     *         record's length or checksum is wrong
     */
    public ByteBuffer read(final long offset, final int length) throws IOException {
        final ByteBuffer buf = ByteBuffer.allocate(RECORD_HEADER + length).order(ByteOrder.LITTLE_ENDIAN);
        readFully(channel, buf, offset, path);
        return verify(buf, 0, offset);
    }

    /**
     * Reads the bytes {@code [offset, offset + length)} in one request (an extent holding several records).
     *
     * @param offset the file offset of the extent's first byte
     * @param length the extent's bytes, not negative
     * @return the bytes, unverified, in a little-endian buffer positioned at 0
     * @throws IOException when the read fails; a {@link CorruptFileException} when the file ends early
     */
    public ByteBuffer readExtent(final long offset, final int length) throws IOException {
        final ByteBuffer buf = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        readFully(channel, buf, offset, path);
        return buf;
    }

    /**
     * Verifies the record starting at {@code at} in {@code extent} (read from file offset {@code fileOffset}).
     *
     * @param extent     bytes read from this file, e.g. by {@link #readExtent}
     * @param at         the index of the record's header in {@code extent}
     * @param fileOffset the record's offset in the file, named in errors
     * @return the payload, a little-endian slice of {@code extent} (sharing its bytes)
     * @throws IOException a {@link CorruptFileException} when the header is cut short, the length runs past the
     *         extent's limit or the checksum is wrong
     */
    public ByteBuffer verify(final ByteBuffer extent, final int at, final long fileOffset) throws IOException {
        if (extent.limit() - at < RECORD_HEADER) {
            throw new CorruptFileException(path, fileOffset, "record header cut short");
        }
        final int length = extent.getInt(at);
        if (length < 0 || at + RECORD_HEADER + length > extent.limit()) {
            throw new CorruptFileException(path, fileOffset, "record length " + length + " out of range");
        }
        final ByteBuffer payload = extent.slice(at + RECORD_HEADER, length).order(ByteOrder.LITTLE_ENDIAN);
        final CRC32C crc = new CRC32C();
        crc.update(payload.duplicate());
        if ((int) crc.getValue() != extent.getInt(at + 4)) {
            throw new CorruptFileException(path, fileOffset, "record checksum mismatch");
        }
        return payload;
    }

    /**
     * Walks every record from the first, verifying each; a torn or corrupt record is reported.
     *
     * @param visitor receives each record's offset and verified payload, in file order
     * @throws IOException when a read fails or the visitor throws; a {@link CorruptFileException} for a torn or
     *         corrupt record
     */
    public void scan(final RecordVisitor visitor) throws IOException {
        long at = dataStart;
        while (at < end) {
            if (end - at < RECORD_HEADER) {
                throw new CorruptFileException(path, at, "truncated record header");
            }
            final ByteBuffer h = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            readFully(channel, h, at, path);
            final int length = h.getInt(0);
            if (length < 0 || at + RECORD_HEADER + length > end) {
                throw new CorruptFileException(path, at, "truncated record (length " + length + ")");
            }
            visitor.record(at, read(at, length));
            at += RECORD_HEADER + length;
        }
    }

    /** Receives each record of a {@link #scan}. */
    @FunctionalInterface
    public interface RecordVisitor {
        /**
         * Receives one record.
         *
         * @param offset  the record's file offset
         * @param payload its verified payload
         * @throws IOException to stop the scan, which rethrows it
         */
        void record(long offset, ByteBuffer payload) throws IOException;
    }

    /**
     * Makes every append durable.
     *
     * @throws IOException when the force fails
     */
    public void force() throws IOException {
        channel.force(false);
    }

    /**
     * Bytes in the file.
     *
     * @return the file's length: the header and every record appended or found at open
     */
    public long size() {
        return end;
    }

    /**
     * The offset of the first record (the header's length).
     *
     * @return the header's length in bytes
     */
    public long dataStart() {
        return dataStart;
    }

    /**
     * Cuts the file to {@code length} bytes (at least the header): what lies beyond was never committed. The cut is
     * forced before this returns.
     *
     * @param length the new length in bytes, from {@link #dataStart()} to the file's current size
     * @throws IOException when the cut or the force fails; a {@link CorruptFileException} when {@code length} is
     *         outside that range
     */
    public void truncate(final long length) throws IOException {
        if (length < dataStart || length > channel.size()) {
            throw new CorruptFileException(path, length, "cannot cut the file (" + channel.size() + " bytes, records"
                    + " from " + dataStart + ") to " + length + " bytes: it is shorter than its committed length");
        }
        channel.truncate(length);
        channel.force(true);
        end = length;
    }

    /**
     * The file.
     *
     * @return the path the file was opened with
     */
    public Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /**
     * Writes all of {@code buf} at {@code offset}.
     *
     * @param ch     the channel to write to
     * @param buf    the bytes from its position to its limit; its position ends at its limit
     * @param offset the file offset of the first byte
     * @throws IOException when a write fails
     */
    public static void writeFully(final FileChannel ch, final ByteBuffer buf, final long offset)
            throws IOException {
        long at = offset;
        while (buf.hasRemaining()) {
            at += ch.write(buf, at);
        }
    }

    /**
     * Fills {@code buf} from {@code offset} and flips it; a file ending early is reported as truncated.
     *
     * @param ch     the channel to read from
     * @param buf    filled from its position to its limit, then flipped
     * @param offset the file offset of the first byte to read
     * @param path   the channel's file, named in errors
     * @throws IOException when a read fails; a {@link CorruptFileException} when the file ends before {@code buf}
     *         is full
     */
    public static void readFully(final FileChannel ch, final ByteBuffer buf, final long offset, final Path path)
            throws IOException {
        long at = offset;
        while (buf.hasRemaining()) {
            final int n = ch.read(buf, at);
            if (n < 0) {
                throw new CorruptFileException(path, at, "file ends early (truncated)");
            }
            at += n;
        }
        buf.flip();
    }
}
