package io.nearsort.examples.cli.bench;

/**
 * Keys in arrival order with a name. The value written with {@code keys[i]} is its arrival position {@code i}, so
 * that reads can tell which of several writes to one key won.
 *
 * @param name      shown in tables, e.g. {@code K=5% L=5%} or a file name
 * @param kPercent  K of the generator, NaN for keys read from a file
 * @param lPercent  L of the generator, NaN for keys read from a file
 * @param scrambled whether the generator's scrambled mode made it
 * @param keys      the keys in arrival order
 */
public record Workload(String name, double kPercent, double lPercent, boolean scrambled, long[] keys) {
    /** The values written: arrival positions 0..n-1. */
    long[] arrivalValues() {
        final long[] values = new long[keys.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = i;
        }
        return values;
    }
}
