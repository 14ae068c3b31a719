package io.nearsort.jmh.sbtree;

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
import org.openjdk.jmh.infra.ThreadParams;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The SB-Tree paper's read and mixed workloads (§V-A, §V-B, §V-C) after building the index from the n keys of
 * {@link TimeSeriesKeys} (one {@code put} per key, untimed): nanoseconds per operation, every benchmark thread
 * ({@code -t}) issuing operations on its own.
 * <ul>
 *   <li>{@code lookup}: a key of the build, uniformly at random;</li>
 *   <li>{@code scan}: {@code Scan(startKey, count)} of Algorithm 3 from a key of the build chosen uniformly, count
 *   uniform in [10, 100] (the mixed workload's long scan);</li>
 *   <li>{@code mixed}: 50% inserts of new in-order keys (each thread continues the stream's time stamps on its own
 *   sensors, so threads interleave as sensors do), 30% long scans of 10–100 values, 10% short scans of 5–10,
 *   10% lookups (§V-A, after B<sup>link</sup>-Hash's configuration).</li>
 * </ul>
 * The baseline B+-tree is not thread-safe and runs with one thread only.
 *
 * <pre>
 * mvn -q -B package -DskipTests
 * java -jar jmh/target/benchmarks.jar sbtree.TimeSeriesReadBenchmark -t 1
 * java -jar jmh/target/benchmarks.jar sbtree.TimeSeriesReadBenchmark -t 2 -p structure=SBTREE,SKIPLIST,SA_BPLUS
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Xms8g", "-Xmx8g"})
public class TimeSeriesReadBenchmark {
    @Param({"10000000"})
    int n;

    @Param({"0"})
    double delayedPercent;

    @Param({"SBTREE", "SKIPLIST", "BPLUS", "SA_BPLUS"})
    String structure;

    long[] keys;
    BenchTarget target;
    int threads;

    @Setup(Level.Trial)
    public void build(final BenchmarkParams params) {
        threads = params.getThreads();
        if (BenchStructure.valueOf(structure) == BenchStructure.BPLUS && threads > 1) {
            throw new IllegalArgumentException("BPLUS is not thread-safe: run it with -t 1");
        }
        keys = TimeSeriesKeys.generate(n, delayedPercent, 42);
        target = BenchStructure.valueOf(structure).createForWorkload(n);
        for (int i = 0; i < keys.length; i++) {
            target.put(keys[i], i);
        }
        target.finish();
    }

    @TearDown(Level.Trial)
    public void close() {
        target.close();
    }

    /** One thread's random source and its own continuation of the stream for the mixed workload's inserts. */
    @State(Scope.Thread)
    public static class Worker {
        SplittableRandom random;
        final long[] result = new long[2];
        long time;
        int thread;
        int threads;
        int sensor;

        @Setup(Level.Trial)
        public void setUp(final ThreadParams params, final TimeSeriesReadBenchmark benchmark) {
            thread = params.getThreadIndex();
            threads = params.getThreadCount();
            random = new SplittableRandom(17 + thread);
            time = TimeSeriesKeys.FIRST_TIME + benchmark.n + 1;
            sensor = thread;
        }

        /** The next in-order key of this thread: time advances for all, sensors are split among threads. */
        long nextKey() {
            sensor += threads;
            if (sensor >= TimeSeriesKeys.SENSORS) {
                sensor = thread;
            }
            return TimeSeriesKeys.key(time++, sensor);
        }
    }

    @Benchmark
    public long lookup(final Worker worker) {
        return target.get(keys[worker.random.nextInt(keys.length)], -1L);
    }

    @Benchmark
    public long scan(final Worker worker) {
        target.scanFrom(keys[worker.random.nextInt(keys.length)], 10 + worker.random.nextInt(91), worker.result);
        return worker.result[1];
    }

    @Benchmark
    public long mixed(final Worker worker) {
        final int dice = worker.random.nextInt(100);
        if (dice < 50) {
            final long key = worker.nextKey();
            target.put(key, key);
            return key;
        }
        final long start = keys[worker.random.nextInt(keys.length)];
        if (dice < 80) {
            target.scanFrom(start, 10 + worker.random.nextInt(91), worker.result);
            return worker.result[1];
        }
        if (dice < 90) {
            target.scanFrom(start, 5 + worker.random.nextInt(6), worker.result);
            return worker.result[1];
        }
        return target.get(start, -1L);
    }
}
