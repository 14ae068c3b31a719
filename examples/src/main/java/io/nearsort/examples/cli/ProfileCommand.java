package io.nearsort.examples.cli;

import io.nearsort.core.sortedness.Sortedness;
import io.nearsort.core.sortedness.SortednessReport;
import io.nearsort.core.sortedness.StreamingSortednessEstimator;
import io.nearsort.examples.cli.keys.KeyFormat;
import io.nearsort.examples.cli.keys.KeyReader;
import io.nearsort.examples.cli.keys.KeySink;
import io.nearsort.examples.cli.keys.LongArrayBuilder;
import io.nearsort.examples.cli.profile.GapStatistics;
import io.nearsort.examples.cli.profile.ProfileReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;

/**
 * {@code nearsort profile}: the (K,L) sortedness of a key stream, exact (all keys in memory) or streaming over a
 * bounded window, with a sortedness class and a SWARE configuration.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = {"Measures how sorted a stream of keys is: n, K and L (counts and %% of n), minimum removals, "
                + "ascending runs, duplicates, gap statistics, a sortedness class, and a recommended SWARE buffer "
                + "size and split ratio with the reasoning.",
            "Input: one integer per line (the data-sortedness benchmark generator's text output), or "
                + "little-endian int64 (--binary) or int32 (--int32)."},
        footerHeading = "%nExamples:%n",
        footer = {"  nearsort profile keys.txt",
            "  nearsort generate -n 1M -K 5 -L 5 | nearsort profile -",
            "  nearsort profile --binary --window 1M events.bin     # unbounded input, bounded memory"})
final class ProfileCommand extends NearsortMain.Subcommand {
    /** Largest streaming window (the estimator's limit). */
    static final long MAX_WINDOW = 1 << 27;

    @Parameters(index = "0", arity = "0..1", defaultValue = "-", paramLabel = "FILE|-",
            description = "the keys, or - for standard input (default)")
    String file;

    @Option(names = "--binary", description = "little-endian int64 keys")
    boolean binary;

    @Option(names = "--int32", description = "little-endian int32 keys (the reference generator's binary format)")
    boolean int32;

    @Option(names = "--window", paramLabel = "N", converter = Counts.class,
            description = "stream the input through the streaming estimator holding N keys: bounded memory, K and L "
                    + "exact while L < N (otherwise late entries are flagged as outliers)")
    Long window;

    @Override
    public Integer call() throws IOException {
        if (binary && int32) {
            throw badArgument("--binary and --int32 are exclusive");
        }
        if (window != null) {
            checkRange("--window", window, 2, MAX_WINDOW);
        }
        final KeyFormat format = KeyFormat.of(binary, int32);
        final String source = "-".equals(file) ? "standard input" : file;
        final ProfileReport report;
        try (Progress progress = Progress.start(io(), "profile", -1, "keys")) {
            report = window == null ? exact(format, source, progress) : streaming(format, source, progress);
        }
        report.print(io().out());
        return NearsortMain.OK;
    }

    private ProfileReport exact(final KeyFormat format, final String source, final Progress progress)
            throws IOException {
        final LongArrayBuilder keys = new LongArrayBuilder();
        new KeyReader(format).read(file, io().in(), counted(keys, progress));
        final long[] array = keys.toArray();
        return new ProfileReport(source, format, Sortedness.measure(array), GapStatistics.of(array), 0, 0);
    }

    private ProfileReport streaming(final KeyFormat format, final String source, final Progress progress)
            throws IOException {
        final StreamingSortednessEstimator estimator = new StreamingSortednessEstimator(window.intValue());
        final long[] range = {Long.MAX_VALUE, Long.MIN_VALUE};
        new KeyReader(format).read(file, io().in(), counted(key -> {
            estimator.add(key);
            range[0] = Math.min(range[0], key);
            range[1] = Math.max(range[1], key);
        }, progress));
        final SortednessReport estimate = estimator.report();
        final GapStatistics gaps = estimate.n() == 0 ? GapStatistics.of(new long[0])
                : GapStatistics.ofRange(range[0], range[1], estimate.n() - estimate.duplicates());
        return new ProfileReport(source, format, estimate, gaps, window, estimator.outliers());
    }

    private static KeySink counted(final KeySink sink, final Progress progress) {
        final long[] count = {0};
        return key -> {
            sink.accept(key);
            if ((++count[0] & 0xFFFF) == 0) {
                progress.stepBy(0x10000);
            }
        };
    }
}
