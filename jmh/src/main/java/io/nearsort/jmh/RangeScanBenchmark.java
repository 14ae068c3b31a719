package io.nearsort.jmh;

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

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Range scans of a given selectivity (fraction of the key domain 1..n) at random positions after ingesting n
 * generated keys, written one {@code put} per record or in {@code putAll} batches of {@code batch} records as
 * sinks write them; microseconds per scan. The SA B+-tree's buffer is left as ingestion left it (not flushed).
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar RangeScanBenchmark -rf json -rff range.json
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Xms8g", "-Xmx8g"})
public class RangeScanBenchmark {
    @Param({"10000000"})
    int n;

    @Param({"K5_L5"})
    Workload workload;

    @Param({"0.0001", "0.01", "0.1"})
    double selectivity;

    @Param({"BPLUS", "SA_BPLUS", "SA_BPLUS_SW", "TREEMAP"})
    String structure;

    /** How the keys were written: records per {@code putAll} (1: one {@code put} per record). */
    @Param({"1", "500"})
    String batch;

    private BenchTarget target;
    private final long[] visited = new long[2];
    private final SplittableRandom random = new SplittableRandom(5);
    private long width;

    @Setup(Level.Trial)
    public void ingest() {
        final long[] keys = workload.keys(n);
        target = Structures.create(structure, n);
        target.write(keys, keys, IngestState.parseBatch(batch, n));
        width = Math.max(1, (long) (selectivity * n));
    }

    @TearDown(Level.Trial)
    public void close() {
        target.close();
    }

    @Benchmark
    public long scan() {
        final long lo = 1 + random.nextLong(n - width + 1);
        target.scan(lo, lo + width - 1, visited);
        return visited[1]; // the sum of the values visited
    }
}
