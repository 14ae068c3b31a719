package io.nearsort.jmh.sbtree;

import io.nearsort.core.IndexStats;
import io.nearsort.examples.cli.bench.BenchStructure;
import io.nearsort.examples.cli.bench.BenchTarget;
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

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The SB-Tree paper's insert-only workload (§V-B-1, §V-C-1, §V-D): the n keys of {@link TimeSeriesKeys}, with
 * 0–50% delayed data, inserted by every benchmark thread ({@code -t}), one {@code put} per key. The threads claim
 * the stream in chunks of 16 keys from a shared cursor, so the index sees the arrival order up to the interleaving
 * of the chunks in flight, as with sensors sending to several worker threads. The score is the single-shot time of
 * one whole ingest (the threads finish together); throughput is n / score. After each iteration the structure must
 * hold every distinct key; nearsort structures print their off-heap bytes per entry ({@code bytes/entry}).
 * The baseline B+-tree is not thread-safe and runs with one thread only.
 *
 * <pre>
 * mvn -q -B package -DskipTests
 * java -jar jmh/target/benchmarks.jar sbtree.TimeSeriesInsertBenchmark -t 1
 * java -jar jmh/target/benchmarks.jar sbtree.TimeSeriesInsertBenchmark -t 2 -p structure=SBTREE,SKIPLIST,SA_BPLUS
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Xms8g", "-Xmx8g"})
public class TimeSeriesInsertBenchmark {
    /** Keys per chunk a thread claims. */
    static final int CHUNK = 16;

    @Param({"10000000"})
    int n;

    @Param({"0", "10", "30", "50"})
    double delayedPercent;

    @Param({"SBTREE", "SKIPLIST", "BPLUS", "SA_BPLUS"})
    String structure;

    private long[] keys;
    private int distinct;
    private BenchTarget target;
    private final AtomicInteger cursor = new AtomicInteger();

    @Setup(Level.Trial)
    public void generate(final BenchmarkParams params) {
        if (BenchStructure.valueOf(structure) == BenchStructure.BPLUS && params.getThreads() > 1) {
            throw new IllegalArgumentException("BPLUS is not thread-safe: run it with -t 1");
        }
        keys = TimeSeriesKeys.generate(n, delayedPercent, 42);
        distinct = TimeSeriesKeys.distinct(keys);
    }

    @Setup(Level.Iteration)
    public void createStructure() {
        target = BenchStructure.valueOf(structure).createForWorkload(n);
        cursor.set(0);
    }

    @TearDown(Level.Iteration)
    public void checkAndClose() {
        target.finish();
        if (target.size() != distinct) {
            throw new IllegalStateException(structure + " holds " + target.size() + " entries, expected " + distinct);
        }
        final IndexStats stats = target.stats();
        if (stats != null) {
            System.out.printf(Locale.ROOT, "%n%s: %.2f bytes/entry, %s%n", structure,
                    (double) stats.bytesInUse() / distinct, stats);
        }
        target.close();
    }

    @Benchmark
    public BenchTarget insert() {
        final long[] k = keys;
        final int length = k.length;
        for (int from = cursor.getAndAdd(CHUNK); from < length; from = cursor.getAndAdd(CHUNK)) {
            final int to = Math.min(length, from + CHUNK);
            for (int i = from; i < to; i++) {
                target.put(k[i], i);
            }
        }
        return target;
    }
}
