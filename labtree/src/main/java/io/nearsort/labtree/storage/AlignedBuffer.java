package io.nearsort.labtree.storage;

import org.agrona.BufferUtil;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A page-sized off-heap buffer whose address is aligned for O_DIRECT, with the allocation it was cut from, so that
 * {@link #free()} can release it at once (an aligned slice itself cannot be freed).
 */
final class AlignedBuffer {
    private final ByteBuffer allocation;
    private final ByteBuffer page;

    AlignedBuffer(final int size, final int alignment) {
        allocation = ByteBuffer.allocateDirect(size + alignment);
        // alignedSlice would also round the end down to the alignment: cut the page by hand.
        final int start = (alignment - allocation.alignmentOffset(0, alignment)) % alignment;
        page = allocation.position(start).limit(start + size).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The aligned page bytes, little-endian. */
    ByteBuffer page() {
        return page;
    }

    void free() {
        BufferUtil.free(allocation);
    }
}
