package io.nearsort.ldi.io;

/**
 * The paper's {@code BucketPointer} (§4.1, footnote 1: "composed of fileID and offset") packed into one {@code long},
 * the value the IB-tree stores: the segment file's number in the high {@value #SEGMENT_BITS} bits, the record's
 * byte offset in that file in the low {@value #OFFSET_BITS} bits. Offsets are bounded by the segment size
 * ({@link Segments#MAX_SEGMENT_BYTES}), segment numbers by {@link #MAX_SEGMENT}.
 */
public final class BucketPointer {
    /** Bits of the byte offset. */
    public static final int OFFSET_BITS = 40;
    /** Bits of the segment number. */
    public static final int SEGMENT_BITS = 63 - OFFSET_BITS;
    /** The largest segment number. */
    public static final int MAX_SEGMENT = (1 << SEGMENT_BITS) - 1;
    private static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;

    private BucketPointer() {
    }

    /**
     * The pointer to the record at {@code offset} of segment {@code segment}.
     *
     * @param segment the segment file's number, 0 to {@link #MAX_SEGMENT}
     * @param offset  the record's byte offset in the segment, 0 to 2^{@value #OFFSET_BITS} − 1
     * @return the packed pointer, never negative
     * @throws IllegalArgumentException when {@code segment} or {@code offset} is out of range
     */
    public static long of(final int segment, final long offset) {
        if (segment < 0 || segment > MAX_SEGMENT) {
            throw new IllegalArgumentException("segment number must be in [0, " + MAX_SEGMENT + "] (got: " + segment
                    + ")");
        }
        if (offset < 0 || offset > OFFSET_MASK) {
            throw new IllegalArgumentException("offset must be in [0, 2^" + OFFSET_BITS + ") (got: " + offset + ")");
        }
        return ((long) segment << OFFSET_BITS) | offset;
    }

    /**
     * The segment number of {@code pointer}.
     *
     * @param pointer a pointer made by {@link #of}
     * @return its segment number, 0 to {@link #MAX_SEGMENT}
     */
    public static int segment(final long pointer) {
        return (int) (pointer >>> OFFSET_BITS);
    }

    /**
     * The byte offset of {@code pointer} in its segment.
     *
     * @param pointer a pointer made by {@link #of}
     * @return its byte offset, 0 to 2^{@value #OFFSET_BITS} − 1
     */
    public static long offset(final long pointer) {
        return pointer & OFFSET_MASK;
    }

    /**
     * {@code segment:offset}, for messages.
     *
     * @param pointer a pointer made by {@link #of}
     * @return its segment number and byte offset joined by a colon, e.g. {@code 3:4096}
     */
    public static String toString(final long pointer) {
        return segment(pointer) + ":" + offset(pointer);
    }
}
