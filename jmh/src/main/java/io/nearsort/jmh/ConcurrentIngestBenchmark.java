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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Several writer threads ingesting one stream into one index at once, as a pool of sink workers would: each
 * thread claims the next {@code batch} keys of the stream from a shared cursor and writes them, with
 * {@code put} per entry when {@code batch} is 1 and {@code putAll} per claim otherwise, until the stream is
 * exhausted. The index thus sees the stream's order up to the interleaving of in-flight claims. The score is
 * one thread's single-shot time (the threads finish together); compare runs with {@code -t 1} and {@code -t 2}
 * to see how ingest scales with writers (SWARE §IV-D), against {@code ConcurrentSkipListMap}, the JDK's
 * concurrent ordered map. Only structures safe for concurrent writers are listed.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar ConcurrentIngestBenchmark -t 2
 * java -jar jmh/target/benchmarks.jar ConcurrentIngestBenchmark -t 1
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(2)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Xms8g", "-Xmx8g"})
public class ConcurrentIngestBenchmark {
    @Param({"4000000"})
    int n;

    @Param({"K5_L5"})
    Workload workload;

    @Param({"1", "500"})
    int batch;

    @Param({"SA_BPLUS", "SKIPLIST"})
    String structure;

    private long[] keys;
    private BenchTarget target;
    /** The next unclaimed position of the stream. */
    private final AtomicInteger cursor = new AtomicInteger();

    @Setup(Level.Trial)
    public void generate() {
        keys = workload.keys(n);
    }

    @Setup(Level.Iteration)
    public void createStructure() {
        target = Structures.create(structure, n);
        cursor.set(0);
    }

    @TearDown(Level.Iteration)
    public void closeStructure() {
        target.finish();
        if (target.size() != n) {
            throw new IllegalStateException(structure + " holds " + target.size() + " entries, expected " + n);
        }
        target.close();
    }

    @Benchmark
    public BenchTarget ingest() {
        final int length = keys.length;
        for (int from = cursor.getAndAdd(batch); from < length; from = cursor.getAndAdd(batch)) {
            if (batch == 1) {
                target.put(keys[from], keys[from]);
            } else {
                target.ingest(keys, keys, from, Math.min(length, from + batch));
            }
        }
        return target;
    }
}
