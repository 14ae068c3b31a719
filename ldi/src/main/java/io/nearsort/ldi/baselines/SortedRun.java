package io.nearsort.ldi.baselines;

import io.nearsort.core.sortedness.StableMergeSort;

/** A sorted run of an LSM level: keys ascending, row references parallel; equal keys keep arrival order. */
final class SortedRun {
    final long[] keys;
    final long[] rowRefs;

    SortedRun(final long[] keys, final long[] rowRefs) {
        this.keys = keys;
        this.rowRefs = rowRefs;
    }

    /** Sorts a buffer's tuples into a run (stable). */
    static SortedRun sort(final long[] keys, final long[] rowRefs, final int n) {
        final long[] k = java.util.Arrays.copyOf(keys, n);
        final long[] r = java.util.Arrays.copyOf(rowRefs, n);
        StableMergeSort.sortStable(k, r, 0, n);
        return new SortedRun(k, r);
    }

    int size() {
        return keys.length;
    }

    /** The sort-merge of an older run with a newer one; on equal keys the older tuples come first. */
    static SortedRun merge(final SortedRun older, final SortedRun newer) {
        final int n = older.size() + newer.size();
        final long[] k = new long[n];
        final long[] r = new long[n];
        int a = 0;
        int b = 0;
        for (int i = 0; i < n; i++) {
            if (b >= newer.size() || a < older.size() && older.keys[a] <= newer.keys[b]) {
                k[i] = older.keys[a];
                r[i] = older.rowRefs[a++];
            } else {
                k[i] = newer.keys[b];
                r[i] = newer.rowRefs[b++];
            }
        }
        return new SortedRun(k, r);
    }
}
