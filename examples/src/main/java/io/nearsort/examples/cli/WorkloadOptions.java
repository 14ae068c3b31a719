package io.nearsort.examples.cli;

import io.nearsort.core.sortedness.KLGenerator;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/** The generator options {@code generate} and {@code bench} share (a picocli mixin). */
final class WorkloadOptions {
    /** Largest n: the generator works on one Java array. */
    static final long MAX_N = Integer.MAX_VALUE - 8;

    @Option(names = "-n", paramLabel = "N", converter = Counts.class, defaultValue = "1000000",
            description = "number of keys, e.g. 1000000, 1_000_000 or 1M (default 1M)")
    long n;

    @Option(names = "-K", paramLabel = "k", defaultValue = "0",
            description = "percentage of keys displaced, 0..100 (default ${DEFAULT-VALUE})")
    double k;

    @Option(names = "-L", paramLabel = "l", defaultValue = "0",
            description = "largest displacement as a percentage of n, 0..100 (default ${DEFAULT-VALUE})")
    double l;

    @Option(names = "--seed", paramLabel = "s", defaultValue = "42",
            description = "random seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--gaps", paramLabel = "fixed:W|random:W",
            description = "distance between consecutive sorted keys: exactly W, or uniform in [1, W] (default fixed:1)")
    String gaps;

    @Option(names = "--scrambled", description = "a uniform random permutation instead of a (K,L) workload")
    boolean scrambled;

    @Option(names = "--late", paramLabel = "D",
            description = "late events instead of a (K,L) workload: key i arrives at i + U[0, D), D in %% of n "
                    + "(event-time streams: K near 100%%, L below D)")
    Double late;

    /** The workload these options describe, validated with errors naming the option. */
    KLGenerator generator(final NearsortMain.Subcommand command) {
        command.checkRange("-n", n, 0, MAX_N);
        if (late != null) {
            command.checkPercent("--late", late);
            final String other = lateConflict(command);
            if (other != null) {
                throw command.badArgument("--late and " + other + " are exclusive: late events are a workload of "
                        + "their own, not a (K,L) or scrambled one");
            }
            final KLGenerator generator = KLGenerator.workload((int) n).lateEvents(late).seed(seed);
            if (gaps != null) {
                applyGaps(command, generator);
            }
            return generator;
        }
        return generator(command, k, l, scrambled);
    }

    /** The first of -K, -L and --scrambled given with --late (even -K 0), or null. */
    private String lateConflict(final NearsortMain.Subcommand command) {
        final ParseResult parsed = command.spec == null ? null : command.spec.commandLine().getParseResult();
        for (final String option : new String[] {"-K", "-L", "--scrambled"}) {
            final boolean given = parsed != null ? parsed.hasMatchedOption(option)
                    : option.equals("-K") ? k != 0 : option.equals("-L") ? l != 0 : scrambled;
            if (given) {
                return option;
            }
        }
        return null;
    }

    /** The name of the configured workload (see {@link #name(double, double, boolean)}; late events: {@code late D=0.5%}). */
    String name() {
        return late != null ? lateName(late) : name(k, l, scrambled);
    }

    /** The name of a late-event workload, e.g. {@code late D=0.5%}. */
    static String lateName(final double dPercent) {
        return "late D=" + percent(dPercent) + "%";
    }

    /** The workload with {@code K} and {@code L} replaced (the bench grid). */
    KLGenerator generator(final NearsortMain.Subcommand command, final double kPercent, final double lPercent,
                          final boolean scrambledOrder) {
        command.checkPercent("-K", kPercent);
        command.checkPercent("-L", lPercent);
        if (scrambledOrder && (kPercent != 0 || lPercent != 0)) {
            throw command.badArgument("--scrambled is a random permutation; it takes no -K or -L");
        }
        final KLGenerator generator = KLGenerator.workload((int) n).kPercent(kPercent).lPercent(lPercent).seed(seed)
                .scrambled(scrambledOrder);
        if (gaps != null) {
            applyGaps(command, generator);
        }
        return generator;
    }

    private void applyGaps(final NearsortMain.Subcommand command, final KLGenerator generator) {
        final String expected = "--gaps expects fixed:W or random:W with an integer W >= 1 (got: '" + gaps + "')";
        final String[] parts = gaps.split(":", 2);
        final long width;
        try {
            width = parts.length == 2 ? Long.parseLong(parts[1].replace("_", "")) : -1;
        } catch (final NumberFormatException e) {
            throw command.badArgument(expected);
        }
        if (width < 1 || !(parts[0].equals("fixed") || parts[0].equals("random"))) {
            throw command.badArgument(expected);
        }
        if (Math.multiplyHigh(width, n + 1) != 0 || width * (n + 1) < 0) {
            throw command.badArgument("--gaps " + gaps + ": " + n + " keys this far apart overflow the long range");
        }
        if (parts[0].equals("fixed")) {
            generator.fixedGaps(width);
        } else {
            generator.randomGaps(width);
        }
    }

    /** A short name of the configured workload, e.g. {@code K=5% L=5%} or {@code scrambled}. */
    static String name(final double kPercent, final double lPercent, final boolean scrambledOrder) {
        if (scrambledOrder) {
            return "scrambled";
        }
        if (kPercent == 0 || lPercent == 0) {
            return "sorted";
        }
        return "K=" + percent(kPercent) + "% L=" + percent(lPercent) + "%";
    }

    private static String percent(final double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
