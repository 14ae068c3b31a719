package io.nearsort.jmh;

import io.nearsort.examples.cli.bench.BenchTarget;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
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
 * Uniformly random point lookups of present keys after ingesting n generated keys; nanoseconds per lookup.
 * {@code lookup} issues independent lookups, so the processor overlaps the cache misses of consecutive ones
 * (throughput); {@code lookupLatency} picks each probe from the previous lookup's value, so every lookup waits
 * for the one before (latency, what SWARE §V reports per query); {@code lookupBatch} looks the same probes up in
 * batches of {@value #BATCH} ({@code LongIndex.getAll}; the JDK maps and fastutil key by key), as a Kafka Connect
 * task could for the records of one {@code put}. The keys are written one {@code put} per record, which leaves the
 * SA B+-tree's buffer full when n is a multiple of 100.
 *
 * <pre>
 * mvn -q -B package -DskipTests
 * java -jar jmh/target/benchmarks.jar PointLookupBenchmark -p n=10000000 -rf json -rff lookup.json
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
public class PointLookupBenchmark {
    private static final int PROBES = 1 << 16;
    /** Keys per {@link #lookupBatch} call: Kafka Connect's default {@code max.poll.records}. */
    static final int BATCH = 500;

    @Param({"10000000"})
    int n;

    @Param({"K5_L5", "LATE_D05", "SCRAMBLED"})
    Workload workload;

    @Param({"BPLUS", "BPLUS_TAIL_BULK", "SA_BPLUS", "TREEMAP", "SKIPLIST", Structures.FASTUTIL_AVL})
    String structure;

    private BenchTarget target;
    private long[] probes;
    private final long[] values = new long[PROBES];

    @Setup(Level.Trial)
    public void ingest() {
        final long[] keys = workload.keys(n);
        target = Structures.create(structure, n);
        // One put per record, as sinks write: with n a multiple of the buffer's capacity (1% of n) the SA
        // B+-tree's buffer is left full, the state in which its lookups cost most.
        target.write(keys, keys, 1);
        final SplittableRandom random = new SplittableRandom(7);
        probes = new long[PROBES];
        for (int i = 0; i < PROBES; i++) {
            probes[i] = keys[random.nextInt(n)];
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        target.close();
    }

    @Benchmark
    @OperationsPerInvocation(PROBES)
    public long lookupLatency() {
        // Ingestion stored every key as its own value: the next probe depends on the value just read.
        long previous = 0;
        for (int i = 0; i < PROBES; i++) {
            previous = target.get(probes[(int) ((previous + i) & (PROBES - 1))], -1L);
        }
        return previous;
    }

    @Benchmark
    @OperationsPerInvocation(PROBES)
    public long lookup() {
        long sum = 0;
        for (final long probe : probes) {
            sum += target.get(probe, -1L);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(PROBES)
    public long lookupBatch() {
        for (int from = 0; from < PROBES; from += BATCH) {
            target.getAll(probes, values, from, Math.min(PROBES, from + BATCH), -1L);
        }
        long sum = 0;
        for (final long value : values) {
            sum += value;
        }
        return sum;
    }
}
