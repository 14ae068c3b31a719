package io.nearsort.core.betree;

import io.nearsort.core.btree.TreeBuilder;

/**
 * Validated configuration of a {@link BeTree}. The defaults are the Bε-tree of the SWARE paper's evaluation
 * (§V "Index Design"): ε = 1/2, 4 KiB nodes, 50:50 leaf and internal splits; bulk-appended leaves are filled to
 * 95%. The settings it shares with the B+-tree are described in {@link TreeBuilder}; split ratios and the bulk
 * fill factor shape leaves and pivots, never the message buffers.
 */
public final class BeTreeBuilder extends TreeBuilder<BeTreeBuilder> {
    /** ε used when none is configured (SWARE §V, after Bender et al. [8]). */
    public static final double DEFAULT_EPSILON = 0.5;
    /** Smallest accepted ε. */
    public static final double MIN_EPSILON = 0.1;
    /** Largest accepted ε: even 512-byte nodes keep a buffer of 10 messages. */
    public static final double MAX_EPSILON = 0.8;

    private double epsilon = DEFAULT_EPSILON;

    /** Use {@link io.nearsort.core.Indexes#beTree()}. */
    public BeTreeBuilder() {
    }

    /**
     * How an internal node's page is shared: a node that holds B entries as a leaf holds {@code max(2,
     * floor(B^ε))} pivots and gives the rest to its message buffer; in [0.1, 0.8] (default 0.5: about √B pivots).
     * Smaller ε buffers more messages per node (cheaper writes, more to search on reads), larger ε gives more
     * pivots (a shallower tree, smaller buffers).
     *
     * @param epsilon the exponent ε, in [0.1, 0.8]
     * @return this builder
     * @throws IllegalArgumentException when {@code epsilon} is outside [0.1, 0.8]
     */
    public BeTreeBuilder epsilon(final double epsilon) {
        if (!(epsilon >= MIN_EPSILON && epsilon <= MAX_EPSILON)) {
            throw new IllegalArgumentException("epsilon must be in [" + MIN_EPSILON + ", " + MAX_EPSILON + "] (got: "
                    + epsilon + ")");
        }
        this.epsilon = epsilon;
        return this;
    }

    /**
     * Accepts only {@code false}: a Bε-tree write is a message into the root's buffer, never an insert straight
     * into a leaf (SWARE §V-G: the SA Bε-tree's top-inserts land in the buffers).
     *
     * @throws IllegalArgumentException for {@code true}
     */
    @Override
    public BeTreeBuilder tailLeafInserts(final boolean enabled) {
        if (enabled) {
            throw new IllegalArgumentException("tailLeafInserts must be false for a Bε-tree, whose writes enter the "
                    + "root's message buffer (got: true)");
        }
        return this;
    }

    /**
     * Pivots an internal node holds with the configured page size and ε.
     *
     * @return the most pivots an internal node holds, at least 2
     */
    public int maxPivots() {
        return BeNodeDescriptor.of(pageSize(), epsilon).maxPivots;
    }

    /**
     * Messages an internal node's buffer holds with the configured page size and ε.
     *
     * @return the message buffer capacity of an internal node
     */
    public int bufferCapacity() {
        return BeNodeDescriptor.of(pageSize(), epsilon).bufferCapacity;
    }

    /** A new, empty tree that owns its off-heap memory. */
    @Override
    public BeTree build() {
        return new BeTree(this);
    }

    double epsilon() {
        return epsilon;
    }

    @Override
    protected String settings() {
        return ", epsilon=" + epsilon;
    }
}
