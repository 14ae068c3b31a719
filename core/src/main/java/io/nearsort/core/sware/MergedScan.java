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
 * inside another scan's consumer holds only the shared lock), the unsorted section is merged from a private
 * sorted copy instead. Runs under the index's shared lock and keeps no state.
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
    }

    private MergedScan() {
    }

    /** The buffer's sorted runs, oldest first: main section, blocks, then a sorted copy of any unsorted tail. */
    private static Run[] runs(final SwareBuffer buffer) {
        final int unsortedStart = buffer.unsortedStart();
        final boolean unsorted = buffer.size > unsortedStart;
        final Run[] runs = new Run[1 + buffer.blockCount + (unsorted ? 1 : 0)];
        runs[0] = new Run(buffer.keys, buffer.values, buffer.tombstones, 0, buffer.previousBoundary);
        for (int b = 0; b < buffer.blockCount; b++) {
            final int end = b + 1 < buffer.blockCount ? buffer.blockStarts[b + 1] : unsortedStart;
            runs[b + 1] = new Run(buffer.keys, buffer.values, buffer.tombstones, buffer.blockStarts[b], end);
        }
        if (unsorted) {
            final int n = buffer.size - unsortedStart;
            final long[] keys = java.util.Arrays.copyOfRange(buffer.keys, unsortedStart, buffer.size);
            final long[] order = new long[n];
            for (int i = 0; i < n; i++) {
                order[i] = unsortedStart + i;
            }
            StableMergeSort.sortStable(keys, order, 0, n);
            final long[] values = new long[n];
            final boolean[] tombstones = new boolean[n];
            for (int i = 0; i < n; i++) {
                values[i] = buffer.values[(int) order[i]];
                tombstones[i] = buffer.tombstones[(int) order[i]];
            }
            runs[runs.length - 1] = new Run(keys, values, tombstones, 0, n);
        }
        return runs;
    }

    /** Visits live entries with {@code lo <= key <= hi} in ascending order; returns how many were visited. */
    static long ascending(final SwareBuffer buffer, final AppendableLongIndex tree, final long lo, final long hi,
                          final Visitor visitor) {
        final Run[] runs = runs(buffer);
        for (final Run run : runs) {
            run.pos = SortedSearch.lowerBound(run.keys, run.start, run.end, lo);
        }
        final LongCursor treeCursor = tree.cursor();
        boolean treeHas = !tree.isEmpty() && treeCursor.seekCeiling(lo) && treeCursor.key() <= hi;
        long visited = 0;
        while (true) {
            boolean any = false;
            long min = 0;
            for (final Run run : runs) {
                if (run.pos < run.end && run.keys[run.pos] <= hi && (!any || run.keys[run.pos] < min)) {
                    min = run.keys[run.pos];
                    any = true;
                }
            }
            if (treeHas && (!any || treeCursor.key() < min)) {
                min = treeCursor.key();
                any = true;
            }
            if (!any) {
                return visited;
            }
            Run winner = null;
            int winnerPos = -1;
            for (int r = runs.length - 1; r >= 0; r--) {
                final Run run = runs[r];
                if (run.pos < run.end && run.keys[run.pos] == min) {
                    while (run.pos + 1 < run.end && run.keys[run.pos + 1] == min) {
                        run.pos++;
                    }
                    if (winner == null) {
                        winner = run;
                        winnerPos = run.pos;
                    }
                    run.pos++;
                }
            }
            long value = 0;
            if (treeHas && treeCursor.key() == min) {
                value = treeCursor.value();
                treeHas = treeCursor.next() && treeCursor.key() <= hi;
            }
            if (winner != null) {
                if (winner.tombstones[winnerPos]) {
                    continue;
                }
                value = winner.values[winnerPos];
            }
            visited++;
            if (!visitor.visit(min, value)) {
                return visited;
            }
        }
    }

    /** Visits live entries with {@code lo <= key <= hi} in descending order; returns how many were visited. */
    static long descending(final SwareBuffer buffer, final AppendableLongIndex tree, final long hi, final long lo,
                           final Visitor visitor) {
        final Run[] runs = runs(buffer);
        for (final Run run : runs) {
            run.pos = SortedSearch.upperBound(run.keys, run.start, run.end, hi) - 1;
        }
        final LongCursor treeCursor = tree.cursor();
        boolean treeHas = !tree.isEmpty() && treeCursor.seekFloor(hi) && treeCursor.key() >= lo;
        long visited = 0;
        while (true) {
            boolean any = false;
            long max = 0;
            for (final Run run : runs) {
                if (run.pos >= run.start && run.keys[run.pos] >= lo && (!any || run.keys[run.pos] > max)) {
                    max = run.keys[run.pos];
                    any = true;
                }
            }
            if (treeHas && (!any || treeCursor.key() > max)) {
                max = treeCursor.key();
                any = true;
            }
            if (!any) {
                return visited;
            }
            Run winner = null;
            int winnerPos = -1;
            for (int r = runs.length - 1; r >= 0; r--) {
                final Run run = runs[r];
                if (run.pos >= run.start && run.keys[run.pos] == max) {
                    if (winner == null) {
                        winner = run;
                        winnerPos = run.pos; // the last of a run of equal keys: the newest
                    }
                    while (run.pos >= run.start && run.keys[run.pos] == max) {
                        run.pos--;
                    }
                }
            }
            long value = 0;
            if (treeHas && treeCursor.key() == max) {
                value = treeCursor.value();
                treeHas = treeCursor.previous() && treeCursor.key() >= lo;
            }
            if (winner != null) {
                if (winner.tombstones[winnerPos]) {
                    continue;
                }
                value = winner.values[winnerPos];
            }
            visited++;
            if (!visitor.visit(max, value)) {
                return visited;
            }
        }
    }
}
