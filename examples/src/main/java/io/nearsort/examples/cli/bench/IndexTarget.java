package io.nearsort.examples.cli.bench;

import io.nearsort.core.IndexStats;
import io.nearsort.core.LongCursor;
import io.nearsort.core.LongIndex;
import io.nearsort.core.btree.BPlusTree;
import io.nearsort.core.ingest.RunAppender;
import io.nearsort.core.sbtree.SBTree;
import io.nearsort.core.sware.SortednessAwareIndex;

/** A nearsort {@link LongIndex}; with a {@link RunAppender}, ingests bulk-append their sorted runs. */
final class IndexTarget implements BenchTarget {
    /** Shortest ascending run the appender bulk-appends (shorter ones are put one by one). */
    static final int MIN_RUN_LENGTH = 16;

    private final LongIndex index;
    private final RunAppender appender;

    private IndexTarget(final LongIndex index, final RunAppender appender) {
        this.index = index;
        this.appender = appender;
    }

    static IndexTarget of(final LongIndex index) {
        return new IndexTarget(index, null);
    }

    static IndexTarget appending(final BPlusTree tree) {
        return new IndexTarget(tree, new RunAppender(tree, MIN_RUN_LENGTH));
    }

    @Override
    public void ingest(final long[] keys, final long[] values, final int from, final int to) {
        if (appender != null) {
            appender.ingest(keys, values, from, to);
            return;
        }
        index.putAll(keys, values, from, to);
    }

    @Override
    public void put(final long key, final long value) {
        index.put(key, value);
    }

    @Override
    public long get(final long key, final long missing) {
        return index.getOrDefault(key, missing);
    }

    @Override
    public void getAll(final long[] keys, final long[] values, final int from, final int to, final long missing) {
        index.getAll(keys, values, from, to, missing);
    }

    @Override
    public void scan(final long lo, final long hi, final long[] result) {
        result[1] = 0;
        result[0] = index.forEachInRange(lo, hi, (key, value) -> result[1] += value);
    }

    /** SB-Tree's own scan (Algorithm 3); other indexes walk a cursor. */
    @Override
    public void scanFrom(final long from, final int count, final long[] result) {
        result[1] = 0;
        if (index instanceof SBTree) {
            result[0] = ((SBTree) index).scan(from, count, (key, value) -> result[1] += value);
            return;
        }
        long n = 0;
        final LongCursor cursor = index.cursor();
        for (boolean on = count > 0 && cursor.seekCeiling(from); on; on = ++n < count && cursor.next()) {
            result[1] += cursor.value();
        }
        result[0] = n;
    }

    @Override
    public void finish() {
        if (index instanceof SortednessAwareIndex) {
            ((SortednessAwareIndex) index).flush();
        }
    }

    @Override
    public long size() {
        return index.size();
    }

    @Override
    public IndexStats stats() {
        return index.stats();
    }

    @Override
    public void close() {
        index.close();
    }
}
