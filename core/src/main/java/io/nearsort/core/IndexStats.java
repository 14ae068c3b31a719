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

    /**
     * Starts a snapshot of the structure called {@code structure}.
     *
     * @param structure the structure's name, e.g. {@code "B+-tree"}; not null
     * @return a new builder with no counter recorded
     * @throws NullPointerException when {@code structure} is null
     */
    public static Builder builder(final String structure) {
        return new Builder(structure);
    }

    /**
     * The structure that reported these counters, e.g. {@code "B+-tree"}.
     *
     * @return the structure's name, not null
     */
    public String structure() {
        return structure;
    }

    /**
     * The counter called {@code name}, or 0 when the structure does not keep it.
     *
     * @param name the counter's name, typically one of this class's constants
     * @return the counter's value, or 0 when the structure did not report it
     */
    public long counter(final String name) {
        final Long value = counters.get(name);
        return value == null ? 0L : value;
    }

    /**
     * Every counter the structure reported, in a stable order.
     *
     * @return an unmodifiable map from counter name to value, in the order the structure recorded them
     */
    public Map<String, Long> counters() {
        return counters;
    }

    /**
     * Average fraction of leaf capacity in use, in [0, 1]; 0 when there is no leaf.
     *
     * @return the average leaf fill in [0, 1]; 0 when there is no leaf
     */
    public double averageLeafFill() {
        return averageLeafFill;
    }

    /**
     * Shorthand for {@code counter(SIZE)}.
     *
     * @return entries present; 0 when the structure does not keep this counter
     * @see #SIZE
     */
    public long size() {
        return counter(SIZE);
    }

    /**
     * Shorthand for {@code counter(HEIGHT)}.
     *
     * @return levels from the root to the leaves (1 for a single leaf); 0 when empty or not kept
     * @see #HEIGHT
     */
    public long height() {
        return counter(HEIGHT);
    }

    /**
     * Shorthand for {@code counter(LEAF_COUNT)}.
     *
     * @return leaf nodes; 0 when the structure does not keep this counter
     * @see #LEAF_COUNT
     */
    public long leafCount() {
        return counter(LEAF_COUNT);
    }

    /**
     * Shorthand for {@code counter(INTERNAL_NODE_COUNT)}.
     *
     * @return internal nodes; 0 when the structure does not keep this counter
     * @see #INTERNAL_NODE_COUNT
     */
    public long internalNodeCount() {
        return counter(INTERNAL_NODE_COUNT);
    }

    /**
     * Shorthand for {@code counter(LEAF_SPLITS)}.
     *
     * @return leaf splits since creation; 0 when the structure does not keep this counter
     * @see #LEAF_SPLITS
     */
    public long leafSplits() {
        return counter(LEAF_SPLITS);
    }

    /**
     * Shorthand for {@code counter(INTERNAL_SPLITS)}.
     *
     * @return internal node splits since creation; 0 when the structure does not keep this counter
     * @see #INTERNAL_SPLITS
     */
    public long internalSplits() {
        return counter(INTERNAL_SPLITS);
    }

    /**
     * Shorthand for {@code counter(TOP_INSERTS)}.
     *
     * @return entries inserted by a root-to-leaf traversal; 0 when the structure does not keep this counter
     * @see #TOP_INSERTS
     */
    public long topInserts() {
        return counter(TOP_INSERTS);
    }

    /**
     * Shorthand for {@code counter(TAIL_LEAF_INSERTS)}.
     *
     * @return entries inserted straight into the right-most leaf; 0 when the structure does not keep this counter
     * @see #TAIL_LEAF_INSERTS
     */
    public long tailLeafInserts() {
        return counter(TAIL_LEAF_INSERTS);
    }

    /**
     * Shorthand for {@code counter(BULK_LOADED_ENTRIES)}.
     *
     * @return entries written by bulk append of sorted runs; 0 when the structure does not keep this counter
     * @see #BULK_LOADED_ENTRIES
     */
    public long bulkLoadedEntries() {
        return counter(BULK_LOADED_ENTRIES);
    }

    /**
     * Shorthand for {@code counter(BYTES_ALLOCATED)}.
     *
     * @return bytes obtained from the operating system; 0 when the structure does not keep this counter
     * @see #BYTES_ALLOCATED
     */
    public long bytesAllocated() {
        return counter(BYTES_ALLOCATED);
    }

    /**
     * Shorthand for {@code counter(BYTES_IN_USE)}.
     *
     * @return bytes in pages currently used by the structure; 0 when the structure does not keep this counter
     * @see #BYTES_IN_USE
     */
    public long bytesInUse() {
        return counter(BYTES_IN_USE);
    }

    /**
     * Shorthand for {@code counter(HEAP_BYTES)}.
     *
     * @return bytes of Java heap held by the structure's buffers; 0 when the structure does not keep this counter
     * @see #HEAP_BYTES
     */
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

        /**
         * Records counter {@code name}.
         *
         * @param name the counter's name, typically one of {@link IndexStats}'s constants; not null
         * @param value the counter's value; a later call with the same name replaces it
         * @return this builder
         * @throws NullPointerException when {@code name} is null
         */
        public Builder counter(final String name, final long value) {
            counters.put(java.util.Objects.requireNonNull(name, "name"), value);
            return this;
        }

        /**
         * Records the average leaf fill, a fraction in [0, 1].
         *
         * @param fill the fraction of leaf capacity in use, in [0, 1]
         * @return this builder
         * @throws IllegalArgumentException when {@code fill} is outside [0, 1] or NaN
         */
        public Builder averageLeafFill(final double fill) {
            if (!(fill >= 0.0 && fill <= 1.0)) {
                throw new IllegalArgumentException("averageLeafFill must be in [0, 1] (got: " + fill + ")");
            }
            this.averageLeafFill = fill;
            return this;
        }

        /**
         * The immutable snapshot.
         *
         * @return a snapshot of the counters recorded so far; later calls on this builder do not change it
         */
        public IndexStats build() {
            return new IndexStats(structure, new LinkedHashMap<>(counters), averageLeafFill);
        }
    }
}
