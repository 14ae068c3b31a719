package io.nearsort.jmh;

import io.nearsort.core.memory.PageArena;
import io.nearsort.examples.cli.bench.BenchTarget;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.util.SplittableRandom;

/**
 * The shared shape of the SWARE paper's mixed workload (§V, Fig. 12 and 20): the first 80% of the generated keys
 * are ingested untimed; the timed phase ingests the remaining 20% interleaved with uniformly random point lookups
 * of present keys, so that lookups make up {@link #readPercent()} of the operations. Both phases write as sinks
 * do: one {@code put} per record ({@code batch=1}), or {@code putAll} over the next {@code batch} records, with
 * the lookups falling between batches and probing keys written by earlier ones. Single shot per iteration,
 * fresh structure, and a check after each iteration that every key arrived.
 */
public abstract class MixedState {
    // Package-private for MixedWorkloadBenchmarkTest.
    long[] keys;
    long[] operations; // >= 0: write keys[i, i + batchSize) (up to n); < 0: lookup keys[~op]
    /**
     * The lookups' keys in the order of their operations ({@code keys[~op]}), drawn ahead as {@link
     * PointLookupBenchmark}'s probes are: the timed loop reads them in order instead of loading each from a random
     * slot of {@link #keys}, a cache and TLB miss per lookup (80 MB at n = 10M) that every structure paid and that
     * no index user pays for a key it already holds.
     */
    long[] probes;
    private int batchSize;
    private BenchTarget target;

    /** The keys of this trial, in arrival order. */
    protected abstract long[] generateKeys();

    /** The structure under test, by {@link Structures} name. */
    protected abstract String structure();

    /** Records per write: {@code "1"} is one {@code put} per record, N a {@code putAll} of the next N records. */
    protected abstract String batch();

    /** Lookups as a percentage of the timed operations, counted per record; in [0, 100). */
    protected abstract int readPercent();

    /** Bytes of a tree node; the papers' 4 KiB unless a benchmark makes it a parameter. */
    protected int pageSize() {
        return PageArena.DEFAULT_PAGE_SIZE;
    }

    @Setup(Level.Trial)
    public void generate() {
        keys = generateKeys();
        final int n = keys.length;
        batchSize = IngestState.parseBatch(batch(), n);
        final int preload = n / 5 * 4;
        final int writes = (n - preload + batchSize - 1) / batchSize;
        // Lookups are readPercent of the operations counted per record: a batch counts as its records' writes.
        final int reads = (int) ((long) (n - preload) * readPercent() / (100 - readPercent()));
        operations = new long[writes + reads];
        probes = new long[reads];
        int probe = 0;
        final SplittableRandom random = new SplittableRandom(11);
        int nextWrite = preload;
        for (int i = 0; i < operations.length; i++) {
            final int remainingWrites = (n - nextWrite + batchSize - 1) / batchSize;
            final boolean read = random.nextInt(operations.length - i) >= remainingWrites;
            if (read) {
                final int position = random.nextInt(nextWrite);
                operations[i] = ~(long) position;
                probes[probe++] = keys[position];
            } else {
                operations[i] = nextWrite;
                nextWrite = Math.min(n, nextWrite + batchSize);
            }
        }
    }

    @Setup(Level.Iteration)
    public void preload() {
        target = Structures.create(structure(), keys.length, Double.NaN, pageSize());
        target.write(keys, keys, 0, keys.length / 5 * 4, batchSize);
    }

    @TearDown(Level.Iteration)
    public void close() {
        if (target.size() != keys.length) {
            throw new IllegalStateException(structure() + " holds " + target.size() + " entries, expected "
                    + keys.length);
        }
        target.close();
    }

    /** The structure of the current iteration (for tests). */
    BenchTarget target() {
        return target;
    }

    /** The timed phase; returns the sum of the values looked up, so that JMH keeps the work. */
    protected long runMixed() {
        long sum = 0;
        final int n = keys.length;
        int probe = 0;
        for (final long op : operations) {
            if (op >= 0) {
                if (batchSize == 1) {
                    target.put(keys[(int) op], keys[(int) op]);
                } else {
                    target.ingest(keys, keys, (int) op, (int) Math.min(n, op + batchSize));
                }
            } else {
                sum += target.get(probes[probe++], -1L);
            }
        }
        return sum;
    }
}
