package io.nearsort.examples;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * The {@code nearsort} command line. This release has one command, {@code demo}; the full tool (profile,
 * generate, bench) is its own issue.
 */
public final class NearsortMain {
    static final int OK = 0;
    static final int BAD_ARGUMENTS = 2;

    private NearsortMain() {
    }

    public static void main(final String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command line in-process; returns the exit code. */
    static int run(final String[] args, final PrintStream out, final PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            usage(out);
            return args.length == 0 ? BAD_ARGUMENTS : OK;
        }
        if (!args[0].equals("demo")) {
            err.println("nearsort: unknown command '" + args[0] + "' (try: nearsort --help)");
            return BAD_ARGUMENTS;
        }
        final DemoCommand demo;
        try {
            demo = DemoCommand.parse(Arrays.copyOfRange(args, 1, args.length));
        } catch (final IllegalArgumentException e) {
            err.println("nearsort demo: " + e.getMessage());
            return BAD_ARGUMENTS;
        }
        if (demo == null) {
            DemoCommand.usage(out);
            return OK;
        }
        demo.run(out);
        return OK;
    }

    private static void usage(final PrintStream out) {
        out.println("Usage: nearsort <command> [options]");
        out.println();
        out.println("Commands:");
        out.println("  demo   generate sorted, near-sorted and scrambled streams, measure their sortedness and");
        out.println("         ingest them into the baseline B+-tree, the B+-tree with tail inserts and bulk append,");
        out.println("         the SA B+-tree (SWARE) and TreeMap");
        out.println();
        out.println("Run 'nearsort demo --help' for the demo's options.");
    }
}
