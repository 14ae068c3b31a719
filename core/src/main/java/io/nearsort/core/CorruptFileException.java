package io.nearsort.core;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A file written by nearsort failed a check when read: bad magic or format version, a checksum mismatch, a torn or
 * truncated record, a page that holds another page. Every module reports corruption with this one type and never
 * returns data from what failed the check. Modules whose API declares {@link IOException} (the LDI column store)
 * throw it as it is; the LAB-tree, whose API is unchecked, throws it as the cause of an
 * {@link java.io.UncheckedIOException}, as it reports every other I/O failure.
 *
 * <p>It names the file and where the check failed: a byte offset, and for paged files the page.
 */
public final class CorruptFileException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    /** The byte offset where the check failed; see {@link #offset()}. */
    private final long offset;
    /** The page that failed the check, -1 when none; see {@link #page()}. */
    private final long page;

    /**
     * Corruption found at a byte offset of a file that is not addressed by pages.
     *
     * @param file    the file, not null
     * @param offset  the byte offset of what failed the check (0 for the file's header)
     * @param problem what failed, for the message
     */
    public CorruptFileException(final Path file, final long offset, final String problem) {
        this(file, offset, -1, file + " is corrupt at byte " + offset + ": " + problem);
    }

    private CorruptFileException(final Path file, final long offset, final long page, final String message) {
        super(message);
        this.file = Objects.requireNonNull(file, "file");
        this.offset = offset;
        this.page = page;
    }

    /**
     * Corruption found in a page of a paged file, or in its header.
     *
     * @param file    the file, not null
     * @param page    the page that failed the check, or -1 for the file's header
     * @param offset  the byte offset in {@code file} where that page (or the header) starts
     * @param problem what failed, for the message
     * @return the exception, for the caller to throw
     */
    public static CorruptFileException inPage(final Path file, final long page, final long offset,
                                              final String problem) {
        if (page < 0) {
            return new CorruptFileException(file, offset, -1, file + " is corrupt in its header: " + problem);
        }
        return new CorruptFileException(file, offset, page, file + " is corrupt at page " + page + " (byte "
                + offset + "): " + problem);
    }

    /**
     * The file that failed the check (null only after deserialisation).
     *
     * @return the corrupt file; null only after deserialisation
     */
    public Path file() {
        return file;
    }

    /**
     * The byte offset where the check failed: the start of the record or page, 0 for the file's header.
     *
     * @return the byte offset in {@link #file()}, {@code >= 0}
     */
    public long offset() {
        return offset;
    }

    /**
     * The page that failed the check in a paged file; -1 for the header of one, or a file not addressed by pages.
     *
     * @return the page number, or -1 for a header or a file not addressed by pages
     */
    public long page() {
        return page;
    }
}
