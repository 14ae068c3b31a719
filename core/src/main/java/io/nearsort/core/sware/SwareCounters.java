package io.nearsort.core.sware;

import java.util.concurrent.atomic.LongAdder;

/**
 * The SWARE buffer's statistics (what SWARE Figures 11 and 13 and Table I report). Read-path counters are
 * {@link Tally}s: {@link LongAdder}s when queries run concurrently, plain counts in a single-thread index (an
 * atomic add per lookup there would cost more than the rest of a buffer miss); write-path counters are plain
 * fields written by whoever holds the write side.
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
    final Tally queryDrivenSorts;
    final Tally lookups;
    final Tally bufferHits;
    final Tally bufferSkips;
    final Tally treeSkips;
    final Tally bloomNegatives;
    final Tally zoneSkips;
    final Tally zonesScanned;
    final Tally interpolationSteps;

    /** @param concurrentReads whether several threads read at once (read-path counters are then adders) */
    SwareCounters(final boolean concurrentReads) {
        queryDrivenSorts = new Tally(concurrentReads);
        lookups = new Tally(concurrentReads);
        bufferHits = new Tally(concurrentReads);
        bufferSkips = new Tally(concurrentReads);
        treeSkips = new Tally(concurrentReads);
        bloomNegatives = new Tally(concurrentReads);
        zoneSkips = new Tally(concurrentReads);
        zonesScanned = new Tally(concurrentReads);
        interpolationSteps = new Tally(concurrentReads);
    }

    /** A read-path counter: a {@link LongAdder} when shared between threads, a plain count otherwise. */
    static final class Tally {
        private final LongAdder adder;
        private long plain;

        Tally(final boolean shared) {
            this.adder = shared ? new LongAdder() : null;
        }

        void increment() {
            add(1);
        }

        void add(final long x) {
            if (adder != null) {
                adder.add(x);
            } else {
                plain += x;
            }
        }

        long sum() {
            return adder != null ? adder.sum() : plain;
        }
    }
}
