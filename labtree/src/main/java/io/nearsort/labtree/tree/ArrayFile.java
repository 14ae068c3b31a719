package io.nearsort.labtree.tree;

import io.nearsort.labtree.SplitStrategy;
import io.nearsort.labtree.leaf.LeafCapacity;
import io.nearsort.labtree.storage.BufferPool;

import java.util.Arrays;

/**
 * An array's LAB-tree inside a page file: creates the meta page and the first leaf in a new file, or reads and
 * checks them in an existing one, and writes the tree's state back on {@link #saveMeta()}.
 */
public final class ArrayFile {
    private final BufferPool pool;
    private final ArrayMeta meta;
    private final LabTree tree;

    /**
     * What the caller asks for; null fields take the stored value when the file exists.
     *
     * @param shape         one extent per dimension; required, and must match an existing file's
     * @param linearization the storage linearization's name ({@link io.nearsort.labtree.Linearization#name()});
     *                      required, and must match an existing file's
     * @param capacity      κs, κd and the leaf format; null takes the stored capacities, or in a new file the
     *                      {@code derivedCapacity} given to {@link #open}
     * @param strategy      how leaves split; null takes the stored strategy, or {@link SplitStrategy#ALIGNED} in a
     *                      new file
     * @param defaultValue  the value of elements never set (compared by {@link Double#compare}); null takes the
     *                      stored value, or 0.0 in a new file
     */
    public record Definition(long[] shape, String linearization, LeafCapacity capacity, SplitStrategy strategy,
                             Double defaultValue) {
    }

    private ArrayFile(final BufferPool pool, final ArrayMeta meta, final long domain) {
        this.pool = pool;
        this.meta = meta;
        this.tree = new LabTree(pool, meta.capacity, meta.strategy, meta.defaultValue, domain, meta.tree);
    }

    /**
     * Opens the array in {@code pool}'s file, creating it from {@code wanted} when the file holds no pages yet.
     *
     * @param pool            the open buffer pool over the array's page file
     * @param wanted          the caller's definition; shape and linearization required, null fields take the stored
     *                        value (or, in a new file, {@code derivedCapacity}, {@link SplitStrategy#ALIGNED}, 0.0)
     * @param domain          N, the number of linearized indices: the tree's keys are in [0, domain)
     * @param derivedCapacity the leaf capacities a new file gets when {@code wanted} has none
     * @return the array's file, its tree ready to use
     * @throws IllegalArgumentException if an existing array was created with a different definition
     */
    public static ArrayFile open(final BufferPool pool, final Definition wanted, final long domain,
                                 final LeafCapacity derivedCapacity) {
        if (pool.file().pageCount() == 0) {
            final ArrayMeta meta = new ArrayMeta();
            meta.shape = wanted.shape().clone();
            meta.linearization = wanted.linearization();
            meta.capacity = wanted.capacity() != null ? wanted.capacity() : derivedCapacity;
            meta.strategy = wanted.strategy() != null ? wanted.strategy() : SplitStrategy.ALIGNED;
            meta.defaultValue = wanted.defaultValue() != null ? wanted.defaultValue() : 0.0;
            checkFits(pool, meta.capacity);
            final BufferPool.Frame metaFrame = pool.pinNew();
            pool.unpin(metaFrame);
            final ArrayFile file = new ArrayFile(pool, meta, domain);
            file.tree.createRoot();
            file.saveMeta();
            return file;
        }
        final BufferPool.Frame frame = pool.pin(MetaPageDescriptor.META_PAGE);
        final ArrayMeta meta;
        try {
            meta = ArrayMeta.read(frame, pool);
        } finally {
            pool.unpin(frame);
        }
        final String where = pool.file().path() + " was created with ";
        if (!Arrays.equals(meta.shape, wanted.shape())) {
            throw new IllegalArgumentException(where + "shape " + Arrays.toString(meta.shape) + "; shape must match "
                    + "(got: " + Arrays.toString(wanted.shape()) + ")");
        }
        if (!meta.linearization.equals(wanted.linearization())) {
            throw new IllegalArgumentException(where + "linearization " + meta.linearization + "; linearization must "
                    + "match (got: " + wanted.linearization() + ")");
        }
        if (wanted.capacity() != null && !wanted.capacity().equals(meta.capacity)) {
            throw new IllegalArgumentException(where + meta.capacity + "; leafFormat and leafCapacities must match "
                    + "(got: " + wanted.capacity() + ")");
        }
        if (wanted.strategy() != null && wanted.strategy() != meta.strategy) {
            throw new IllegalArgumentException(where + "splitStrategy " + meta.strategy + "; splitStrategy must match "
                    + "(got: " + wanted.strategy() + ")");
        }
        if (wanted.defaultValue() != null && Double.compare(wanted.defaultValue(), meta.defaultValue) != 0) {
            throw new IllegalArgumentException(where + "defaultValue " + meta.defaultValue + "; defaultValue must "
                    + "match (got: " + wanted.defaultValue() + ")");
        }
        return new ArrayFile(pool, meta, domain);
    }

    private static void checkFits(final BufferPool pool, final LeafCapacity capacity) {
        final int pageSize = pool.file().pageSize();
        if (capacity.sparse() > NodePageDescriptor.maxSparseCapacity(pageSize)
                || capacity.dense() > NodePageDescriptor.maxDenseCapacity(pageSize)) {
            throw new IllegalArgumentException("leafCapacities must fit a " + pageSize + "-byte page: kappaSparse <= "
                    + NodePageDescriptor.maxSparseCapacity(pageSize) + ", kappaDense <= "
                    + NodePageDescriptor.maxDenseCapacity(pageSize) + " (got: " + capacity.sparse() + ", "
                    + capacity.dense() + ")");
        }
    }

    /**
     * The capacities a page of {@code pageSize} bytes gives the format.
     *
     * @param pageSize bytes per page, a power of two from 512 to 1 MiB
     * @param format   the leaf format
     * @return the largest κs (and, for {@link io.nearsort.labtree.LeafFormat#DYNAMIC}, κd) a node page holds
     */
    public static LeafCapacity capacityFor(final int pageSize, final io.nearsort.labtree.LeafFormat format) {
        final int sparse = NodePageDescriptor.maxSparseCapacity(pageSize);
        return format == io.nearsort.labtree.LeafFormat.DYNAMIC
                ? LeafCapacity.dynamic(sparse, NodePageDescriptor.maxDenseCapacity(pageSize))
                : LeafCapacity.sparseOnly(sparse);
    }

    /**
     * The array's LAB-tree.
     *
     * @return the tree, whose state is {@link #state()}
     */
    public LabTree tree() {
        return tree;
    }

    /**
     * The leaf capacities the array was created with.
     *
     * @return κs, κd and the leaf format, as stored in the meta page
     */
    public LeafCapacity capacity() {
        return meta.capacity;
    }

    /**
     * The split strategy the array was created with.
     *
     * @return how the tree's leaves split, as stored in the meta page
     */
    public SplitStrategy strategy() {
        return meta.strategy;
    }

    /**
     * The value of elements never set, which the tree does not store.
     *
     * @return the default value, as stored in the meta page
     */
    public double defaultValue() {
        return meta.defaultValue;
    }

    /**
     * The name of the linearization the array is stored in.
     *
     * @return the {@link io.nearsort.labtree.Linearization#name()} recorded at creation
     */
    public String linearization() {
        return meta.linearization;
    }

    /**
     * The tree's counters and pointers, written to the meta page by {@link #saveMeta()}.
     *
     * @return the live state, updated in place as the tree changes
     */
    public LabTree.TreeState state() {
        return meta.tree;
    }

    /** Writes the tree's state to the meta page (made durable by the pool's flush). */
    public void saveMeta() {
        final BufferPool.Frame frame = pool.pin(MetaPageDescriptor.META_PAGE);
        meta.write(frame);
        pool.unpin(frame);
    }
}
