package io.nearsort.labtree.storage;

/**
 * Layout of the trailer at the end of every data page: the page's own number (a page written to the wrong place
 * is caught) and a CRC32C of everything before the checksum. The payload is the rest of the page.
 */
public final class PageTrailerDescriptor {
    static final int PAGE_NUMBER_LENGTH = Long.BYTES;
    static final int CHECKSUM_LENGTH = Integer.BYTES;
    /** Bytes the trailer takes from every page. */
    public static final int TRAILER_LENGTH = PAGE_NUMBER_LENGTH + CHECKSUM_LENGTH;

    private PageTrailerDescriptor() {
    }

    /**
     * Bytes of a page available to its user.
     *
     * @param pageSize bytes per page, more than the trailer (not checked)
     * @return {@code pageSize} minus the {@value #TRAILER_LENGTH}-byte trailer
     */
    public static int payloadSize(final int pageSize) {
        return pageSize - TRAILER_LENGTH;
    }

    static int pageNumberOffset(final int pageSize) {
        return pageSize - TRAILER_LENGTH;
    }

    static int checksumOffset(final int pageSize) {
        return pageSize - CHECKSUM_LENGTH;
    }
}
