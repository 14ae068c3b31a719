package io.nearsort.jmh;

import io.nearsort.examples.cli.bench.BenchTarget;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Ingestion of n generated keys into each structure: the time of one whole ingest (single shot), fresh
 * structure every iteration, written one {@code put} per record, in {@code putAll} batches of 500, or as one
 * whole-array {@code putAll} ({@code batch=all}, a bulk-load figure), in recycled memory (the steady state of a
 * process that closes earlier indexes) or fresh memory (the first index of a process). Forks run with Agrona's
 * bounds checks on, as users run.
 *
 * <pre>
 * mvn -q -B package -DskipTests
 * java -jar jmh/target/benchmarks.jar IngestBenchmark -p n=10000000 -p batch=1 -rf json -rff ingest.json
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// Three warm-up ingests: with one, the SA B+-tree's first measured ingest at K=5%/L=5% was still 25% slower than
// the next two (its flush cycle has more code for the JIT to compile than a baseline insert).
@Warmup(iterations = 3)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Xms8g", "-Xmx8g"})
public class IngestBenchmark extends IngestState {
    @Param({"10000000"})
    int n;

    @Param({"SORTED", "K5_L5", "LATE_D05", "SCRAMBLED"})
    Workload workload;

    @Param({"BPLUS", "BPLUS_TAIL_BULK", "SA_BPLUS", "SBTREE", "TREEMAP", "SKIPLIST", Structures.FASTUTIL_AVL})
    String structure;

    @Override
    protected long[] generateKeys() {
        return workload.keys(n);
    }

    @Param({"1", "500", IngestState.BULK})
    String batch;

    @Param({IngestState.RECYCLED, IngestState.FRESH})
    String memory;

    /**
     * The share of the SWARE buffer a flush cycle sends to the tree, for the SA trees: {@link
     * IngestState#DEFAULT_FLUSH} (the builder's, the paper's 0.5) or a number in (0, 1]. Compare
     * {@code -p flushFraction=default,0.75} in one run: each fork measures both.
     */
    @Param({IngestState.DEFAULT_FLUSH})
    String flushFraction;

    @Override
    protected String memory() {
        return memory;
    }

    @Override
    protected String flushFraction() {
        return flushFraction;
    }

    @Override
    protected String structure() {
        return structure;
    }

    @Override
    protected String batch() {
        return batch;
    }

    @Benchmark
    public BenchTarget ingest() {
        return ingestAll();
    }
}
