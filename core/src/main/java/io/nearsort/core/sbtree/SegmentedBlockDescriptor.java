package io.nearsort.core.sbtree;

/**
 * The layout of a segmented block (SB-Tree §III-C, Figure 4): the right-most block of the data layer, holding
 * the addresses of its per-thread data blocks.
 *
 * <pre>
 *   0                                          48                         56                      64
 *   +------------------------------------------+--------------------------+-----------------------+----------------+
 *   | BlockHeader: count = slots handed out    | sequence (long):         | unused                | slots[m] (long)|
 *   | (atomic counter), specific int = m       | conversion order         |                       |                |
 *   +------------------------------------------+--------------------------+-----------------------+----------------+
 * </pre>
 *
 * <p>Threads take slots with an atomic increment of {@code count} (§IV-A: "the number of per-thread data blocks
 * is atomically increased and used to get the location of the pointer variable") up to the maximum {@code m};
 * the thread that takes slot {@code m} converts the block. A slot is 0 until its thread installs its block with a
 * compare-and-set, and {@link #SEALED_SLOT} once the conversion closed it. The low fence of the header is the
 * smallest key the block takes (the shortcut's fence).
 */
final class SegmentedBlockDescriptor {
    static final int SEQUENCE_OFFSET = BlockHeader.LENGTH;
    static final int SLOTS_OFFSET = 64;
    /** A slot closed by the conversion before any block was installed in it. */
    static final long SEALED_SLOT = 1L;

    private SegmentedBlockDescriptor() {
    }

    /** Slots a segmented block of {@code blockSize} bytes has room for. */
    static int maxSlots(final int blockSize) {
        return (blockSize - SLOTS_OFFSET) / Long.BYTES;
    }

    static long slotAddress(final long block, final int slot) {
        return block + SLOTS_OFFSET + ((long) slot << 3);
    }
}
