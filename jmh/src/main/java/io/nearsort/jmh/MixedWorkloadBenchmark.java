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
 * so that lookups make up {@code readPercent} of the operations. Both phases write as sinks do: one {@code put}
 * per record ({@code batch=1}), or {@code putAll} over the next {@code batch} records, with the lookups falling
 * between batches and probing keys written by earlier ones. Single shot per iteration, fresh structure.
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

    @Param({"BPLUS", "SA_BPLUS", "SA_BPLUS_SW", "TREEMAP"})
    String structure;

    /** Records per write: 1 is one {@code put} per record, N a {@code putAll} of the next N records. */
    @Param({"1", "500"})
    String batch;

    private int batchSize;

    // Package-private for MixedWorkloadBenchmarkTest.
    long[] keys;
    long[] operations; // >= 0: write keys[i, i + batchSize) (up to n); < 0: lookup keys[~op]
    private BenchTarget target;

    @Setup(Level.Trial)
    public void generate() {
        keys = workload.keys(n);
        batchSize = IngestState.parseBatch(batch, n);
        final int preload = n / 5 * 4;
        final int writes = (n - preload + batchSize - 1) / batchSize;
        // Lookups are readPercent of the operations counted per record: a batch counts as its records' writes.
        final int reads = (int) ((long) (n - preload) * readPercent / (100 - readPercent));
        operations = new long[writes + reads];
        final SplittableRandom random = new SplittableRandom(11);
        int nextWrite = preload;
        for (int i = 0; i < operations.length; i++) {
            final int remainingWrites = (n - nextWrite + batchSize - 1) / batchSize;
            final boolean read = random.nextInt(operations.length - i) >= remainingWrites;
            if (read) {
                operations[i] = ~(long) random.nextInt(nextWrite);
            } else {
                operations[i] = nextWrite;
                nextWrite = Math.min(n, nextWrite + batchSize);
            }
        }
    }

    @Setup(Level.Iteration)
    public void preload() {
        target = Structures.create(structure, n);
        target.write(keys, keys, 0, n / 5 * 4, batchSize);
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
                if (batchSize == 1) {
                    target.put(keys[(int) op], keys[(int) op]);
                } else {
                    target.ingest(keys, keys, (int) op, (int) Math.min(n, op + batchSize));
                }
            } else {
                sum += target.get(keys[(int) ~op], -1L);
            }
        }
        return sum;
    }
}
