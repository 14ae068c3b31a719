package io.nearsort.ldi.io;

import java.io.IOException;
import java.nio.file.Path;

/** A file of the column store failed a check: bad magic or version, a checksum mismatch, or a torn record. */
public final class CorruptFileException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptFileException(final Path file, final long offset, final String what) {
        super(file + " is corrupt at byte " + offset + ": " + what);
    }
}
