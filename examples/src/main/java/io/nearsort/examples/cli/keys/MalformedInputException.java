package io.nearsort.examples.cli.keys;

/**
 * Input that is not a sequence of keys in the expected format. The message names the source and the line (text)
 * or byte offset (binary) where reading stopped.
 */
public final class MalformedInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MalformedInputException(final String message) {
        super(message);
    }
}
