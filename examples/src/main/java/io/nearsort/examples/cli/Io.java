package io.nearsort.examples.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The streams a command works with, so that tests run commands in-process on their own streams.
 *
 * @param in          standard input ({@code -} as a file name)
 * @param out         results
 * @param err         errors and progress
 * @param interactive whether a terminal is attached; progress bars are drawn only then
 */
public record Io(InputStream in, PrintStream out, PrintStream err, boolean interactive) {
    /** The process's own streams; interactive when a console is attached. */
    static Io system() {
        return new Io(System.in, new PrintStream(System.out, false, StandardCharsets.UTF_8),
                new PrintStream(System.err, true, StandardCharsets.UTF_8), System.console() != null);
    }
}
