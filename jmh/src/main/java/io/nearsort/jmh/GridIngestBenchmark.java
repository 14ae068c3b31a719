package io.nearsort.jmh;

import io.nearsort.examples.cli.bench.BenchTarget;
import io.nearsort.core.sortedness.KLGenerator;
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
 * Ingestion across the data-sortedness benchmark's K/L grid (OSM-tree §5; the shape of SWARE Fig. 10): the
 * baseline B+-tree, the SA B+-tree (buffer 1% of n) and the SB-Tree on identical generated input, one whole ingest
 * per iteration. The speedup per cell is the ratio of two scores.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar GridIngestBenchmark -rf json -rff grid.json
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Xms6g", "-Xmx6g"})
public class GridIngestBenchmark extends IngestState {
    @Param({"10000000"})
    int n;

    @Param({"0", "1", "5", "10", "15", "25", "50"})
    double kPercent;

    @Param({"1", "5", "10", "25", "50"})
    double lPercent;

    @Param({"BPLUS", "SA_BPLUS", "SBTREE"})
    String structure;

    @Override
    protected long[] generateKeys() {
        return KLGenerator.generate(n, kPercent, lPercent, 42);
    }

    @Param({"1", "500", IngestState.BULK})
    String batch;

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
