package io.nearsort.examples.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the command line in-process and captures what it prints. */
final class Cli {
    final int exitCode;
    final byte[] outBytes;
    final String out;
    final String err;

    private Cli(final int exitCode, final byte[] outBytes, final String err) {
        this.exitCode = exitCode;
        this.outBytes = outBytes;
        this.out = new String(outBytes, StandardCharsets.UTF_8);
        this.err = err;
    }

    static Cli run(final String... args) {
        return runWithInput(new byte[0], args);
    }

    static Cli runWithInput(final byte[] stdin, final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = NearsortMain.run(args, new Io(new ByteArrayInputStream(stdin),
                new PrintStream(out, false, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                false));
        return new Cli(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    /** The value after {@code name:} on its line of a profile report. */
    String field(final String name) {
        for (final String line : out.split("\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).strip();
            }
        }
        throw new AssertionError("no field '" + name + "' in:\n" + out);
    }

    /** The leading count of a profile field such as {@code K: 5,000 (5.00%) ...}. */
    long count(final String name) {
        return Long.parseLong(field(name).split("[ (]")[0].replace(",", ""));
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out:\n" + out + "\n--- err:\n" + err;
    }
}
