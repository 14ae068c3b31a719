package io.nearsort.ldi.projection;

import io.nearsort.ldi.io.BucketLocation;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One bucket in a projection's directory: where its record is, its key span, its rows, its largest row id and
 * whether it is compacted (§3.3). Encoded as a fixed {@value #BYTES}-byte directory record.
 */
record BucketEntry(long offset, int length, long low, long high, int count, long maxRowId, boolean compacted) {
    static final int BYTES = 8 + 4 + 8 + 8 + 4 + 8 + 1;

    BucketLocation location() {
        return new BucketLocation(offset, length);
    }

    ByteBuffer encode() {
        final ByteBuffer b = ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(offset).putInt(length).putLong(low).putLong(high).putInt(count).putLong(maxRowId)
                .put((byte) (compacted ? 1 : 0));
        return b.flip();
    }

    static BucketEntry decode(final ByteBuffer b) {
        return new BucketEntry(b.getLong(0), b.getInt(8), b.getLong(12), b.getLong(20), b.getInt(28), b.getLong(32),
                b.get(40) == 1);
    }
}
