package io.nearsort.ldi.distribution;

import java.util.ArrayList;
import java.util.List;

/** The intervals being rebuilt by one run of Algorithm 1's Phase 2. */
final class IntervalList {
    private final List<Entry> entries;

    IntervalList(final int capacity) {
        entries = new ArrayList<>(capacity);
    }

    /** One interval with its global and local quantities. */
    static final class Entry {
        final long low;
        final long high;
        final double globalDis;
        final long globalLoad;
        final double localDis;
        final long localLoad;

        Entry(final long low, final long high, final double globalDis, final long globalLoad,
              final double localDis, final long localLoad) {
            this.low = low;
            this.high = high;
            this.globalDis = globalDis;
            this.globalLoad = globalLoad;
            this.localDis = localDis;
            this.localLoad = localLoad;
        }

        /** The union of this interval and the adjacent one to its right: frequencies and counts add up. */
        Entry join(final Entry right) {
            return new Entry(low, right.high, globalDis + right.globalDis, globalLoad + right.globalLoad,
                    localDis + right.localDis, localLoad + right.localLoad);
        }
    }

    void add(final Entry entry) {
        entries.add(entry);
    }

    /** Adds {@code entry}, first absorbing a {@code pending} interval merged into it from the left. */
    Entry addAbsorbing(final Entry pending, final Entry entry) {
        entries.add(pending == null ? entry : pending.join(entry));
        return null;
    }

    void joinLast(final Entry right) {
        final int last = entries.size() - 1;
        entries.set(last, entries.get(last).join(right));
    }

    void joinLastOrAdd(final Entry right) {
        if (entries.isEmpty()) {
            entries.add(right);
        } else {
            joinLast(right);
        }
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    int size() {
        return entries.size();
    }

    Entry get(final int i) {
        return entries.get(i);
    }
}
