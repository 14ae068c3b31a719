package io.nearsort.ldi.commit;

import io.nearsort.ldi.io.BucketPointer;
import io.nearsort.ldi.io.BucketLocation;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One bucket of a projection as the manifest and the bucket directory know it: where its record is (a
 * {@link BucketPointer}: segment and offset, and its payload length), its key span, its rows, its largest row id
 * and whether it is compacted (§3.3). Encoded as a fixed {@value #BYTES}-byte little-endian record:
 * {@code [pointer:8][length:4][low:8][high:8][count:4][maxRowId:8][compacted:1]}.
 *
 * @param pointer   the {@link BucketPointer} of the bucket's record: its segment number and byte offset
 * @param length    the record's payload length, in bytes
 * @param low       the smallest key of the bucket's rows
 * @param high      the largest key of the bucket's rows (inclusive)
 * @param count     the number of rows in the bucket
 * @param maxRowId  the largest row id among the bucket's rows
 * @param compacted whether the bucket is compacted (§3.3): written from one leaf interval, or sorted
 */
public record BucketEntry(long pointer, int length, long low, long high, int count, long maxRowId,
                          boolean compacted) {
    /** Bytes of an encoded entry. */
    public static final int BYTES = 8 + 4 + 8 + 8 + 4 + 8 + 1;

    /**
     * The segment the record is in.
     *
     * @return the segment number of {@link #pointer()}
     */
    public int segment() {
        return BucketPointer.segment(pointer);
    }

    /**
     * Where the record is in its segment file.
     *
     * @return the record's offset in its segment and its payload length
     */
    public BucketLocation location() {
        return new BucketLocation(BucketPointer.offset(pointer), length);
    }

    /**
     * The same bucket stored at another place (space reclamation copied it).
     *
     * @param newPointer the {@link BucketPointer} of the copy
     * @return an entry equal to this one but for its pointer
     */
    public BucketEntry movedTo(final long newPointer) {
        return new BucketEntry(newPointer, length, low, high, count, maxRowId, compacted);
    }

    /**
     * Writes the entry at {@code b}'s position.
     *
     * @param b a little-endian buffer with at least {@value #BYTES} bytes remaining; its position moves past the entry
     */
    public void encode(final ByteBuffer b) {
        b.putLong(pointer).putInt(length).putLong(low).putLong(high).putInt(count).putLong(maxRowId)
                .put((byte) (compacted ? 1 : 0));
    }

    /**
     * The entry alone, encoded.
     *
     * @return a new little-endian buffer of {@value #BYTES} bytes, flipped for reading
     */
    public ByteBuffer encode() {
        final ByteBuffer b = ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN);
        encode(b);
        return b.flip();
    }

    /**
     * Reads an entry at {@code b}'s position (little-endian), advancing it.
     *
     * @param b a little-endian buffer with at least {@value #BYTES} bytes remaining
     * @return the decoded entry
     */
    public static BucketEntry decode(final ByteBuffer b) {
        return new BucketEntry(b.getLong(), b.getInt(), b.getLong(), b.getLong(), b.getInt(), b.getLong(),
                b.get() == 1);
    }
}
