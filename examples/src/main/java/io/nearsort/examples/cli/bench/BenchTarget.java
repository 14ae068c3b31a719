package io.nearsort.examples.cli.bench;

import io.nearsort.core.IndexStats;

/**
 * One instance of a benchmarked structure, behind the operations the bench phases time. Shared by
 * {@code nearsort bench} and the JMH benchmarks, so that both measure the same code paths.
 */
public interface BenchTarget extends AutoCloseable {
    /** Writes {@code keys[i] -> values[i]} for i in [from, to), in order; later writes win. */
    void ingest(long[] keys, long[] values, int from, int to);

    /**
     * Writes {@code keys[i] -> values[i]} for every i as user code does: one {@link #put} per record when
     * {@code batch} is 1, {@link #ingest} over consecutive slices of {@code batch} records otherwise (one slice
     * when {@code batch} covers the arrays: a bulk load).
     */
    default void write(final long[] keys, final long[] values, final int batch) {
        write(keys, values, 0, keys.length, batch);
    }

    /** {@link #write(long[], long[], int)} for i in [from, to) only. */
    default void write(final long[] keys, final long[] values, final int from, final int to, final int batch) {
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be >= 1 (got: " + batch + ")");
        }
        if (batch == 1) {
            for (int i = from; i < to; i++) {
                put(keys[i], values[i]);
            }
            return;
        }
        for (int start = from; start < to; ) {
            final int end = (int) Math.min(to, (long) start + batch);
            ingest(keys, values, start, end);
            start = end;
        }
    }

    /** Writes one entry (the per-record path and the read:write mix). */
    void put(long key, long value);

    /** The value of {@code key}, or {@code missing}. */
    long get(long key, long missing);

    /**
     * A batch of lookups: {@code values[i] = get(keys[i], missing)} for i in [from, to). Nearsort indexes run
     * {@link io.nearsort.core.LongIndex#getAll}; the JDK references look the keys up one by one.
     */
    default void getAll(final long[] keys, final long[] values, final int from, final int to, final long missing) {
        for (int i = from; i < to; i++) {
            values[i] = get(keys[i], missing);
        }
    }

    /**
     * Visits the entries with keys in [lo, hi] in key order; {@code result[0]} receives the count and
     * {@code result[1]} the sum of the values.
     */
    void scan(long lo, long hi, long[] result);

    /**
     * Visits up to {@code count} entries from the smallest key {@code >= from} on, in key order (SB-Tree's
     * {@code Scan(startKey, count)}, Algorithm 3); {@code result[0]} receives the count and {@code result[1]} the
     * sum of the values.
     */
    void scanFrom(long from, int count, long[] result);

    /** Makes every write durable in the structure (the SA B+-tree flushes its buffer); timed with the ingest. */
    void finish();

    /** Entries stored. */
    long size();

    /** Counters of a nearsort index, or null for the JDK references. */
    IndexStats stats();

    @Override
    void close();
}
