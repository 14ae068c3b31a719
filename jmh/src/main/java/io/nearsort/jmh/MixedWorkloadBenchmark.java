package io.nearsort.jmh;

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
 * The SWARE paper's mixed workload (§V, Fig. 12; {@link MixedState}) on the benchmark's named workloads.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar MixedWorkloadBenchmark -rf json -rff mixed.json
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
public class MixedWorkloadBenchmark extends MixedState {
    @Param({"10000000"})
    int n;

    @Param({"SORTED", "K5_L5", "SCRAMBLED"})
    Workload workload;

    @Param({"10", "50", "90"})
    int readPercent;

    @Param({"BPLUS", "SA_BPLUS", "SA_BPLUS_SW", "TREEMAP"})
    String structure;

    /** Records per write: 1 is one {@code put} per record, N a {@code putAll} of the next N records. */
    @Param({"1", "500"})
    String batch;

    @Override
    protected long[] generateKeys() {
        return workload.keys(n);
    }

    @Override
    protected String structure() {
        return structure;
    }

    @Override
    protected String batch() {
        return batch;
    }

    @Override
    protected int readPercent() {
        return readPercent;
    }

    @Benchmark
    public long mixed() {
        return runMixed();
    }
}
