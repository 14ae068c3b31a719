package io.nearsort.examples.cli.bench;

/** A structure returned something other than the reference: a bug in the structure, reported with the evidence. */
public final class VerificationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    VerificationException(final String message) {
        super(message);
    }
}
