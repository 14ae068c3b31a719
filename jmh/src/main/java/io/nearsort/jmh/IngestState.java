package io.nearsort.jmh;

import io.nearsort.core.memory.SlabPool;
import io.nearsort.examples.cli.bench.BenchTarget;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The shared shape of the single-shot ingest benchmarks: keys generated once per trial, a fresh structure per
 * iteration, the stream written as a user's code writes it ({@link #batch()}), and a check after each iteration
 * that every key arrived. The timed ingest ends with {@link BenchTarget#finish()} (the SA B+-tree flushes its
 * buffer), so every structure holds every entry in its final form when the clock stops.
 */
public abstract class IngestState {
    /** {@link #batch()} value for the whole stream in one {@code putAll}: a bulk-load figure, not a sink's. */
    public static final String BULK = "all";
    /**
     * {@link #memory()}: every iteration's index is built in slabs earlier, closed indexes of the fork returned to
     * the process-wide {@link SlabPool} (bounded at 8 GiB here), the steady state of a process that rotates
     * indexes. The first warm-up iteration still gets fresh memory.
     */
    public static final String RECYCLED = "recycled";
    /**
     * {@link #memory()}: pooling off, every iteration's index gets its slabs from the C allocator, which maps
     * slabs of 32 MiB and more afresh (a page fault per page on first write), the first index of a process.
     * Smaller slabs may come from memory the allocator kept.
     */
    public static final String FRESH = "fresh";

    /** {@link #flushFraction()}: the SA builder's default flush fraction (the paper's 0.5). */
    public static final String DEFAULT_FLUSH = "default";

    private long[] keys;
    private BenchTarget target;
    private int batchSize;

    /** The keys of this trial, in arrival order. */
    protected abstract long[] generateKeys();

    /** The structure under test, by {@link Structures} name. */
    protected abstract String structure();

    /**
     * How the stream is written: {@code "1"} is one {@code put} per record (a Flink {@code SinkWriter}),
     * a number N is {@code putAll} over consecutive slices of N records (Kafka Connect's {@code put} receives
     * up to {@code max.poll.records} = 500), {@link #BULK} one {@code putAll} over the whole stream.
     */
    protected abstract String batch();

    /** {@link #RECYCLED} (default) or {@link #FRESH}. */
    protected String memory() {
        return RECYCLED;
    }

    /** The SA trees' flush fraction: {@link #DEFAULT_FLUSH} (default) or a number in (0, 1]. */
    protected String flushFraction() {
        return DEFAULT_FLUSH;
    }

    @Setup(Level.Trial)
    public void generate() {
        configureSlabPool(memory());
        keys = generateKeys();
        batchSize = parseBatch(batch(), keys.length);
    }

    @Setup(Level.Iteration)
    public void createStructure() {
        final String flush = flushFraction();
        target = Structures.create(structure(), keys.length,
                DEFAULT_FLUSH.equals(flush) ? Double.NaN : Double.parseDouble(flush));
    }

    @TearDown(Level.Iteration)
    public void closeStructure() {
        if (target.size() != keys.length) {
            throw new IllegalStateException(structure() + " holds " + target.size() + " entries, expected "
                    + keys.length);
        }
        target.close();
    }

    /** One whole ingest in the configured batches; returns the structure so that JMH keeps the work. */
    protected BenchTarget ingestAll() {
        target.write(keys, keys, batchSize);
        target.finish();
        return target;
    }

    /**
     * Sets the bound of the fork's shared slab pool, read when the first index is built (each fork is a fresh
     * JVM, and nothing builds an index before the trial's setup).
     */
    static void configureSlabPool(final String memory) {
        final String bound;
        if (RECYCLED.equals(memory)) {
            bound = Long.toString(8L << 30);
        } else if (FRESH.equals(memory)) {
            bound = "0";
        } else {
            throw new IllegalArgumentException("memory must be '" + RECYCLED + "' or '" + FRESH + "' (got: " + memory
                    + ")");
        }
        System.setProperty(SlabPool.MAX_BYTES_PROPERTY, bound);
        if (SlabPool.shared().maxBytes() != Long.parseLong(bound)) {
            throw new IllegalStateException("the shared slab pool was created before the trial's setup");
        }
    }

    /** {@code "all"} as the whole stream, else a positive record count. */
    static int parseBatch(final String batch, final int n) {
        if (BULK.equals(batch)) {
            return Math.max(1, n);
        }
        try {
            final int size = Integer.parseInt(batch);
            if (size >= 1) {
                return size;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("batch must be a positive record count or '" + BULK + "' (got: "
                + batch + ")");
    }
}
