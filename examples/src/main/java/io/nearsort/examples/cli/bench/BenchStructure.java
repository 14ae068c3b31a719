package io.nearsort.examples.cli.bench;

import io.nearsort.core.Concurrency;
import io.nearsort.core.Indexes;
import io.nearsort.core.memory.PageArena;
import io.nearsort.core.sware.SortednessAwareIndexBuilder;

import java.util.Arrays;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Collectors;

/** The structures {@code nearsort bench} compares, by their command-line names. */
public enum BenchStructure {
    /** The SWARE paper's baseline B+-tree: 50:50 splits, top-inserts only. */
    BPLUS("bplus", "B+-tree (baseline)") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return IndexTarget.of(Indexes.bPlusTree().pageSize(pageSize).build());
        }
    },
    /**
     * The B+-tree with SWARE §III's elements: 80:20 splits, tail-leaf inserts, bulk append of sorted runs. Its
     * {@code putAll} slices bulk-append their ascending runs (a {@link io.nearsort.core.ingest.RunAppender});
     * written one {@code put} per record it is the per-record tail-insert baseline (no run to append).
     */
    BPLUS_TAIL_BULK("bplus-tail-bulk", "B+-tree 80:20+tail+bulk") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return IndexTarget.appending(Indexes.bPlusTree().pageSize(pageSize).splitRatio(0.8).tailLeafInserts(true)
                    .build());
        }
    },
    /** The SA B+-tree (SWARE / OSM-tree) with the paper's tuning. */
    SA_BPLUS("sa-bplus", "SA B+-tree (SWARE)") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return IndexTarget.of(sware(Indexes.saBPlusTree(), bufferCapacity, flushFraction, pageSize).build());
        }
    },
    /** The SA B+-tree built for one writer thread and any number of readers: appends take no lock. */
    SA_BPLUS_SW("sa-bplus-sw", "SA B+-tree, single writer") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return IndexTarget.of(sware(Indexes.saBPlusTree(), bufferCapacity, flushFraction, pageSize)
                    .concurrency(Concurrency.SINGLE_WRITER).build());
        }
    },
    /**
     * The SA B+-tree built for one writer thread pinned for good, and any number of readers: appends, and the
     * writer's own point reads, take no lock.
     */
    SA_BPLUS_PIN("sa-bplus-pin", "SA B+-tree, pinned writer") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return IndexTarget.of(sware(Indexes.saBPlusTree(), bufferCapacity, flushFraction, pageSize)
                    .concurrency(Concurrency.PINNED_WRITER).build());
        }
    },
    /** The SA B+-tree confined to one thread, as {@code TreeMap} is: no locks, plain counters. */
    SA_BPLUS_ST("sa-bplus-st", "SA B+-tree, single thread") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return IndexTarget.of(sware(Indexes.saBPlusTree(), bufferCapacity, flushFraction, pageSize)
                    .concurrency(Concurrency.SINGLE_THREAD).build());
        }
    },
    /**
     * SB-Tree (IEEE Access 2025), its blocks of the bench's page size (by default the paper's 4 KiB): per-thread
     * blocks behind a shortcut for in-order keys, data blocks with N-ary search tables, a search layer updated by
     * its own thread; safe for any number of writer and reader threads.
     */
    SBTREE("sbtree", "SB-Tree") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return IndexTarget.of(Indexes.sbTree().blockSize(pageSize).build());
        }
    },
    /** The SWARE paper's Bε-tree (§V "Index Design", ε = 1/2): every write a message into the root's buffer. */
    BETREE("betree", "Bε-tree") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return IndexTarget.of(Indexes.beTree().pageSize(pageSize).build());
        }
    },
    /** The SA Bε-tree (SWARE §V-G): the SWARE buffer over the Bε-tree, with the paper's tuning. */
    SA_BETREE("sa-betree", "SA Bε-tree (SWARE)") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return IndexTarget.of(sware(Indexes.saBeTree(), bufferCapacity, flushFraction, pageSize).build());
        }
    },
    /** The SA Bε-tree built for one writer thread and any number of readers, as {@link #SA_BPLUS_SW}. */
    SA_BETREE_SW("sa-betree-sw", "SA Bε-tree, single writer") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return IndexTarget.of(sware(Indexes.saBeTree(), bufferCapacity, flushFraction, pageSize)
                    .concurrency(Concurrency.SINGLE_WRITER).build());
        }
    },
    /**
     * The SA Bε-tree confined to one thread, as {@link #SA_BPLUS_ST}: no locks, plain counters, like the Bε-tree
     * itself, which is not thread-safe (the like-for-like build for single-threaded comparisons, SWARE Fig. 20).
     */
    SA_BETREE_ST("sa-betree-st", "SA Bε-tree, single thread") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return IndexTarget.of(sware(Indexes.saBeTree(), bufferCapacity, flushFraction, pageSize)
                    .concurrency(Concurrency.SINGLE_THREAD).build());
        }
    },
    /** {@link TreeMap}, the JDK's red-black tree. */
    TREEMAP("treemap", "java.util.TreeMap") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return new MapTarget(new TreeMap<>());
        }
    },
    /** {@link ConcurrentSkipListMap}, the JDK's concurrent ordered map. */
    SKIPLIST("skiplist", "ConcurrentSkipListMap") {
        @Override
        protected BenchTarget build(final int bufferCapacity, final double flushFraction, final int pageSize) {
            return new MapTarget(new ConcurrentSkipListMap<>());
        }
    };

    private final String cliName;
    private final String label;

    BenchStructure(final String cliName, final String label) {
        this.cliName = cliName;
        this.label = label;
    }

    /**
     * A fresh, empty instance; {@code bufferCapacity} sizes a SWARE buffer where there is one, {@code
     * flushFraction} is the share of it a flush cycle sends to the tree (NaN: the builder's default, the paper's
     * 0.5), and {@code pageSize} is the bytes of a tree node (a B+-tree or Bε-tree page, an SB-Tree block).
     * Structures without a SWARE buffer ignore the first two, the JDK maps all three.
     *
     * @throws IllegalArgumentException when {@code pageSize} is not a power of two in [{@value
     *         PageArena#MIN_PAGE_SIZE}, {@value PageArena#MAX_PAGE_SIZE}], whatever the structure
     */
    public BenchTarget create(final int bufferCapacity, final double flushFraction, final int pageSize) {
        return build(bufferCapacity, flushFraction, PageArena.checkPageSize("pageSize", pageSize));
    }

    /** {@link #create(int, double, int)} with a valid {@code pageSize}. */
    protected abstract BenchTarget build(int bufferCapacity, double flushFraction, int pageSize);

    /** {@link #create(int, double, int)} with the papers' 4 KiB nodes. */
    public BenchTarget create(final int bufferCapacity, final double flushFraction) {
        return create(bufferCapacity, flushFraction, PageArena.DEFAULT_PAGE_SIZE);
    }

    /** A fresh, empty instance with a SWARE buffer of {@code bufferCapacity} entries and the default flush fraction. */
    public BenchTarget create(final int bufferCapacity) {
        return create(bufferCapacity, Double.NaN);
    }

    /** {@code builder} with the bench's buffer and node settings. */
    private static SortednessAwareIndexBuilder sware(final SortednessAwareIndexBuilder builder,
                                                     final int bufferCapacity, final double flushFraction,
                                                     final int pageSize) {
        builder.bufferCapacity(bufferCapacity).pageSize(pageSize);
        return Double.isNaN(flushFraction) ? builder : builder.flushFraction(flushFraction);
    }

    /** A fresh instance for a workload of {@code n} keys, a SWARE buffer sized at the papers' default 1% of n. */
    public BenchTarget createForWorkload(final int n) {
        return createForWorkload(n, Double.NaN);
    }

    /** As {@link #createForWorkload(int)}, with flush cycles sending {@code flushFraction} of the buffer. */
    public BenchTarget createForWorkload(final int n, final double flushFraction) {
        return createForWorkload(n, flushFraction, PageArena.DEFAULT_PAGE_SIZE);
    }

    /** As {@link #createForWorkload(int, double)}, with {@code pageSize}-byte tree nodes. */
    public BenchTarget createForWorkload(final int n, final double flushFraction, final int pageSize) {
        return create(Math.max(1, n / 100), flushFraction, pageSize);
    }

    /** The name on the command line. */
    public String cliName() {
        return cliName;
    }

    /** The name in tables and charts. */
    public String label() {
        return label;
    }

    /** The structure named {@code name} on the command line. */
    public static BenchStructure of(final String name) {
        for (final BenchStructure structure : values()) {
            if (structure.cliName.equals(name)) {
                return structure;
            }
        }
        throw new IllegalArgumentException("unknown structure '" + name + "' (expected one of: " + names() + ")");
    }

    /** Every command-line name, comma-separated. */
    public static String names() {
        return Arrays.stream(values()).map(BenchStructure::cliName).collect(Collectors.joining(", "));
    }
}
