package io.nearsort.examples.cli.keys;

/**
 * Input that is not in the expected format: keys, or rows of a CSV/TSV file. The message names the source and the
 * line (text) or byte offset (binary) where reading stopped. The command line exits with code 2 on it.
 */
public final class MalformedInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedInputException(final String message) {
        super(message);
    }
}
