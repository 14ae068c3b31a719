package io.nearsort.core;

/** Receives one (key, value) entry of a {@link LongIndex} scan, without boxing. */
@FunctionalInterface
public interface LongLongConsumer {
    /**
     * Accepts one entry.
     *
     * @param key   the entry's key
     * @param value the entry's value
     */
    void accept(long key, long value);
}
