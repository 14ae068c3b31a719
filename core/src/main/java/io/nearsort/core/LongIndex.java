package io.nearsort.core;

import java.util.NavigableMap;

/**
 * An ordered map from {@code long} keys to {@code long} values: the shape every structure in nearsort offers.
 *
 * <p>Every {@code long} is a valid key and a valid value, {@link Long#MIN_VALUE} and {@link Long#MAX_VALUE}
 * included; no value is reserved as a sentinel. Writes are <em>blind</em> ({@link #put} and {@link #remove} do
 * not report the previous state), which lets write-optimised structures such as the SWARE buffer defer work;
 * {@link #asNavigableMap()} offers the full {@code java.util} contract on top.
 *
 * <p>Each implementation's Javadoc says where its memory lives. Tree nodes and blocks are off-heap, in a
 * {@link io.nearsort.core.memory.PageArena} ({@link IndexStats#BYTES_ALLOCATED}); the SA trees' SWARE buffer is
 * on the Java heap ({@link IndexStats#HEAP_BYTES}: about 20 MiB for the default capacity of 2<sup>20</sup>
 * entries while nothing was sorted, up to about 150 bytes per entry of capacity once flushes sort it), so size
 * {@code -Xmx} for it. The trees' builders bound their off-heap bytes ({@code maxBytes}: off by default), the
 * buffer's capacity bounds its heap. {@link #close()} frees every off-heap byte; any later call throws
 * {@link IllegalStateException}. Each implementation states its thread-safety.
 *
 * <p>The off-heap structures need {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} on the JVM's
 * command line (Agrona's memory access; {@code =org.agrona} instead when Agrona is on the module path).
 */
public interface LongIndex extends AutoCloseable {
    /**
     * Inserts {@code key} or overwrites its value; the latest write wins.
     *
     * @param key the key; any long, {@link Long#MIN_VALUE} and {@link Long#MAX_VALUE} included
     * @param value the value to store; any long
     */
    void put(long key, long value);

    /**
     * Puts {@code keys[i] → values[i]} for {@code from <= i < to}, in that order (so the last of equal keys wins),
     * exactly as the same sequence of {@link #put} calls would. Structures that can do better with a batch
     * (the SA B+-tree takes its lock once per batch and copies in-order runs whole) override it.
     *
     * @param keys the keys; only {@code keys[from, to)} is read
     * @param values the values, index for index with {@code keys}; only {@code values[from, to)} is read
     * @param from the first index of the batch, inclusive, {@code >= 0}
     * @param to the end of the batch, exclusive, from {@code from} to the length of the shorter array
     * @throws IndexOutOfBoundsException if {@code [from, to)} is not within both arrays
     */
    default void putAll(final long[] keys, final long[] values, final int from, final int to) {
        checkBatch(keys, values, from, to);
        for (int i = from; i < to; i++) {
            put(keys[i], values[i]);
        }
    }

    /**
     * Checks the range of a {@link #putAll} batch, naming what is wrong. Internal: for implementations of this
     * interface in nearsort; not part of the API, may change in any release.
     *
     * @param keys the batch's keys
     * @param values the batch's values
     * @param from the first index of the batch, inclusive
     * @param to the end of the batch, exclusive
     * @throws IndexOutOfBoundsException if {@code [from, to)} is not within both arrays
     */
    static void checkBatch(final long[] keys, final long[] values, final int from, final int to) {
        checkRange("putAll", keys, values, from, to);
    }

    /**
     * Checks that {@code [from, to)} is a range of both arrays, naming {@code operation} in the exception.
     * Internal, as {@link #checkBatch} is.
     *
     * @param operation the method checked, for the message
     * @param keys the keys
     * @param values the values
     * @param from the first index, inclusive
     * @param to the end, exclusive
     * @throws IndexOutOfBoundsException if {@code [from, to)} is not within both arrays
     */
    static void checkRange(final String operation, final long[] keys, final long[] values, final int from,
                           final int to) {
        if (from < 0 || from > to || to > keys.length || to > values.length) {
            throw new IndexOutOfBoundsException(operation + " range [" + from + ", " + to + ") is not within keys["
                    + keys.length + "] and values[" + values.length + "]");
        }
    }

    /**
     * The value of {@code key}, or {@code defaultValue} when absent.
     *
     * @param key the key to look up; any long
     * @param defaultValue what to return when {@code key} is absent; any long
     * @return the value of {@code key}, or {@code defaultValue} when absent
     */
    long getOrDefault(long key, long defaultValue);

    /**
     * Whether {@code key} is present.
     *
     * @param key the key to look up; any long
     * @return true when the index holds {@code key}
     */
    boolean containsKey(long key);

    /**
     * Looks up a batch: {@code values[i] = getOrDefault(keys[i], defaultValue)} for {@code from <= i < to}, as
     * the same sequence of {@link #getOrDefault} calls would (in the manner of RocksDB's {@code MultiGet}).
     * The SA trees override it to take their read guard (a read indicator's mark or a shared lock) once per chunk
     * of keys rather than once per key, which also lets the processor overlap more of the keys' cache misses;
     * each override says what it guarantees about the batch as a whole.
     * @param keys the keys to look up; only {@code keys[from, to)} is read
     * @param values receives the results, index for index with {@code keys}; only {@code values[from, to)} is
     *               written (it may be {@code keys} itself)
     * @param from the first index of the batch, inclusive, {@code >= 0}
     * @param to the end of the batch, exclusive, from {@code from} to the length of the shorter array
     * @param defaultValue what to write for a key that is absent; any long
     * @throws IndexOutOfBoundsException if {@code [from, to)} is not within both arrays
     */
    default void getAll(final long[] keys, final long[] values, final int from, final int to,
                        final long defaultValue) {
        checkRange("getAll", keys, values, from, to);
        for (int i = from; i < to; i++) {
            values[i] = getOrDefault(keys[i], defaultValue);
        }
    }

    /**
     * Removes {@code key} if present.
     *
     * @param key the key to remove; any long, absent keys included
     */
    void remove(long key);

    /**
     * Visits the entries with {@code lo <= key <= hi} in ascending key order.
     *
     * <p>The consumer must not modify this index; implementations detect it where they can and throw
     * {@link java.util.ConcurrentModificationException}.
     *
     * @param lo the smallest key to visit, inclusive
     * @param hi the largest key to visit, inclusive
     * @param consumer receives each entry's key and value
     * @return the number of entries visited; 0 when {@code lo > hi}
     */
    long forEachInRange(long lo, long hi, LongLongConsumer consumer);

    /**
     * The exact number of entries.
     *
     * @return the number of keys present, {@code >= 0}
     */
    long size();

    /**
     * Whether the index holds no entry.
     *
     * @return true when {@link #size()} is 0
     */
    default boolean isEmpty() {
        return size() == 0;
    }

    /**
     * A new cursor over this index, not yet positioned.
     *
     * @return a new, unpositioned cursor, confined to the calling thread
     */
    LongCursor cursor();

    /**
     * A cheap snapshot of the index's counters.
     *
     * @return the counters as of this call
     */
    IndexStats stats();

    /**
     * A live {@link NavigableMap} view honouring the {@code java.util} contract as {@link java.util.TreeMap}
     * does; it rejects {@code null} keys and values with {@link NullPointerException}. The view has the
     * thread-safety of this index.
     *
     * @return a live map view backed by this index
     */
    NavigableMap<Long, Long> asNavigableMap();

    /** Frees every off-heap byte of this index. Idempotent. */
    @Override
    void close();
}
