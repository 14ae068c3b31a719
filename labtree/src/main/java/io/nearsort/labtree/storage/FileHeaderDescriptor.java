package io.nearsort.labtree.storage;

/**
 * Layout of page 0, the file header: magic, format version, page size and the number of data pages, followed by a
 * CRC32C of those fields. The rest of page 0 is zero.
 */
final class FileHeaderDescriptor {
    /** "NSLABTRE" in ASCII. */
    static final long MAGIC = 0x4E534C4142545245L;
    static final int VERSION = 1;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int PAGE_SIZE_OFFSET = 12;
    static final int PAGE_COUNT_OFFSET = 16;
    static final int CHECKSUM_OFFSET = 24;
    /** Bytes covered by the checksum. */
    static final int CHECKED_LENGTH = CHECKSUM_OFFSET;

    private FileHeaderDescriptor() {
    }
}
