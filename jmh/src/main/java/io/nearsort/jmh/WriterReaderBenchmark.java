package io.nearsort.jmh;

import io.nearsort.examples.cli.bench.BenchTarget;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
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

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One writer and one reader thread on one index, as a sink task shares its index with query threads: the writer
 * streams the workload ({@code put} per record, or {@code putAll} per {@code batch} records) while the reader
 * looks up random keys already written ({@code lookups} group), looks up {@value #LOOKUP_BATCH} of them per call
 * with {@code getAll} ({@code batchLookups} group: a reader that batches, such as a join's probe side), or scans 64
 * keys from one ({@code scans} group). JMH reports each thread's throughput: {@code write*} in calls per
 * microsecond (records when {@code batch} is 1, batches of {@code batch} records otherwise), {@code lookup} or
 * {@code scan} in reads per microsecond, and {@code lookupBatch} in batches per microsecond (times
 * {@value #LOOKUP_BATCH} for lookups). The writer replays the stream shifted above its largest key when it
 * reaches the end, so the stream's sortedness holds for the whole iteration; every iteration starts from an
 * empty structure. Only structures that allow a read concurrent with a write are listed; the baseline B+-tree
 * takes part behind a read-write lock ({@link Structures#BPLUS_RWLOCK}).
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar WriterReaderBenchmark -p workload=LATE_D05 -rf json -rff writer-reader.json
 * </pre>
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Xms8g", "-Xmx8g"})
public class WriterReaderBenchmark {
    private static final int SCAN_LENGTH = 64;
    /** Keys per {@code getAll} of the {@code batchLookups} group's reader. */
    static final int LOOKUP_BATCH = 500;
    private static final VarHandle WRITTEN;

    static {
        try {
            WRITTEN = MethodHandles.lookup().findVarHandle(WriterReaderBenchmark.class, "written", int.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Param({"10000000"})
    int n;

    @Param({"SORTED", "K5_L5", "LATE_D05"})
    Workload workload;

    @Param({"1", "500"})
    String batch;

    @Param({Structures.BPLUS_RWLOCK, "SA_BPLUS", "SA_BPLUS_SW", "SKIPLIST"})
    String structure;

    private long[] keys;
    private long shift;
    private int batchSize;
    private long[] slice;
    private BenchTarget target;

    // Writer-owned.
    private int cursor;
    private long round;
    private long total;
    /** Entries of the first pass written so far, published with release stores for the reader. */
    @SuppressWarnings("unused")
    private int written;

    /** The reader's own random probes and scan result. */
    @State(Scope.Thread)
    public static class Reader {
        final SplittableRandom random = new SplittableRandom(11);
        final long[] result = new long[2];
        final long[] batchKeys = new long[LOOKUP_BATCH];
        final long[] batchValues = new long[LOOKUP_BATCH];
    }

    @Setup(Level.Trial)
    public void generate() {
        IngestState.configureSlabPool(IngestState.RECYCLED);
        keys = workload.keys(n);
        long max = Long.MIN_VALUE;
        for (final long key : keys) {
            max = Math.max(max, key);
        }
        shift = max;
        batchSize = IngestState.parseBatch(batch, n);
        if (batchSize == n) {
            throw new IllegalArgumentException("batch=all is a bulk load; this benchmark streams (use 1 or N)");
        }
        slice = new long[batchSize];
    }

    @Setup(Level.Iteration)
    public void createStructure() {
        target = Structures.create(structure, n);
        cursor = 0;
        round = 0;
        total = 0;
        WRITTEN.setRelease(this, 0);
    }

    @TearDown(Level.Iteration)
    public void closeStructure() {
        target.finish();
        if (target.size() != total) {
            throw new IllegalStateException(structure + " holds " + target.size() + " entries, expected " + total);
        }
        target.close();
    }

    @Benchmark
    @Group("lookups")
    @GroupThreads(1)
    public void writeWhileLookingUp() {
        write();
    }

    @Benchmark
    @Group("lookups")
    @GroupThreads(1)
    public long lookup(final Reader reader) {
        final int visible = (int) WRITTEN.getAcquire(this);
        if (visible == 0) {
            return 0;
        }
        final long key = keys[reader.random.nextInt(visible)];
        final long value = target.get(key, Long.MIN_VALUE);
        if (value == Long.MIN_VALUE) {
            throw new IllegalStateException(structure + " lost key " + key + " after it was written");
        }
        return value;
    }

    @Benchmark
    @Group("batchLookups")
    @GroupThreads(1)
    public void writeWhileLookingUpBatches() {
        write();
    }

    @Benchmark
    @Group("batchLookups")
    @GroupThreads(1)
    public long lookupBatch(final Reader reader) {
        final int visible = (int) WRITTEN.getAcquire(this);
        if (visible == 0) {
            return 0;
        }
        for (int i = 0; i < LOOKUP_BATCH; i++) {
            reader.batchKeys[i] = keys[reader.random.nextInt(visible)];
        }
        target.getAll(reader.batchKeys, reader.batchValues, 0, LOOKUP_BATCH, Long.MIN_VALUE);
        long sum = 0;
        for (int i = 0; i < LOOKUP_BATCH; i++) {
            if (reader.batchValues[i] == Long.MIN_VALUE) {
                throw new IllegalStateException(structure + " lost key " + reader.batchKeys[i]
                        + " after it was written");
            }
            sum += reader.batchValues[i];
        }
        return sum;
    }

    @Benchmark
    @Group("scans")
    @GroupThreads(1)
    public void writeWhileScanning() {
        write();
    }

    @Benchmark
    @Group("scans")
    @GroupThreads(1)
    public long scan(final Reader reader) {
        final int visible = (int) WRITTEN.getAcquire(this);
        if (visible == 0) {
            return 0;
        }
        final long from = keys[reader.random.nextInt(visible)];
        target.scan(from, from + SCAN_LENGTH - 1, reader.result);
        return reader.result[1];
    }

    /** The next record, or the next {@code batch} records, of the stream. */
    private void write() {
        final long offset = round * shift;
        if (batchSize == 1) {
            final long key = keys[cursor] + offset;
            target.put(key, key);
            advance(1);
            return;
        }
        final int length = Math.min(batchSize, n - cursor);
        for (int i = 0; i < length; i++) {
            slice[i] = keys[cursor + i] + offset;
        }
        target.ingest(slice, slice, 0, length);
        advance(length);
    }

    private void advance(final int length) {
        cursor += length;
        total += length;
        if (round == 0) {
            WRITTEN.setRelease(this, cursor);
        }
        if (cursor == n) {
            cursor = 0;
            round++;
        }
    }
}
