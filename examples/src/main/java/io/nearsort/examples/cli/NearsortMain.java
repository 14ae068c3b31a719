package io.nearsort.examples.cli;

import io.nearsort.core.memory.HugePages;
import io.nearsort.examples.cli.keys.MalformedInputException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.InvalidPathException;
import java.util.concurrent.Callable;

/**
 * The {@code nearsort} command line: how sorted is my data, and what would nearsort buy me over what I use now?
 * Exit codes: 0 on success, 2 on bad arguments or unreadable or malformed input (one line on standard error
 * naming the option, file and line), 1 on an internal failure.
 */
@Command(name = "nearsort", mixinStandardHelpOptions = true, versionProvider = NearsortMain.Version.class,
        description = "Profiles the sortedness of key streams, measures what sortedness-aware indexes buy on them, and "
                + "loads and queries LDI column stores.",
        subcommands = {ProfileCommand.class, GenerateCommand.class, BenchCommand.class, DemoCommand.class,
            IngestCommand.class, QueryCommand.class, CommandLine.HelpCommand.class},
        footerHeading = "%nExamples:%n",
        footer = {"  nearsort demo",
            "  nearsort generate -n 1M -K 5 -L 5 -o keys.txt && nearsort profile keys.txt",
            "  nearsort bench -n 10M -K 5 -L 5 --lookups 1M --verify",
            "  nearsort bench --grid --chart out/grid.png",
            "  nearsort ingest --tpch lineitem:0.1 --dir store/lineitem",
            "  nearsort query --dir store/lineitem --projection by_shipdate --range 1995-03-01 1995-03-07",
            "",
            "Exit codes: 0 success, 2 bad arguments or input (one line on standard error), 1 internal failure."})
public final class NearsortMain implements Callable<Integer> {
    /** Exit code of a successful run. */
    public static final int OK = 0;
    /** Exit code of an internal failure. */
    public static final int FAILURE = 1;
    /** Exit code of bad arguments or bad input. */
    public static final int BAD_ARGUMENTS = 2;

    final Io io;
    @Spec
    private CommandSpec spec;

    private NearsortMain(final Io io) {
        this.io = io;
    }

    public static void main(final String[] args) {
        System.exit(run(args, Io.system()));
    }

    /** Runs the command line in-process on the given streams; returns the exit code. */
    public static int run(final String[] args, final Io io) {
        final CommandLine commandLine = new CommandLine(new NearsortMain(io));
        commandLine.setOut(new PrintWriter(io.out(), true));
        commandLine.setErr(new PrintWriter(io.err(), true));
        commandLine.setParameterExceptionHandler((e, ignored) -> {
            final String name = e.getCommandLine().getCommandSpec().qualifiedName();
            io.err().println(name + ": " + e.getMessage() + " (see '" + name + " --help')");
            return BAD_ARGUMENTS;
        });
        commandLine.setExecutionExceptionHandler((e, command, ignored) -> {
            final String name = command.getCommandSpec().qualifiedName();
            if (e instanceof MalformedInputException) {
                io.err().println(name + ": " + e.getMessage());
                return BAD_ARGUMENTS;
            }
            if (e instanceof InvalidPathException) { // a file argument no file system accepts (a NUL in it, say)
                final InvalidPathException bad = (InvalidPathException) e;
                io.err().println(name + ": '" + bad.getInput().replace("\0", "\\0") + "' is not a valid file name: "
                        + bad.getReason());
                return BAD_ARGUMENTS;
            }
            final IOException ioFailure = e instanceof UncheckedIOException ? ((UncheckedIOException) e).getCause()
                    : e instanceof IOException ? (IOException) e : null;
            if (ioFailure != null) {
                io.err().println(name + ": " + describe(ioFailure));
                return BAD_ARGUMENTS;
            }
            io.err().println(name + ": internal error: " + e);
            e.printStackTrace(io.err());
            return FAILURE;
        });
        final int code = commandLine.execute(args);
        io.out().flush();
        return code;
    }

    private static String describe(final IOException e) {
        if (e instanceof AccessDeniedException) {
            return ((AccessDeniedException) e).getFile() + ": permission denied";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** {@code nearsort} alone: the usage on standard error, exit code 2. */
    @Override
    public Integer call() {
        io.err().println("nearsort: a command is required");
        spec.commandLine().usage(io.err());
        return BAD_ARGUMENTS;
    }

    /** The version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            final String version = NearsortMain.class.getPackage().getImplementationVersion();
            return new String[] {"nearsort " + (version == null ? "(development build)" : version),
                "JVM: ${java.version} (${java.vendor} ${java.vm.name})",
                "Off-heap memory: " + HugePages.status()};
        }
    }

    /** What every subcommand shares: the streams, its spec, and argument checks that exit with code 2. */
    abstract static class Subcommand implements Callable<Integer> {
        @CommandLine.ParentCommand
        private NearsortMain root;
        @Spec
        CommandSpec spec;

        Io io() {
            return root.io;
        }

        /** A bad argument: exit code 2 with {@code message} on one line. */
        ParameterException badArgument(final String message) {
            return new ParameterException(spec.commandLine(), message);
        }

        long checkRange(final String option, final long value, final long min, final long max) {
            if (value < min || value > max) {
                throw badArgument(String.format(java.util.Locale.ROOT, "%s must be in [%,d, %,d] (got: %,d)", option,
                        min, max, value));
            }
            return value;
        }

        double checkPercent(final String option, final double value) {
            if (!(value >= 0 && value <= 100)) {
                throw badArgument(option + " must be a percentage in [0, 100] (got: " + value + ")");
            }
            return value;
        }
    }
}
