package io.nearsort.examples.cli;

import io.nearsort.core.sortedness.KLGenerator;
import io.nearsort.examples.cli.keys.KeyFormat;
import io.nearsort.examples.cli.keys.KeyWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** {@code nearsort generate}: the data-sortedness benchmark's (K,L) workload, or a late-event stream, as a key file. */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = {"Writes n keys with K%% of them displaced by up to L%% of n (the data-sortedness benchmark's "
                + "generator, reproducible from --seed), one key per line, or binary.",
            "Keys start as 1..n (or with --gaps); K=0 or L=0 is sorted; --scrambled is a random permutation; "
                + "--late D is an event-time stream instead: key i arrives at i + U[0, D), D in %% of n."},
        footerHeading = "%nExamples:%n",
        footer = {"  nearsort generate -n 1M -K 5 -L 5 -o keys.txt",
            "  nearsort generate -n 10M -K 10 -L 1 --gaps random:100 --binary -o keys.bin",
            "  nearsort generate -n 1M --scrambled | nearsort profile -",
            "  nearsort generate -n 1M --late 0.5 | nearsort profile -"})
final class GenerateCommand extends NearsortMain.Subcommand {
    @Mixin
    WorkloadOptions workload = new WorkloadOptions();

    @Option(names = "--binary", description = "write little-endian int64 instead of text")
    boolean binary;

    @Option(names = "--int32", description = "write little-endian int32 (the reference generator's binary format)")
    boolean int32;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "output file, its directories created as needed (default: standard output)")
    Path output;

    @Override
    public Integer call() throws IOException {
        final KLGenerator generator = workload.generator(this);
        if (binary && int32) {
            throw badArgument("--binary and --int32 are exclusive");
        }
        final long[] keys = generator.generate();
        final KeyFormat format = KeyFormat.of(binary, int32);
        if (format == KeyFormat.INT32 && maxOf(keys) > Integer.MAX_VALUE) {
            throw badArgument(String.format(Locale.ROOT, "--int32: keys reach %,d, beyond int32; use --binary",
                    maxOf(keys)));
        }
        if (output == null) {
            write(keys, format, io().out());
        } else {
            final Path parent = output.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(output), 1 << 16)) {
                write(keys, format, file);
            }
            io().err().printf(Locale.ROOT, "nearsort generate: wrote %,d keys (%s) to %s%n", keys.length,
                    format.description(), output);
        }
        return NearsortMain.OK;
    }

    private void write(final long[] keys, final KeyFormat format, final OutputStream out) throws IOException {
        final KeyWriter writer = new KeyWriter(format, out);
        try (Progress progress = Progress.start(io(), "generate", keys.length, "keys")) {
            for (int i = 0; i < keys.length; i++) {
                writer.write(keys[i]);
                if ((i & 0xFFFF) == 0xFFFF) {
                    progress.stepBy(0x10000);
                }
            }
        }
        writer.flush();
    }

    private static long maxOf(final long[] keys) {
        long max = Long.MIN_VALUE;
        for (final long key : keys) {
            max = Math.max(max, key);
        }
        return max;
    }
}
