package io.nearsort.ldi.io;

/**
 * Where a bucket's record lies in its projection file.
 *
 * @param offset the record's first byte (its header)
 * @param length the record's payload bytes
 */
public record BucketLocation(long offset, int length) {
    /** Bytes the record occupies, header included. */
    public long recordBytes() {
        return RecordFile.RECORD_HEADER + (long) length;
    }

    /** The first byte after the record. */
    public long end() {
        return offset + recordBytes();
    }
}
