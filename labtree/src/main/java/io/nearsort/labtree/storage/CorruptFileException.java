package io.nearsort.labtree.storage;

import java.nio.file.Path;

/**
 * A LAB-tree file whose content cannot be trusted: a bad header, a page whose checksum or page number does not
 * match, or a file shorter than its header says. Names the file and the page (-1 for the file header); nothing
 * from such a page is ever returned as data.
 */
public final class CorruptFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long page;

    public CorruptFileException(final Path file, final long page, final String problem) {
        super(file + (page >= 0 ? ", page " + page : ", header") + ": " + problem);
        this.file = file;
        this.page = page;
    }

    public Path file() {
        return file;
    }

    /** The page, or -1 for the file header. */
    public long page() {
        return page;
    }
}
