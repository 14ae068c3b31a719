package io.nearsort.jmh;

import io.nearsort.core.Indexes;
import io.nearsort.core.LongIndex;
import io.nearsort.core.btree.BPlusTree;
import io.nearsort.core.ingest.RunAppender;

import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;

/** The structures benchmarked side by side, behind one ingestion and lookup interface. */
public enum Structure {
    /** The SWARE paper's baseline B+-tree: 50:50 splits, top-inserts only. */
    BPLUS {
        @Override
        Target create() {
            return new IndexTarget(Indexes.bPlusTree().build());
        }
    },
    /** The B+-tree with SWARE §III's elements: 80:20 splits, tail-leaf inserts, bulk append of sorted runs. */
    BPLUS_TAIL_BULK {
        @Override
        Target create() {
            return new IndexTarget(Indexes.bPlusTree().splitRatio(0.8).tailLeafInserts(true).build(), 16);
        }
    },
    /**
     * The SA B+-tree (SWARE / OSM-tree) with the paper's tuning and a buffer of 1% of the data
     * ({@link Structure#SA_BUFFER_ENTRIES}).
     */
    SA_BPLUS {
        @Override
        Target create() {
            return new IndexTarget(Indexes.saBPlusTree().bufferCapacity(SA_BUFFER_ENTRIES).build());
        }
    },
    /** {@link TreeMap}: the JDK's red-black tree. */
    TREEMAP {
        @Override
        Target create() {
            return new MapTarget(new TreeMap<>());
        }
    },
    /** {@link ConcurrentSkipListMap}: the JDK's concurrent ordered map. */
    SKIPLIST {
        @Override
        Target create() {
            return new MapTarget(new ConcurrentSkipListMap<>());
        }
    };

    /** Buffer of the SA B+-tree: 1% of the default n = 10M, as in the papers' default setup. */
    static final int SA_BUFFER_ENTRIES = 100_000;

    abstract Target create();

    /** One structure instance under test. */
    interface Target extends AutoCloseable {
        void ingest(long[] keys, long[] values);

        long get(long key);

        long size();

        /** Sums the values with keys in [lo, hi], in key order. */
        long scan(long lo, long hi);

        @Override
        void close();
    }

    /** Any nearsort index; with an appender, sorted runs of an ingest are bulk-appended. */
    private static final class IndexTarget implements Target {
        private final LongIndex index;
        private final RunAppender appender;

        IndexTarget(final LongIndex index) {
            this.index = index;
            this.appender = null;
        }

        IndexTarget(final BPlusTree tree, final int minRunLength) {
            this.index = tree;
            this.appender = new RunAppender(tree, minRunLength);
        }

        @Override
        public void ingest(final long[] keys, final long[] values) {
            if (appender != null) {
                appender.ingest(keys, values, 0, keys.length);
            } else {
                for (int i = 0; i < keys.length; i++) {
                    index.put(keys[i], values[i]);
                }
            }
        }

        @Override
        public long get(final long key) {
            return index.getOrDefault(key, -1L);
        }

        @Override
        public long size() {
            return index.size();
        }

        @Override
        public long scan(final long lo, final long hi) {
            final long[] sum = {0};
            index.forEachInRange(lo, hi, (k, v) -> sum[0] += v);
            return sum[0];
        }

        @Override
        public void close() {
            index.close();
        }
    }

    private static final class MapTarget implements Target {
        private final NavigableMap<Long, Long> map;

        MapTarget(final NavigableMap<Long, Long> map) {
            this.map = map;
        }

        @Override
        public void ingest(final long[] keys, final long[] values) {
            for (int i = 0; i < keys.length; i++) {
                map.put(keys[i], values[i]);
            }
        }

        @Override
        public long get(final long key) {
            final Long value = map.get(key);
            return value == null ? -1L : value;
        }

        @Override
        public long size() {
            return map.size();
        }

        @Override
        public long scan(final long lo, final long hi) {
            long sum = 0;
            for (final long value : map.subMap(lo, true, hi, true).values()) {
                sum += value;
            }
            return sum;
        }

        @Override
        public void close() {
            map.clear();
        }
    }
}
