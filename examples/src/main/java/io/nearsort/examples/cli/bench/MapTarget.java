package io.nearsort.examples.cli.bench;

import io.nearsort.core.IndexStats;

import java.util.Map;
import java.util.NavigableMap;

/** A JDK {@link NavigableMap} of boxed longs, the reference users compare against. */
final class MapTarget implements BenchTarget {
    private final NavigableMap<Long, Long> map;

    MapTarget(final NavigableMap<Long, Long> map) {
        this.map = map;
    }

    @Override
    public void ingest(final long[] keys, final long[] values, final int from, final int to) {
        for (int i = from; i < to; i++) {
            map.put(keys[i], values[i]);
        }
    }

    @Override
    public void put(final long key, final long value) {
        map.put(key, value);
    }

    @Override
    public long get(final long key, final long missing) {
        final Long value = map.get(key);
        return value == null ? missing : value;
    }

    @Override
    public void scan(final long lo, final long hi, final long[] result) {
        long count = 0;
        long sum = 0;
        for (final Map.Entry<Long, Long> entry : map.subMap(lo, true, hi, true).entrySet()) {
            count++;
            sum += entry.getValue();
        }
        result[0] = count;
        result[1] = sum;
    }

    @Override
    public void scanFrom(final long from, final int count, final long[] result) {
        long n = 0;
        long sum = 0;
        if (count > 0) {
            for (final Map.Entry<Long, Long> entry : map.tailMap(from, true).entrySet()) {
                sum += entry.getValue();
                if (++n == count) {
                    break;
                }
            }
        }
        result[0] = n;
        result[1] = sum;
    }

    @Override
    public void finish() {
        // Every write is already in the map.
    }

    @Override
    public long size() {
        return map.size();
    }

    @Override
    public IndexStats stats() {
        return null;
    }

    @Override
    public void close() {
        map.clear();
    }
}
