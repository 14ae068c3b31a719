package io.nearsort.core.sware;

/**
 * The SWARE buffer's statistics (what SWARE Figures 11 and 13 and Table I report). Read-path counters are
 * {@link Reads}, one per reading thread when queries run concurrently (an atomic add per lookup would cost more
 * than the rest of a buffer miss); write-path counters are plain fields written by whoever holds the write side.
 */
final class SwareCounters {
    /** Buffer flush cycles (§IV-A). */
    static final String BUFFER_FLUSHES = "bufferFlushes";
    /** Entries moved from the buffer to the tree. */
    static final String FLUSHED_ENTRIES = "flushedEntries";
    /** Strictly ascending {@code putAll} batches bulk-appended to the tree past the empty buffer. */
    static final String BATCHES_PAST_BUFFER = "sortedBatchesPastBuffer";
    /** Entries of those batches. */
    static final String ENTRIES_PAST_BUFFER = "entriesPastBuffer";
    /** Flushes that took the sorted prefix up to lastSortedZone without sorting first (§IV-A). */
    static final String UNSORTED_PREFIX_FLUSHES = "prefixFlushesWithoutSort";
    /** Entries the last regular flush cycle kept in the buffer (§IV-A; {@link FlushRetention}). */
    static final String KEPT_ENTRIES = "keptPerFlush";
    /** Regular flush cycles that halved the kept part, which had absorbed too few late entries. */
    static final String KEPT_SHRINKS = "keptShareHalvings";
    /** Regular flush cycles that doubled it back, late entries having landed just below it. */
    static final String KEPT_GROWTHS = "keptShareDoublings";
    /** Buffer sorts by the (K,L)-adaptive sort (§IV-C). */
    static final String KL_SORTS = "bufferSortsKLAdaptive";
    /** Buffer sorts where the (K,L)-adaptive sort detected underestimated K/L and fell back (§IV-C). */
    static final String KL_FALLBACKS = "bufferSortsKLFallback";
    /** Buffer sorts by the stable merge sort (§IV-C). */
    static final String MERGE_SORTS = "bufferSortsMerge";
    /** Buffer sorts by the stable radix sort, which replaces the merge sort where keys span little. */
    static final String RADIX_SORTS = "bufferSortsRadix";
    /** Flush cycles whose sort a single writer did before taking the exclusive lock. */
    static final String SORTS_AHEAD = "bufferSortsAhead";
    /** Unsorted sections sorted into query-sorted blocks by reads (§IV-C). */
    static final String QUERY_DRIVEN_SORTS = "queryDrivenSorts";
    /** Deletes buffered as tombstones (§IV-D). */
    static final String TOMBSTONES = "bufferedTombstones";
    /** Deletes outside the buffer's key range applied to the tree directly (§IV-D). */
    static final String DIRECT_TREE_DELETES = "directTreeDeletes";
    /** Point lookups. */
    static final String LOOKUPS = "lookups";
    /** Point lookups answered by the buffer (a value or a tombstone). */
    static final String BUFFER_HITS = "bufferHits";
    /** Lookups that skipped the buffer by its zonemap (§IV-B, Fig. 6). */
    static final String BUFFER_SKIPS = "bufferZonemapSkips";
    /** Lookups that skipped the tree by its zonemap (above its largest key; §IV-B, Fig. 6). */
    static final String TREE_SKIPS = "treeZonemapSkips";
    /** Bloom filter probes that ruled the unsorted section or a zone out (§IV-B, Fig. 7). */
    static final String BLOOM_NEGATIVES = "bloomNegatives";
    /** Unsorted zones skipped by their zonemap (§IV-B). */
    static final String ZONE_SKIPS = "zoneSkips";
    /** Unsorted zones scanned entry by entry. */
    static final String ZONES_SCANNED = "zonesScanned";
    /** Probes made by interpolation (and fallback binary) search in sorted runs (§IV-B). */
    static final String INTERPOLATION_STEPS = "interpolationSteps";

    long bufferFlushes;
    long flushedEntries;
    long prefixFlushesWithoutSort;
    long batchesPastBuffer;
    long entriesPastBuffer;
    long klSorts;
    long klFallbacks;
    long mergeSorts;
    long radixSorts;
    long sortsAhead;
    long tombstones;
    long directTreeDeletes;
    /** Written on the write side too: every query-driven sort holds the exclusive lock, or runs single-threaded. */
    long queryDrivenSorts;

    /** The read-path counts of a single-thread index; null when reads run concurrently. */
    private final Reads only;
    /** Each reading thread's counts, when reads run concurrently; null otherwise. */
    private final PerThread<Reads> perThread;
    /** The counts of every live thread {@link #perThread} handed out counts to; guarded by {@code this}. */
    private Reads[] live = new Reads[0];
    /** The counts of threads that have ended, folded together; guarded by {@code this}. */
    private final Reads ended = new Reads(null);

    /** @param concurrentReads whether several threads read at once (each then counts its own reads) */
    SwareCounters(final boolean concurrentReads) {
        this.only = concurrentReads ? null : new Reads(null);
        this.perThread = concurrentReads ? new PerThread<>(this::register) : null;
    }

    /**
     * This thread's read-path counts, which only this thread writes: plain counts, so that a lookup executes no
     * atomic instruction for them (the adders' compare-and-sets had cost 24 ns of a single-writer index's
     * point read, 358 against 334 ns, on a 2-core Intel VM).
     */
    Reads reads() {
        return only != null ? only : perThread.get();
    }

    /** Counts for a thread's first read; folds the counts of threads that have ended into {@link #ended}. */
    private synchronized Reads register() {
        final Reads mine = new Reads(Thread.currentThread());
        live = PerThread.keepLive(live, mine, ended::add);
        return mine;
    }

    /** The read-path counts summed over every thread that read (a live thread's as it last wrote them). */
    synchronized Reads sum() {
        if (only != null) {
            return only;
        }
        final Reads total = new Reads(null);
        total.add(ended);
        for (final Reads r : live) {
            total.add(r);
        }
        return total;
    }

    /**
     * One thread's read-path counts (or a single-thread index's). Plain fields: another thread summing them may
     * see a count a few reads old, never a torn one (64-bit fields are written whole on the JVMs we run on).
     */
    static final class Reads implements PerThread.Owned {
        /** The thread that counts here; null for a single-thread index's counts and for sums. */
        private final Thread owner;
        long lookups;
        long bufferHits;
        long bufferSkips;
        long treeSkips;
        long bloomNegatives;
        long zoneSkips;
        long zonesScanned;
        long interpolationSteps;

        Reads(final Thread owner) {
            this.owner = owner;
        }

        private void add(final Reads r) {
            lookups += r.lookups;
            bufferHits += r.bufferHits;
            bufferSkips += r.bufferSkips;
            treeSkips += r.treeSkips;
            bloomNegatives += r.bloomNegatives;
            zoneSkips += r.zoneSkips;
            zonesScanned += r.zonesScanned;
            interpolationSteps += r.interpolationSteps;
        }

        @Override
        public Thread owner() {
            return owner;
        }
    }
}
