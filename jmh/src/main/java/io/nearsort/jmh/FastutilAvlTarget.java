package io.nearsort.jmh;

import io.nearsort.core.IndexStats;
import io.nearsort.examples.cli.bench.BenchTarget;
import it.unimi.dsi.fastutil.longs.Long2LongAVLTreeMap;
import it.unimi.dsi.fastutil.longs.Long2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongSortedMap;

/**
 * fastutil's {@link Long2LongAVLTreeMap}: the primitive, on-heap ordered map a user would otherwise pick (no
 * boxing, one object per entry). Not thread-safe.
 */
final class FastutilAvlTarget implements BenchTarget {
    private final Long2LongAVLTreeMap map = new Long2LongAVLTreeMap();

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
        map.defaultReturnValue(missing);
        return map.get(key);
    }

    @Override
    public void scan(final long lo, final long hi, final long[] result) {
        long count = 0;
        long sum = 0;
        final Long2LongSortedMap range = hi == Long.MAX_VALUE ? map.tailMap(lo) : map.subMap(lo, hi + 1);
        for (final Long2LongMap.Entry entry : range.long2LongEntrySet()) {
            count++;
            sum += entry.getLongValue();
        }
        result[0] = count;
        result[1] = sum;
    }

    @Override
    public void scanFrom(final long from, final int count, final long[] result) {
        long n = 0;
        long sum = 0;
        if (count > 0) {
            for (final Long2LongMap.Entry entry : map.tailMap(from).long2LongEntrySet()) {
                sum += entry.getLongValue();
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
