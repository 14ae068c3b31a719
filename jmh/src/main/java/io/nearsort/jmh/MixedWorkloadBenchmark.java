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
 * The SWARE paper's mixed workload (§V, Fig. 12): the first 80% of the generated keys are ingested untimed;
 * the timed phase ingests the remaining 20% interleaved with uniformly random point lookups of present keys,
 * so that lookups make up {@code readPercent} of the operations. Single shot per iteration, fresh structure.
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
public class MixedWorkloadBenchmark {
    @Param({"10000000"})
    int n;

    @Param({"SORTED", "K5_L5", "SCRAMBLED"})
    Workload workload;

    @Param({"10", "50", "90"})
    int readPercent;

    @Param({"BPLUS", "SA_BPLUS", "TREEMAP"})
    String structure;

    private long[] keys;
    private long[] operations; // >= 0: insert keys[i]; < 0: lookup keys[~op]
    private BenchTarget target;

    @Setup(Level.Trial)
    public void generate() {
        keys = workload.keys(n);
        final int preload = n / 5 * 4;
        final int inserts = n - preload;
        final int reads = (int) ((long) inserts * readPercent / (100 - readPercent));
        operations = new long[inserts + reads];
        final SplittableRandom random = new SplittableRandom(11);
        int nextInsert = preload;
        for (int i = 0; i < operations.length; i++) {
            final int remainingInserts = n - nextInsert;
            final boolean read = random.nextInt(operations.length - i) >= remainingInserts;
            operations[i] = read ? ~(long) random.nextInt(nextInsert) : nextInsert++;
        }
    }

    @Setup(Level.Iteration)
    public void preload() {
        target = Structures.create(structure, n);
        target.ingest(keys, keys, 0, n / 5 * 4);
    }

    @TearDown(Level.Iteration)
    public void close() {
        if (target.size() != n) {
            throw new IllegalStateException(structure + " holds " + target.size() + " entries, expected " + n);
        }
        target.close();
    }

    @Benchmark
    public long mixed() {
        long sum = 0;
        for (final long op : operations) {
            if (op >= 0) {
                target.put(keys[(int) op], keys[(int) op]);
            } else {
                sum += target.get(keys[(int) ~op], -1L);
            }
        }
        return sum;
    }
}
