package io.nearsort.jmh.labtree;

import io.nearsort.labtree.FlushPolicy;
import io.nearsort.labtree.LabArray;
import io.nearsort.labtree.LabStats;
import io.nearsort.labtree.LeafFormat;
import io.nearsort.labtree.SplitStrategy;
import io.nearsort.labtree.daf.DirectlyAddressableFile;
import io.nearsort.labtree.Linearization;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The LAB-tree paper's experiments as a harness (they count leaves and I/Os of single runs, which JMH does not
 * report): {@code splits} reproduces §4.3 (leaves, page reads and writes, and time per splitting strategy and leaf
 * format for the seq, str, int and ran patterns, next to the directly addressable file); {@code flush} reproduces
 * §5.3 (I/O counts of the flush policies). Prints Markdown tables.
 *
 * <pre>
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp jmh/target/benchmarks.jar \
 *     io.nearsort.jmh.labtree.LabTreeExperiments splits 1000 256
 * </pre>
 */
public final class LabTreeExperiments {
    private static final int PAGE_SIZE = 8192;

    private LabTreeExperiments() {
    }

    public static void main(final String[] args) throws IOException {
        if (args.length < 1 || !(args[0].equals("splits") || args[0].equals("flush"))) {
            System.err.println("usage: LabTreeExperiments splits|flush [n (default 1000)] [bufferPoolPages (default "
                    + "256)] [updateBuffer (default n*n/80)]");
            System.exit(2);
        }
        final int n = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        final int poolPages = args.length > 2 ? Integer.parseInt(args[2]) : 256;
        final Path dir = Files.createTempDirectory("labtree-experiments");
        final PrintStream out = System.out;
        out.printf(Locale.ROOT, "%d x %d matrix, row-major storage, %d-byte pages, buffer pool of %d pages%n%n", n, n,
                PAGE_SIZE, poolPages);
        try {
            if (args[0].equals("splits")) {
                splits(n, poolPages, dir, out);
            } else {
                final int updateBuffer = args.length > 3 ? Integer.parseInt(args[3]) : n * n / 80;
                flush(n, poolPages, updateBuffer, dir, out);
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (final Path file : (Iterable<Path>) files::iterator) {
                    Files.delete(file);
                }
            }
            Files.delete(dir);
        }
    }

    /** §4.3: every splitting strategy with sparse-only and dynamic leaves, and the DAF, on every pattern. */
    private static void splits(final int n, final int poolPages, final Path dir, final PrintStream out) {
        out.println("| pattern | structure | leaves | dense leaves | page reads | page writes | seconds |");
        out.println("|---|---|---:|---:|---:|---:|---:|");
        for (final InsertionPattern pattern : InsertionPattern.values()) {
            final long[] keys = pattern.keys(n, 42);
            for (final LeafFormat format : LeafFormat.values()) {
                for (final SplitStrategy strategy : SplitStrategy.values()) {
                    final Path file = dir.resolve(pattern + "-" + format + "-" + strategy + ".lab");
                    final long start = System.nanoTime();
                    final LabStats stats;
                    try (LabArray a = LabArray.builder(file).shape(n, n).linearization(Linearization.rowMajor())
                            .splitStrategy(strategy).leafFormat(format).pageSize(PAGE_SIZE)
                            .bufferPoolPages(poolPages).build()) {
                        for (final long key : keys) {
                            a.setLinear(1.0 + key % 7, key);
                        }
                        a.flush();
                        stats = a.stats();
                    }
                    final double seconds = (System.nanoTime() - start) / 1e9;
                    final String name = (strategy == SplitStrategy.MIDDLE && format == LeafFormat.SPARSE_ONLY
                            ? "B-tree (" : "LAB-tree (") + strategy + ", " + format + ")";
                    out.printf(Locale.ROOT, "| %s | %s | %,d | %,d | %,d | %,d | %.2f |%n", pattern, name,
                            stats.leafCount(), stats.denseLeafCount(), stats.pageReads(), stats.pageWrites(), seconds);
                }
            }
            final long start = System.nanoTime();
            try (DirectlyAddressableFile daf = DirectlyAddressableFile.open(dir.resolve(pattern + ".daf"),
                    Linearization.rowMajor(), PAGE_SIZE, poolPages, n, n)) {
                for (final long key : keys) {
                    daf.setLinear(1.0 + key % 7, key);
                }
                daf.flush();
                out.printf(Locale.ROOT, "| %s | DAF | %,d pages | - | %,d | %,d | %.2f |%n", pattern,
                        daf.allocatedPages(), daf.pool().pageReads(), daf.pool().pageWrites(),
                        (System.nanoTime() - start) / 1e9);
            }
        }
    }

    /** §5.3: the I/O counts of every flush policy on every pattern, split-aligned dynamic leaves. */
    private static void flush(final int n, final int poolPages, final int updateBuffer, final Path dir,
                              final PrintStream out) {
        out.printf(Locale.ROOT, "update buffer of %,d requests (the page-information cache, 4%% of it, is charged "
                + "against it for every policy but ALL)%n%n", updateBuffer);
        out.println("| pattern | policy | page reads | page writes | I/Os | pages flushed | partial lookups | seconds |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|");
        for (final InsertionPattern pattern : InsertionPattern.values()) {
            final long[] keys = pattern.keys(n, 42);
            for (final FlushPolicy policy : FlushPolicy.values()) {
                final Path file = dir.resolve(pattern + "-" + policy + ".lab");
                final long start = System.nanoTime();
                final LabStats stats;
                try (LabArray a = LabArray.builder(file).shape(n, n).splitStrategy(SplitStrategy.ALIGNED)
                        .leafFormat(LeafFormat.DYNAMIC).pageSize(PAGE_SIZE).bufferPoolPages(poolPages)
                        .updateBuffer(updateBuffer, policy).build()) {
                    for (final long key : keys) {
                        a.setLinear(1.0 + key % 7, key);
                    }
                    a.flush();
                    stats = a.stats();
                }
                out.printf(Locale.ROOT, "| %s | %s | %,d | %,d | %,d | %,d | %,d | %.2f |%n", pattern, policy,
                        stats.pageReads(), stats.pageWrites(), stats.pageReads() + stats.pageWrites(),
                        stats.pagesFlushed(), stats.partialLookups(), (System.nanoTime() - start) / 1e9);
            }
        }
    }
}
