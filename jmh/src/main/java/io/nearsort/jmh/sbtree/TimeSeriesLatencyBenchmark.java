package io.nearsort.jmh.sbtree;

import io.nearsort.examples.cli.bench.BenchStructure;
import io.nearsort.examples.cli.bench.BenchTarget;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tail latency of inserts and lookups (SB-Tree §V-F, Figure 10): every benchmark thread ({@code -t}) inserts its
 * claims of the {@link TimeSeriesKeys} stream (chunks of 16, as in {@link TimeSeriesInsertBenchmark}) timing each
 * {@code put} with {@code System.nanoTime()} into an HdrHistogram, then times {@code n / 10} lookups of random keys
 * of the stream. After each iteration the merged histograms' percentiles (p50 … p99.99, max, in nanoseconds) are
 * printed and, with {@code -Dnearsort.latency.csv=FILE} passed to the fork ({@code -jvmArgsAppend}), appended to
 * that CSV. {@code -jvmArgsAppend} on the command line replaces the {@code @Fork} annotation's arguments, so it
 * must repeat them (without {@code --add-exports} every nearsort structure fails at its first use). The clock
 * read costs about 20 ns per operation, the same for every structure. The JMH score is the single-shot time of
 * the whole run.
 *
 * <pre>
 * mvn -q -B package -DskipTests
 * java -jar jmh/target/benchmarks.jar sbtree.TimeSeriesLatencyBenchmark -t 1 -jvmArgsAppend \
 *     "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED --enable-native-access=ALL-UNNAMED \
 *      -Xms8g -Xmx8g -Dnearsort.latency.csv=latency.csv"
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Xms8g", "-Xmx8g"})
public class TimeSeriesLatencyBenchmark {
    private static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};

    @Param({"10000000"})
    int n;

    @Param({"0"})
    double delayedPercent;

    @Param({"SBTREE", "SKIPLIST", "BPLUS", "SA_BPLUS"})
    String structure;

    long[] keys;
    BenchTarget target;
    final AtomicInteger cursor = new AtomicInteger();
    private final Histogram inserts = new Histogram(3_600_000_000_000L, 3);
    private final Histogram lookups = new Histogram(3_600_000_000_000L, 3);
    private int iteration;
    private int threads;

    @Setup(Level.Trial)
    public void generate(final BenchmarkParams params) {
        threads = params.getThreads();
        if (BenchStructure.valueOf(structure) == BenchStructure.BPLUS && threads > 1) {
            throw new IllegalArgumentException("BPLUS is not thread-safe: run it with -t 1");
        }
        keys = TimeSeriesKeys.generate(n, delayedPercent, 42);
    }

    @Setup(Level.Iteration)
    public void createStructure() {
        target = BenchStructure.valueOf(structure).createForWorkload(n);
        cursor.set(0);
        inserts.reset();
        lookups.reset();
    }

    /** One thread's histograms, merged into the benchmark's after each iteration. */
    @State(Scope.Thread)
    public static class Worker {
        final Histogram inserts = new Histogram(3_600_000_000_000L, 3);
        final Histogram lookups = new Histogram(3_600_000_000_000L, 3);
        SplittableRandom random;
        TimeSeriesLatencyBenchmark benchmark;

        @Setup(Level.Iteration)
        public void setUp(final ThreadParams params, final TimeSeriesLatencyBenchmark owner) {
            inserts.reset();
            lookups.reset();
            random = new SplittableRandom(31 + params.getThreadIndex());
            benchmark = owner;
        }

        @TearDown(Level.Iteration)
        public void merge() {
            synchronized (benchmark) {
                benchmark.inserts.add(inserts);
                benchmark.lookups.add(lookups);
            }
        }
    }

    @Benchmark
    public BenchTarget run(final Worker worker) {
        final long[] k = keys;
        final BenchTarget t = target;
        final Histogram insertLatency = worker.inserts;
        for (int from = cursor.getAndAdd(TimeSeriesInsertBenchmark.CHUNK); from < k.length;
             from = cursor.getAndAdd(TimeSeriesInsertBenchmark.CHUNK)) {
            final int to = Math.min(k.length, from + TimeSeriesInsertBenchmark.CHUNK);
            for (int i = from; i < to; i++) {
                final long start = System.nanoTime();
                t.put(k[i], i);
                insertLatency.recordValue(System.nanoTime() - start);
            }
        }
        final Histogram lookupLatency = worker.lookups;
        final SplittableRandom random = worker.random;
        long sum = 0;
        for (int i = n / 10 / threads; i > 0; i--) {
            final long key = k[random.nextInt(k.length)];
            final long start = System.nanoTime();
            sum += t.get(key, 0L);
            lookupLatency.recordValue(System.nanoTime() - start);
        }
        if (sum == 42) {
            throw new IllegalStateException("unlikely");
        }
        return t;
    }

    @TearDown(Level.Iteration)
    public synchronized void report() {
        target.close();
        final String line = row("insert", inserts) + System.lineSeparator() + row("lookup", lookups);
        System.out.println(System.lineSeparator() + line);
        final String csv = System.getProperty("nearsort.latency.csv");
        if (csv != null) {
            final Path path = Paths.get(csv);
            try {
                if (!Files.exists(path)) {
                    Files.writeString(path, "structure,threads,delayedPercent,iteration,operation,count,p50,p90,p99,"
                            + "p99.9,p99.99,max" + System.lineSeparator(), StandardCharsets.UTF_8);
                }
                Files.writeString(path, line + System.lineSeparator(), StandardCharsets.UTF_8,
                        StandardOpenOption.APPEND);
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        iteration++;
    }

    private String row(final String operation, final Histogram histogram) {
        final StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s,%d,%s,%d,%s,%d", structure, threads,
                delayedPercent, iteration, operation, histogram.getTotalCount()));
        for (final double p : PERCENTILES) {
            sb.append(',').append(histogram.getValueAtPercentile(p));
        }
        return sb.append(',').append(histogram.getMaxValue()).toString();
    }
}
