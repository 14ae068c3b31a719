package io.nearsort.core.sware;

import io.nearsort.core.AppendableLongIndex;
import io.nearsort.core.LongCursor;
import io.nearsort.core.sortedness.StableMergeSort;

/**
 * Range reads over the SWARE buffer and its tree as one duplicate-free stream (SWARE §IV-C "Supporting Range
 * Queries"): the main sorted section, each query-sorted block, the unsorted section and the tree are merged;
 * for a key present in several of them the newest wins (later components are newer, the buffer is newer than
 * the tree), and a key whose newest version is a tombstone is skipped.
 *
 * <p>The index normally sorts the unsorted section into a block before a scan. When it cannot (a scan nested
 * inside another scan's consumer holds only the shared lock, or a single-writer index whose writer appends
 * without a lock), the unsorted section's entries in the scanned range are merged from a private sorted copy
 * instead. Reads the buffer's first {@code n} entries (a reader's snapshot, {@link SwareBuffer#visibleSize}).
 * Runs under the index's shared lock and keeps no state.
 */
final class MergedScan {
    /** Receives entries; returns false to stop the scan. */
    interface Visitor {
        boolean visit(long key, long value);
    }

    /** One sorted run of buffer entries; equal keys are adjacent and the last of them is the newest. */
    private static final class Run {
        final long[] keys;
        final long[] values;
        final boolean[] tombstones;
        final int start;
        final int end;
        int pos;

        Run(final long[] keys, final long[] values, final boolean[] tombstones, final int start, final int end) {
            this.keys = keys;
            this.values = values;
            this.tombstones = tombstones;
            this.start = start;
            this.end = end;
        }

        boolean hasCurrent(final boolean ascending) {
            return ascending ? pos < end : pos >= start;
        }

        long current() {
            return keys[pos];
        }

        /** Moves past the current key's run of equal keys; returns the position of the newest of them. */
        int skipEqual(final boolean ascending) {
            final long key = keys[pos];
            if (ascending) {
                while (pos + 1 < end && keys[pos + 1] == key) {
                    pos++;
                }
                return pos++;
            }
            final int newest = pos;
            while (pos >= start && keys[pos] == key) {
                pos--;
            }
            return newest;
        }
    }

    private MergedScan() {
    }

    /**
     * The sorted runs of the buffer's first {@code n} entries, oldest first: main section, blocks, then a sorted
     * copy of the unsorted entries with keys in {@code [lo, hi]}, if any.
     */
    private static Run[] runs(final SwareBuffer buffer, final int n, final long lo, final long hi) {
        final int unsortedStart = buffer.unsortedStart(n);
        final boolean unsorted = n > unsortedStart;
        final Run[] runs = new Run[1 + buffer.blockCount + (unsorted ? 1 : 0)];
        runs[0] = new Run(buffer.keys, buffer.values, buffer.tombstones, 0, buffer.sortedEnd(n));
        for (int b = 0; b < buffer.blockCount; b++) {
            final int end = b + 1 < buffer.blockCount ? buffer.blockStarts[b + 1] : unsortedStart;
            runs[b + 1] = new Run(buffer.keys, buffer.values, buffer.tombstones, buffer.blockStarts[b], end);
        }
        if (unsorted) {
            runs[runs.length - 1] = sortedCopy(buffer, unsortedStart, n, lo, hi);
        }
        return runs;
    }

    /** The entries of positions {@code [from, to)} with keys in {@code [lo, hi]}, sorted stably by key. */
    private static Run sortedCopy(final SwareBuffer buffer, final int from, final int to, final long lo,
                                  final long hi) {
        final long[] keys = new long[to - from];
        final long[] order = new long[to - from];
        int count = 0;
        for (int p = from; p < to; p++) {
            final long key = buffer.keys[p];
            if (key >= lo && key <= hi) {
                keys[count] = key;
                order[count++] = p;
            }
        }
        StableMergeSort.sortStable(keys, order, 0, count);
        final long[] values = new long[count];
        final boolean[] tombstones = new boolean[count];
        for (int i = 0; i < count; i++) {
            values[i] = buffer.values[(int) order[i]];
            tombstones[i] = buffer.tombstones[(int) order[i]];
        }
        return new Run(keys, values, tombstones, 0, count);
    }

    /** Visits live entries with {@code lo <= key <= hi} in ascending order; returns how many were visited. */
    static long ascending(final SwareBuffer buffer, final int n, final AppendableLongIndex tree, final long lo,
                          final long hi, final Visitor visitor) {
        return scan(buffer, n, tree, lo, hi, true, visitor);
    }

    /** Visits live entries with {@code lo <= key <= hi} in descending order; returns how many were visited. */
    static long descending(final SwareBuffer buffer, final int n, final AppendableLongIndex tree, final long hi,
                           final long lo, final Visitor visitor) {
        return scan(buffer, n, tree, hi, lo, false, visitor);
    }

    /**
     * The k-way merge, from bound {@code first} to bound {@code last} in the given direction. In each run the
     * newest of equal keys is the last one, where an ascending cursor arrives last and a descending one first.
     */
    private static long scan(final SwareBuffer buffer, final int n, final AppendableLongIndex tree, final long first,
                             final long last, final boolean ascending, final Visitor visitor) {
        final Run[] runs = ascending ? runs(buffer, n, first, last) : runs(buffer, n, last, first);
        for (final Run run : runs) {
            run.pos = ascending ? SortedSearch.lowerBound(run.keys, run.start, run.end, first)
                    : SortedSearch.upperBound(run.keys, run.start, run.end, first) - 1;
        }
        final LongCursor treeCursor = tree.cursor();
        boolean treeHas = !tree.isEmpty() && (ascending ? treeCursor.seekCeiling(first) : treeCursor.seekFloor(first))
                && within(treeCursor.key(), last, ascending);
        long visited = 0;
        while (true) {
            boolean any = false;
            long next = 0;
            for (final Run run : runs) {
                if (run.hasCurrent(ascending) && within(run.current(), last, ascending)
                        && (!any || before(run.current(), next, ascending))) {
                    next = run.current();
                    any = true;
                }
            }
            if (treeHas && (!any || before(treeCursor.key(), next, ascending))) {
                next = treeCursor.key();
                any = true;
            }
            if (!any) {
                return visited;
            }
            Run winner = null;
            int winnerPos = -1;
            for (int r = runs.length - 1; r >= 0; r--) {
                final Run run = runs[r];
                if (run.hasCurrent(ascending) && run.current() == next) {
                    final int newest = run.skipEqual(ascending);
                    if (winner == null) {
                        winner = run;
                        winnerPos = newest;
                    }
                }
            }
            long value = 0;
            if (treeHas && treeCursor.key() == next) {
                value = treeCursor.value();
                treeHas = (ascending ? treeCursor.next() : treeCursor.previous())
                        && within(treeCursor.key(), last, ascending);
            }
            if (winner != null) {
                if (winner.tombstones[winnerPos]) {
                    continue;
                }
                value = winner.values[winnerPos];
            }
            visited++;
            if (!visitor.visit(next, value)) {
                return visited;
            }
        }
    }

    private static boolean within(final long key, final long last, final boolean ascending) {
        return ascending ? key <= last : key >= last;
    }

    private static boolean before(final long a, final long b, final boolean ascending) {
        return ascending ? a < b : a > b;
    }
}
