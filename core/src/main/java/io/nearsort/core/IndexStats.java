package io.nearsort.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An immutable snapshot of an index's counters, named after the papers.
 *
 * <p>Each structure reports the counters it has; {@link #counter(String)} answers 0 for a counter the
 * structure does not keep, so code comparing structures can read any name. {@link #counters()} lists exactly
 * what the structure reported, in a stable order.
 */
public final class IndexStats {
    /** Entries present. */
    public static final String SIZE = "size";
    /** Levels from the root to the leaves; 1 for a tree that is a single leaf, 0 when empty. */
    public static final String HEIGHT = "height";
    /** Leaf nodes. */
    public static final String LEAF_COUNT = "leafCount";
    /** Internal nodes. */
    public static final String INTERNAL_NODE_COUNT = "internalNodeCount";
    /** Leaf splits since creation (SWARE Table I). */
    public static final String LEAF_SPLITS = "leafSplits";
    /** Internal node splits since creation. */
    public static final String INTERNAL_SPLITS = "internalSplits";
    /** Entries inserted by a root-to-leaf traversal (SWARE §III "top-inserts"). */
    public static final String TOP_INSERTS = "topInserts";
    /** Entries inserted straight into the right-most leaf (SWARE §III "right-most leaf insertion"). */
    public static final String TAIL_LEAF_INSERTS = "tailLeafInserts";
    /** Entries written by bulk append of sorted runs (SWARE §III "bulk loading"). */
    public static final String BULK_LOADED_ENTRIES = "bulkLoadedEntries";
    /** Bytes obtained from the operating system. */
    public static final String BYTES_ALLOCATED = "bytesAllocated";
    /** Bytes in pages currently used by the structure. */
    public static final String BYTES_IN_USE = "bytesInUse";
    /**
     * Bytes of Java heap held by the structure's buffers and kept scratch arrays (array payloads, object headers
     * left out), such as the SA trees' SWARE buffer; off-heap bytes are {@link #BYTES_ALLOCATED}.
     */
    public static final String HEAP_BYTES = "heapBytes";

    private final String structure;
    private final Map<String, Long> counters;
    private final double averageLeafFill;

    private IndexStats(final String structure, final Map<String, Long> counters, final double averageLeafFill) {
        this.structure = structure;
        this.counters = Collections.unmodifiableMap(counters);
        this.averageLeafFill = averageLeafFill;
    }

    /** Starts a snapshot of the structure called {@code structure}. */
    public static Builder builder(final String structure) {
        return new Builder(structure);
    }

    /** The structure that reported these counters, e.g. {@code "B+-tree"}. */
    public String structure() {
        return structure;
    }

    /** The counter called {@code name}, or 0 when the structure does not keep it. */
    public long counter(final String name) {
        final Long value = counters.get(name);
        return value == null ? 0L : value;
    }

    /** Every counter the structure reported, in a stable order. */
    public Map<String, Long> counters() {
        return counters;
    }

    /** Average fraction of leaf capacity in use, in [0, 1]; 0 when there is no leaf. */
    public double averageLeafFill() {
        return averageLeafFill;
    }

    /** @see #SIZE */
    public long size() {
        return counter(SIZE);
    }

    /** @see #HEIGHT */
    public long height() {
        return counter(HEIGHT);
    }

    /** @see #LEAF_COUNT */
    public long leafCount() {
        return counter(LEAF_COUNT);
    }

    /** @see #INTERNAL_NODE_COUNT */
    public long internalNodeCount() {
        return counter(INTERNAL_NODE_COUNT);
    }

    /** @see #LEAF_SPLITS */
    public long leafSplits() {
        return counter(LEAF_SPLITS);
    }

    /** @see #INTERNAL_SPLITS */
    public long internalSplits() {
        return counter(INTERNAL_SPLITS);
    }

    /** @see #TOP_INSERTS */
    public long topInserts() {
        return counter(TOP_INSERTS);
    }

    /** @see #TAIL_LEAF_INSERTS */
    public long tailLeafInserts() {
        return counter(TAIL_LEAF_INSERTS);
    }

    /** @see #BULK_LOADED_ENTRIES */
    public long bulkLoadedEntries() {
        return counter(BULK_LOADED_ENTRIES);
    }

    /** @see #BYTES_ALLOCATED */
    public long bytesAllocated() {
        return counter(BYTES_ALLOCATED);
    }

    /** @see #BYTES_IN_USE */
    public long bytesInUse() {
        return counter(BYTES_IN_USE);
    }

    /** @see #HEAP_BYTES */
    public long heapBytes() {
        return counter(HEAP_BYTES);
    }

    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder(structure).append('{');
        counters.forEach((name, value) -> sb.append(name).append('=').append(value).append(", "));
        return sb.append("averageLeafFill=").append(String.format(java.util.Locale.ROOT, "%.3f", averageLeafFill))
                .append('}').toString();
    }

    /** Collects counters for one snapshot. */
    public static final class Builder {
        private final String structure;
        private final Map<String, Long> counters = new LinkedHashMap<>();
        private double averageLeafFill;

        private Builder(final String structure) {
            this.structure = java.util.Objects.requireNonNull(structure, "structure");
        }

        /** Records counter {@code name}. */
        public Builder counter(final String name, final long value) {
            counters.put(java.util.Objects.requireNonNull(name, "name"), value);
            return this;
        }

        /** Records the average leaf fill, a fraction in [0, 1]. */
        public Builder averageLeafFill(final double fill) {
            if (!(fill >= 0.0 && fill <= 1.0)) {
                throw new IllegalArgumentException("averageLeafFill must be in [0, 1] (got: " + fill + ")");
            }
            this.averageLeafFill = fill;
            return this;
        }

        /** The immutable snapshot. */
        public IndexStats build() {
            return new IndexStats(structure, new LinkedHashMap<>(counters), averageLeafFill);
        }
    }
}
