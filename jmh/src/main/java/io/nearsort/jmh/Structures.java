package io.nearsort.jmh;

import io.nearsort.core.IndexStats;
import io.nearsort.core.memory.PageArena;
import io.nearsort.examples.cli.bench.BenchStructure;
import io.nearsort.examples.cli.bench.BenchTarget;

import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The structures the JMH benchmarks accept as a {@code structure} parameter: the name of any
 * {@link BenchStructure} constant (shared with {@code nearsort bench}), plus peers that only the benchmarks
 * depend on.
 */
final class Structures {
    /** fastutil's primitive AVL tree map. */
    static final String FASTUTIL_AVL = "FASTUTIL_AVL";
    /**
     * The baseline B+-tree behind a {@link ReentrantReadWriteLock}, as a user would share it between one writer
     * and readers (the plain tree allows no read concurrent with a write).
     */
    static final String BPLUS_RWLOCK = "BPLUS_RWLOCK";

    private Structures() {
    }

    /** A fresh instance for a workload of {@code n} keys (SWARE buffers at the papers' 1% of n). */
    static BenchTarget create(final String name, final int n) {
        return create(name, n, Double.NaN);
    }

    /**
     * As {@link #create(String, int)}, the SA trees' flush cycles sending {@code flushFraction} of the buffer to
     * the tree (NaN: the builder's default).
     */
    static BenchTarget create(final String name, final int n, final double flushFraction) {
        return create(name, n, flushFraction, PageArena.DEFAULT_PAGE_SIZE);
    }

    /**
     * As {@link #create(String, int, double)}, the trees' nodes {@code pageSize} bytes (the JDK maps and fastutil's
     * have no nodes to size).
     */
    static BenchTarget create(final String name, final int n, final double flushFraction, final int pageSize) {
        switch (name) {
            case FASTUTIL_AVL:
                return new FastutilAvlTarget();
            case BPLUS_RWLOCK:
                return new ReadWriteLocked(BenchStructure.BPLUS.createForWorkload(n, Double.NaN, pageSize));
            default:
                return BenchStructure.valueOf(name).createForWorkload(n, flushFraction, pageSize);
        }
    }

    /** Every call of the delegate under a read or write lock. */
    private static final class ReadWriteLocked implements BenchTarget {
        private final BenchTarget delegate;
        private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

        ReadWriteLocked(final BenchTarget delegate) {
            this.delegate = delegate;
        }

        @Override
        public void ingest(final long[] keys, final long[] values, final int from, final int to) {
            lock.writeLock().lock();
            try {
                delegate.ingest(keys, values, from, to);
            } finally {
                lock.writeLock().unlock();
            }
        }

        @Override
        public void put(final long key, final long value) {
            lock.writeLock().lock();
            try {
                delegate.put(key, value);
            } finally {
                lock.writeLock().unlock();
            }
        }

        @Override
        public long get(final long key, final long missing) {
            lock.readLock().lock();
            try {
                return delegate.get(key, missing);
            } finally {
                lock.readLock().unlock();
            }
        }

        /** One read lock for the batch, as a caller holding the map's lock would look a batch up. */
        @Override
        public void getAll(final long[] keys, final long[] values, final int from, final int to,
                           final long missing) {
            lock.readLock().lock();
            try {
                delegate.getAll(keys, values, from, to, missing);
            } finally {
                lock.readLock().unlock();
            }
        }

        @Override
        public void scan(final long lo, final long hi, final long[] result) {
            lock.readLock().lock();
            try {
                delegate.scan(lo, hi, result);
            } finally {
                lock.readLock().unlock();
            }
        }

        @Override
        public void scanFrom(final long from, final int count, final long[] result) {
            lock.readLock().lock();
            try {
                delegate.scanFrom(from, count, result);
            } finally {
                lock.readLock().unlock();
            }
        }

        @Override
        public void finish() {
            delegate.finish();
        }

        @Override
        public long size() {
            return delegate.size();
        }

        @Override
        public IndexStats stats() {
            return delegate.stats();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
