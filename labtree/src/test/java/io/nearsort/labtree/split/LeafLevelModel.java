package io.nearsort.labtree.split;

import io.nearsort.labtree.SplitStrategy;
import io.nearsort.labtree.leaf.LeafCapacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The leaf level of a LAB-tree over [0, n) as plain Java collections: leaves partition the range, an insertion
 * that overflows a leaf splits it where the strategy says. What the §4.1 analysis and Example 1 reason about.
 */
final class LeafLevelModel {
    /** One leaf: its range [low, high) and its keys. */
    record Leaf(long low, long high, TreeSet<Long> keys) {
    }

    private final SplitStrategy strategy;
    private final LeafCapacity capacity;
    private final TreeMap<Long, Leaf> leaves = new TreeMap<>();
    private long splits;

    LeafLevelModel(final long n, final SplitStrategy strategy, final LeafCapacity capacity) {
        this.strategy = strategy;
        this.capacity = capacity;
        leaves.put(0L, new Leaf(0, n, new TreeSet<>()));
    }

    void insert(final long key) {
        final Leaf leaf = leaves.floorEntry(key).getValue();
        if (!leaf.keys.add(key)) {
            return;
        }
        final long[] keys = leaf.keys.stream().mapToLong(Long::longValue).toArray();
        if (capacity.fits(keys, 0, keys.length)) {
            return;
        }
        final long x = strategy.splitPoint(leaf.low, leaf.high, keys, capacity);
        final Leaf left = new Leaf(leaf.low, x, new TreeSet<>(leaf.keys.headSet(x)));
        final Leaf right = new Leaf(x, leaf.high, new TreeSet<>(leaf.keys.tailSet(x)));
        if (!capacity.fits(toArray(left), 0, left.keys.size()) || !capacity.fits(toArray(right), 0,
                right.keys.size())) {
            throw new AssertionError(strategy + " split " + leaf + " at " + x + " into a leaf that overflows");
        }
        leaves.put(left.low, left);
        leaves.put(right.low, right);
        splits++;
    }

    private static long[] toArray(final Leaf leaf) {
        return leaf.keys.stream().mapToLong(Long::longValue).toArray();
    }

    int leafCount() {
        return leaves.size();
    }

    long splits() {
        return splits;
    }

    List<Leaf> leaves() {
        return new ArrayList<>(leaves.values());
    }

    /** The key sets of the leaves, in order. */
    List<List<Long>> keySets() {
        final List<List<Long>> sets = new ArrayList<>();
        for (final Map.Entry<Long, Leaf> e : leaves.entrySet()) {
            sets.add(new ArrayList<>(e.getValue().keys));
        }
        return sets;
    }
}
