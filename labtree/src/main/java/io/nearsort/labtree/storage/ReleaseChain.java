package io.nearsort.labtree.storage;

import java.io.IOException;

/**
 * The steps of a close, each run even when an earlier one failed, so that a failing flush or buffer release
 * never leaves a file handle or off-heap memory behind. The first failure is rethrown with the later ones
 * suppressed in it.
 */
final class ReleaseChain {
    private Throwable failure;

    /** One release step. */
    @FunctionalInterface
    interface Step {
        void run() throws IOException;
    }

    /** Runs {@code step}, recording its failure (errors included: a missing JVM flag surfaces as one). */
    ReleaseChain run(final Step step) {
        try {
            step.run();
        } catch (final IOException | RuntimeException | Error e) {
            if (failure == null) {
                failure = e;
            } else if (failure != e) {
                failure.addSuppressed(e);
            }
        }
        return this;
    }

    /** Whether a step has failed so far. */
    boolean failed() {
        return failure != null;
    }

    /** Throws the first failure, if any step failed. */
    void rethrow() throws IOException {
        if (failure instanceof IOException e) {
            throw e;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
    }
}
