package io.nearsort.core.sbtree;

import io.nearsort.core.memory.PageArena;
import io.nearsort.core.memory.SlabPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The block layouts and their operations on their own: the N-ary search table against a binary search, data block
 * inserts, removes and splits against a sorted array, and the merge of per-thread blocks (§IV-B) against the rule
 * it implements: the newest write stamp wins, ties go to the later slot and position, tombstones drop the key.
 */
class BlockLayoutTest {

    @Test
    void capacitiesFitTheBlock() {
        for (int size = PageArena.MIN_PAGE_SIZE; size <= 65536; size *= 2) {
            for (int bucket = 2; bucket <= 64; bucket *= 2) {
                final DataBlockDescriptor d = new DataBlockDescriptor(size, bucket);
                assertTrue(d.valuesOffset + 8L * d.capacity <= size, "data block of " + size);
                // The largest: one more entry, with the table it needs, would not fit.
                final int more = d.capacity + 1;
                assertTrue(DataBlockDescriptor.TABLE_OFFSET + 8L * DataBlockDescriptor.buckets(more, bucket)
                        + 16L * more > size, "the largest capacity, data block of " + size + ", bucket " + bucket);
            }
            final PerThreadBlockDescriptor p = new PerThreadBlockDescriptor(size);
            assertTrue(p.stampsOffset + 4L * p.capacity <= size);
            assertTrue(SegmentedBlockDescriptor.SLOTS_OFFSET + 8L * SegmentedBlockDescriptor.maxSlots(size) <= size);
            final SearchBlockDescriptor s = new SearchBlockDescriptor(size);
            assertTrue(s.childrenOffset + 8L * s.capacity <= size);
        }
        assertEquals(238, new DataBlockDescriptor(4096, 8).capacity);
        assertEquals(201, new PerThreadBlockDescriptor(4096).capacity);
    }

    @ParameterizedTest(name = "bucket {0}")
    @ValueSource(ints = {2, 4, 8, 16, 64})
    void dataBlockOperationsAndTheSearchTableAgreeWithASortedArray(final int bucket) {
        final SplittableRandom random = new SplittableRandom(bucket);
        try (PageArena arena = PageArena.builder().pageSize(1024).slabPool(SlabPool.disabled()).build()) {
            final DataBlockDescriptor d = new DataBlockDescriptor(1024, bucket);
            final long block = arena.allocate();
            DataBlock.format(block, Long.MIN_VALUE, 0);
            final TreeMap<Long, Long> oracle = new TreeMap<>();
            for (int op = 0; op < 20_000; op++) {
                final long key = random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(200) - 100;
                final int count = DataBlock.count(d, block);
                final int pos = DataBlock.find(d, block, count, key);
                if (random.nextBoolean() && (pos >= 0 || count < d.capacity)) {
                    if (pos >= 0) {
                        DataBlock.setValue(d, block, pos, op);
                    } else {
                        DataBlock.insertAt(d, block, -pos - 1, count, key, op);
                    }
                    oracle.put(key, (long) op);
                } else if (pos >= 0) {
                    DataBlock.removeAt(d, block, pos, count);
                    oracle.remove(key);
                }
                final long[] keys = oracle.keySet().stream().mapToLong(Long::longValue).toArray();
                assertEquals(keys.length, DataBlock.count(d, block));
                for (int probe = 0; probe < 5; probe++) {
                    final long k = probe == 0 ? key : random.nextInt(4) == 0 ? random.nextLong()
                            : random.nextInt(220) - 110;
                    int expected = Arrays.binarySearch(keys, k);
                    expected = expected >= 0 ? expected : -expected - 1;
                    assertEquals(expected, NarySearchTable.lowerBound(d, block, keys.length, k), "lowerBound " + k);
                }
            }
            // A split moves the upper entries out, both halves searchable.
            while (DataBlock.count(d, block) < d.capacity) {
                final int count = DataBlock.count(d, block);
                final long key = random.nextLong();
                final int pos = DataBlock.find(d, block, count, key);
                if (pos < 0) {
                    DataBlock.insertAt(d, block, -pos - 1, count, key, key);
                }
            }
            final long right = arena.allocate();
            DataBlock.format(right, 0, 0);
            final int half = d.capacity / 2;
            final long first = DataBlock.key(d, block, half);
            DataBlock.moveTail(d, block, half, d.capacity, right);
            assertEquals(half, DataBlock.count(d, block));
            assertEquals(d.capacity - half, DataBlock.count(d, right));
            assertEquals(first, DataBlock.key(d, right, 0));
            assertEquals(0, DataBlock.find(d, right, d.capacity - half, first));
        }
    }

    /**
     * Per-thread blocks of three threads with duplicates across and inside blocks, unsorted ones, tombstones;
     * stamps as the index makes them (per thread non-decreasing, never shared between threads).
     */
    @Test
    void theMergeKeepsTheNewestWriteOfEachKey() {
        final SplittableRandom random = new SplittableRandom(3);
        try (PageArena arena = PageArena.builder().pageSize(1024).slabPool(SlabPool.disabled()).build()) {
            final PerThreadBlockDescriptor d = new PerThreadBlockDescriptor(1024);
            for (int round = 0; round < 200; round++) {
                final int blocks = 1 + random.nextInt(8);
                final long[] ptbs = new long[blocks];
                final int[] counts = new int[blocks];
                // key -> {stamp, slot, position, value, tombstone}: the winner by the rule
                final Map<Long, long[]> winners = new HashMap<>();
                final int[] nextKey = new int[4];
                // As in the index: one thread's stamps never decrease, two threads never share one.
                final int[] ownerStamp = new int[4];
                for (int slot = 0; slot < blocks; slot++) {
                    final int owner = 1 + random.nextInt(3);
                    ptbs[slot] = arena.allocate();
                    PerThreadBlock.format(ptbs[slot], owner, 0, slot);
                    final int count = random.nextInt(d.capacity + 1);
                    final boolean ascending = random.nextBoolean();
                    long min = Long.MAX_VALUE;
                    long max = Long.MIN_VALUE;
                    boolean stillAscending = true;
                    long last = Long.MIN_VALUE;
                    for (int pos = 0; pos < count; pos++) {
                        final long key = ascending ? (nextKey[owner] += 1 + random.nextInt(3)) * 4 + owner
                                : random.nextInt(60);
                        ownerStamp[owner] += random.nextInt(3) == 0 ? 1 : 0;
                        final int stamp = (ownerStamp[owner] * 3 + owner - 1) << 1 | (random.nextInt(6) == 0 ? 1 : 0);
                        final long value = random.nextLong();
                        stillAscending &= pos == 0 || key > last;
                        PerThreadBlock.write(d, ptbs[slot], pos, key, value, stamp, stillAscending, key < min,
                                key > max);
                        min = Math.min(min, key);
                        max = Math.max(max, key);
                        last = key;
                        final long[] best = winners.get(key);
                        if (best == null || WriteStamps.isNewer(stamp, (int) best[0])
                                || WriteStamps.isSame(stamp, (int) best[0])) {
                            winners.put(key, new long[] {stamp, slot, pos, value, stamp & 1});
                        }
                    }
                    PerThreadBlock.publish(ptbs[slot], count);
                    counts[slot] = count;
                }
                final SegmentedBlockMerge merge = new SegmentedBlockMerge(d);
                final int n = merge.mergeSealed(ptbs, counts, blocks);
                final TreeMap<Long, Long> expected = new TreeMap<>();
                winners.forEach((k, w) -> {
                    if (w[4] == 0) {
                        expected.put(k, w[3]);
                    }
                });
                assertEquals(expected.size(), n, "round " + round);
                int i = 0;
                for (final Map.Entry<Long, Long> e : expected.entrySet()) {
                    assertEquals((long) e.getKey(), merge.keys()[i], "key #" + i + " round " + round);
                    assertEquals((long) e.getValue(), merge.values()[i], "value of " + e.getKey() + " round " + round);
                    i++;
                }
                for (final long ptb : ptbs) {
                    arena.free(ptb);
                }
            }
        }
    }
}
