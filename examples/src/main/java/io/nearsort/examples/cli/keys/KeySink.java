package io.nearsort.examples.cli.keys;

/** Receives keys in arrival order. */
@FunctionalInterface
public interface KeySink {
    void accept(long key);
}
