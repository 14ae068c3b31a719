package io.nearsort.labtree.storage;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Layout of page 0, the file header (little-endian); the rest of page 0 is zero.
 *
 * <pre>
 * version 2: [0] long magic "NSLABTRE"  [8] int version  [12] int pageSize  [16] long pageCount
 *            [24] long generation  [32] int CRC32C of bytes 0..31
 * version 1: [0] long magic  [8] int version  [12] int pageSize  [16] long pageCount  [24] int CRC32C of bytes 0..23
 * </pre>
 *
 * The header describes the last committed state: {@code pageCount} data pages and the number of commits
 * ({@code generation}) that produced it. Version 2 commits through the journal ({@link JournalDescriptor}); the
 * header is rewritten only when a commit is checkpointed into the file, so it never names a page that a commit has
 * not made durable. Version 1 files (no generation, written in place) are read as generation 0 and rewritten as
 * version 2 at their first commit.
 */
final class FileHeaderDescriptor {
    /** "NSLABTRE" in ASCII. */
    static final long MAGIC = 0x4E534C4142545245L;
    static final int VERSION = 2;
    /** The oldest version this build reads. */
    static final int VERSION_1 = 1;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int PAGE_SIZE_OFFSET = 12;
    static final int PAGE_COUNT_OFFSET = 16;
    static final int GENERATION_OFFSET = 24;
    /** Bytes a reader needs to see every field of any version. */
    static final int LENGTH = 36;

    private FileHeaderDescriptor() {
    }

    /** Where {@code version}'s checksum lies; it covers the bytes before it. */
    static int checksumOffset(final int version) {
        return version == VERSION_1 ? 24 : 32;
    }

    /** Fills {@code b} (a zeroed page or at least {@link #LENGTH} bytes) with a current-version header. */
    static void encode(final ByteBuffer b, final int pageSize, final long pageCount, final long generation) {
        b.putLong(MAGIC_OFFSET, MAGIC);
        b.putInt(VERSION_OFFSET, VERSION);
        b.putInt(PAGE_SIZE_OFFSET, pageSize);
        b.putLong(PAGE_COUNT_OFFSET, pageCount);
        b.putLong(GENERATION_OFFSET, generation);
        b.putInt(checksumOffset(VERSION), checksum(b, checksumOffset(VERSION)));
    }

    /** CRC32C of {@code b}'s first {@code length} bytes (absolute; {@code b}'s position is untouched). */
    static int checksum(final ByteBuffer b, final int length) {
        final CRC32C crc = new CRC32C();
        crc.update(b.duplicate().position(0).limit(length));
        return (int) crc.getValue();
    }
}
