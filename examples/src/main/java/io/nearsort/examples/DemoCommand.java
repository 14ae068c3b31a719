package io.nearsort.examples;

import io.nearsort.core.IndexStats;
import io.nearsort.core.Indexes;
import io.nearsort.core.btree.BPlusTree;
import io.nearsort.core.ingest.RunAppender;
import io.nearsort.core.sortedness.KLGenerator;
import io.nearsort.core.sortedness.Sortedness;
import io.nearsort.core.sortedness.SortednessReport;
import io.nearsort.core.sware.SortednessAwareIndex;

import java.io.PrintStream;
import java.util.Locale;
import java.util.TreeMap;

/**
 * {@code nearsort demo}: a tour on an embedded default. It generates three streams with the data-sortedness
 * benchmark's generator, measures their (K,L) sortedness, and ingests each into the paper's baseline B+-tree,
 * the B+-tree with SWARE §III's design elements (80:20 splits, tail-leaf inserts, bulk append of sorted runs),
 * the SA B+-tree (the SWARE buffer, 1% of the stream, over that tree) and {@link TreeMap}. Each structure runs once to warm up and then {@code --repeat} times, alternating, and
 * the best time counts.
 */
final class DemoCommand {
    private static final int DEFAULT_N = 2_000_000;
    private static final int DEFAULT_REPEAT = 3;

    private final int n;
    private final int repeat;
    private final long seed;

    private DemoCommand(final int n, final int repeat, final long seed) {
        this.n = n;
        this.repeat = repeat;
        this.seed = seed;
    }

    /** Parses the options after {@code demo}; null when help was asked for. */
    static DemoCommand parse(final String[] args) {
        int n = DEFAULT_N;
        int repeat = DEFAULT_REPEAT;
        long seed = 42;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--help":
                case "-h":
                    return null;
                case "-n":
                    n = (int) parseLong("-n", value(args, i++), 1_000, 100_000_000);
                    break;
                case "--repeat":
                    repeat = (int) parseLong("--repeat", value(args, i++), 1, 100);
                    break;
                case "--seed":
                    seed = parseLong("--seed", value(args, i++), Long.MIN_VALUE, Long.MAX_VALUE);
                    break;
                default:
                    throw new IllegalArgumentException("unknown option '" + args[i] + "' (try: nearsort demo --help)");
            }
        }
        return new DemoCommand(n, repeat, seed);
    }

    private static String value(final String[] args, final int i) {
        if (i + 1 >= args.length) {
            throw new IllegalArgumentException(args[i] + " needs a value");
        }
        return args[i + 1];
    }

    private static long parseLong(final String option, final String text, final long min, final long max) {
        final long value;
        try {
            value = Long.parseLong(text.replace("_", ""));
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException(option + " expects an integer (got: '" + text + "')");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + " must be in [" + min + ", " + max + "] (got: " + value + ")");
        }
        return value;
    }

    static void usage(final PrintStream out) {
        out.println("Usage: nearsort demo [-n N] [--repeat R] [--seed S]");
        out.println();
        out.println("  -n N         keys per stream (default " + DEFAULT_N + ", 1000 to 100000000)");
        out.println("  --repeat R   timed runs per structure after one warm-up run; the best counts (default "
                + DEFAULT_REPEAT + ")");
        out.println("  --seed S     generator seed (default 42)");
        out.println();
        out.println("Examples:");
        out.println("  nearsort demo");
        out.println("  nearsort demo -n 10000000 --repeat 5");
    }

    void run(final PrintStream out) {
        out.printf(Locale.ROOT, "nearsort demo: %,d keys per stream, best of %d runs after a warm-up (seed %d)%n%n",
                n, repeat, seed);
        final Stream[] streams = {
            new Stream("sorted", KLGenerator.generate(n, 0, 0, seed)),
            new Stream("near-sorted K=5% L=5%", KLGenerator.generate(n, 5, 5, seed)),
            new Stream("scrambled", KLGenerator.workload(n).scrambled(true).seed(seed).generate())};
        out.println("How sorted is each stream?");
        out.printf(Locale.ROOT, "  %-24s %12s %12s %14s %12s%n", "stream", "K", "L", "min removals", "runs");
        for (final Stream stream : streams) {
            final SortednessReport r = Sortedness.measure(stream.keys);
            out.printf(Locale.ROOT, "  %-24s %11.2f%% %11.2f%% %13.2f%% %,12d%n", stream.name, 100 * r.kFraction(),
                    100 * r.lFraction(), 100.0 * r.minRemovals() / r.n(), r.runs());
        }
        out.println();
        out.println("Ingesting each stream (speedup is over the baseline B+-tree on the same stream):");
        out.printf(Locale.ROOT, "  %-24s %-22s %9s %10s %8s %9s %9s %7s %9s%n", "stream", "structure", "ms",
                "Mkeys/s", "speedup", "bulk", "tail", "fill", "B/entry");
        for (final Stream stream : streams) {
            final Result[] results = new Result[Ingest.values().length];
            for (int run = 0; run <= repeat; run++) {
                for (final Ingest ingest : Ingest.values()) {
                    final Result result = ingest.run(stream.keys);
                    if (run > 0 && (results[ingest.ordinal()] == null || result.nanos < results[ingest.ordinal()].nanos)) {
                        results[ingest.ordinal()] = result;
                    }
                }
            }
            final double baseline = results[Ingest.BASELINE.ordinal()].nanos;
            for (final Ingest ingest : Ingest.values()) {
                final Result r = results[ingest.ordinal()];
                out.printf(Locale.ROOT, "  %-24s %-22s %9.1f %10.2f %7.2fx %9s %9s %7s %9s%n", stream.name,
                        ingest.label, r.nanos / 1e6, n / (r.nanos / 1e3), baseline / r.nanos,
                        r.stats == null ? "-" : percent(r.stats.bulkLoadedEntries()),
                        r.stats == null ? "-" : percent(r.stats.tailLeafInserts()),
                        r.stats == null ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * r.stats.averageLeafFill()),
                        r.stats == null ? "-" : String.format(Locale.ROOT, "%.1f", (double) r.stats.bytesInUse() / n));
            }
        }
        out.println();
        out.println("bulk = entries bulk-appended, tail = entries inserted straight into the right-most leaf,");
        out.println("fill = average leaf fill, B/entry = off-heap bytes in use per entry (TreeMap lives on the heap).");
        out.println("The SA B+-tree buffers 1% of the stream and bulk-loads what arrives nearly in order; its time");
        out.println("includes a final flush of the buffer into the tree.");
    }

    private String percent(final long count) {
        return String.format(Locale.ROOT, "%.1f%%", 100.0 * count / n);
    }

    private static final class Stream {
        final String name;
        final long[] keys;

        Stream(final String name, final long[] keys) {
            this.name = name;
            this.keys = keys;
        }
    }

    private static final class Result {
        final long nanos;
        final IndexStats stats;

        Result(final long nanos, final IndexStats stats) {
            this.nanos = nanos;
            this.stats = stats;
        }
    }

    /** The ingestion paths compared. */
    private enum Ingest {
        BASELINE("B+-tree (baseline)") {
            @Override
            Result run(final long[] keys) {
                try (BPlusTree tree = Indexes.bPlusTree().build()) {
                    final long start = System.nanoTime();
                    for (final long key : keys) {
                        tree.put(key, key);
                    }
                    return new Result(System.nanoTime() - start, checked(tree.stats(), keys.length));
                }
            }
        },
        TAIL_BULK("B+-tree 80:20+tail+bulk") {
            @Override
            Result run(final long[] keys) {
                try (BPlusTree tree = Indexes.bPlusTree().splitRatio(0.8).tailLeafInserts(true).build()) {
                    final long start = System.nanoTime();
                    new RunAppender(tree, 16).ingest(keys, keys, 0, keys.length);
                    return new Result(System.nanoTime() - start, checked(tree.stats(), keys.length));
                }
            }
        },
        SA_BPLUS("SA B+-tree (SWARE)") {
            @Override
            Result run(final long[] keys) {
                try (SortednessAwareIndex index = Indexes.saBPlusTree()
                        .bufferCapacity(Math.max(1, keys.length / 100)).build()) {
                    final long start = System.nanoTime();
                    for (final long key : keys) {
                        index.put(key, key);
                    }
                    index.flush(); // timed too: every entry ends in the tree
                    return new Result(System.nanoTime() - start, checked(index.stats(), keys.length));
                }
            }
        },
        TREEMAP("java.util.TreeMap") {
            @Override
            Result run(final long[] keys) {
                final TreeMap<Long, Long> map = new TreeMap<>();
                final long start = System.nanoTime();
                for (final long key : keys) {
                    map.put(key, key);
                }
                final long nanos = System.nanoTime() - start;
                if (map.size() != keys.length) {
                    throw new IllegalStateException("TreeMap holds " + map.size() + " keys, expected " + keys.length);
                }
                return new Result(nanos, null);
            }
        };

        final String label;

        Ingest(final String label) {
            this.label = label;
        }

        abstract Result run(long[] keys);

        static IndexStats checked(final IndexStats stats, final int n) {
            if (stats.size() != n) {
                throw new IllegalStateException(stats.structure() + " holds " + stats.size() + " keys, expected " + n);
            }
            return stats;
        }
    }
}
