package io.nearsort.examples.cli.keys;

import java.util.Arrays;

/** A growable {@code long[]} that collects keys read from a stream of unknown length. */
public final class LongArrayBuilder implements KeySink {
    /** The largest array the JVM reliably allocates. */
    static final int MAX_LENGTH = Integer.MAX_VALUE - 8;

    private long[] values = new long[1024];
    private int size;

    @Override
    public void accept(final long key) {
        if (size == values.length) {
            if (size == MAX_LENGTH) {
                throw new IllegalStateException("more than " + MAX_LENGTH
                        + " keys do not fit in memory; use profile --window for unbounded input");
            }
            values = Arrays.copyOf(values, (int) Math.min(MAX_LENGTH, 2L * size));
        }
        values[size++] = key;
    }

    public int size() {
        return size;
    }

    /** The keys collected so far, in arrival order (a trimmed copy). */
    public long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
