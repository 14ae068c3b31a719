package io.nearsort.ldi.io;

/**
 * Where a bucket's record lies in its projection file.
 *
 * @param offset the record's first byte (its header)
 * @param length the record's payload bytes
 */
public record BucketLocation(long offset, int length) {
    /**
     * Bytes the record occupies, header included.
     *
     * @return {@link RecordFile#RECORD_HEADER} plus {@code length}
     */
    public long recordBytes() {
        return RecordFile.RECORD_HEADER + (long) length;
    }

    /**
     * The first byte after the record.
     *
     * @return the file offset just past the record, {@code offset + recordBytes()}
     */
    public long end() {
        return offset + recordBytes();
    }
}
