package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import io.nearsort.core.Indexes;
import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Lincheck for the single-writer publication protocol ({@link Concurrency#SINGLE_WRITER}): writes run in one
 * thread at a time (Lincheck's non-parallel group), lookups, sizes and scans in any thread, and every history must
 * be linearizable with respect to a {@code TreeMap} ({@link SortednessAwareIndexLincheckTest.Spec}). A four-entry
 * buffer makes lock-free appends, flush cycles, tombstones and requested query-driven sorts all happen inside the
 * scenarios. The model checker explores the interleavings of the writer's stores with the readers' loads, so
 * publishing the buffer's size before an entry is written fails it.
 */
@Param(name = "key", gen = LongGen.class, conf = "1:12")
@Param(name = "value", gen = LongGen.class, conf = "1:3")
public class SingleWriterLincheckTest {
    private final SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(4).pageSize(512)
            .queryDrivenSortThreshold(0.5).concurrency(Concurrency.SINGLE_WRITER).build();

    @Operation(nonParallelGroup = "writer")
    public void put(@Param(name = "key") final long key, @Param(name = "value") final long value) {
        index.put(key, value);
    }

    /** An in-order run ending in a tie: the lock-free chunk of putAll. */
    @Operation(nonParallelGroup = "writer")
    public void putRun(@Param(name = "key") final long key, @Param(name = "value") final long value) {
        index.putAll(new long[] {key, key + 1, key + 1}, new long[] {value, value + 1, value + 2}, 0, 3);
    }

    /**
     * A strictly ascending batch: past the buffer when it finds it empty and lies above the tree, written to the
     * tree beside point reads, which see it whole.
     */
    @Operation(nonParallelGroup = "writer")
    public void putAscending(@Param(name = "key") final long key, @Param(name = "value") final long value) {
        index.putAll(new long[] {key, key + 2, key + 4}, new long[] {value, value + 1, value + 2}, 0, 3);
    }

    @Operation(nonParallelGroup = "writer")
    public void putDescending(@Param(name = "key") final long key, @Param(name = "value") final long value) {
        index.putAll(new long[] {key + 3, key}, new long[] {value, value + 1}, 0, 2);
    }

    @Operation(nonParallelGroup = "writer")
    public void remove(@Param(name = "key") final long key) {
        index.remove(key);
    }

    @Operation
    public long get(@Param(name = "key") final long key) {
        return index.getOrDefault(key, -1);
    }

    @Operation
    public long size() {
        return index.size();
    }

    @Operation
    public String scan(@Param(name = "key") final long lo) {
        final StringBuilder sb = new StringBuilder();
        index.forEachInRange(lo, lo + 4, (k, v) -> sb.append(k).append('=').append(v).append(' '));
        return sb.toString();
    }

    @Test
    void linearizableUnderStress() {
        new StressOptions().iterations(40).invocationsPerIteration(300).threads(3).actorsPerThread(4)
                .actorsBefore(6).sequentialSpecification(SortednessAwareIndexLincheckTest.Spec.class)
                .check(getClass());
    }

    /**
     * The tree (off-heap, guarded by the locks this protocol does not change) is one atomic step for the model
     * checker, which cannot follow Agrona's buffers; the buffer, its publication and the locks are explored.
     */
    @Test
    void linearizableUnderModelChecking() {
        new ModelCheckingOptions().iterations(30).invocationsPerIteration(200).threads(2).actorsPerThread(3)
                .actorsBefore(5).sequentialSpecification(SortednessAwareIndexLincheckTest.Spec.class)
                .addGuarantee(ManagedStrategyGuaranteeKt.forClasses(name -> name.startsWith("io.nearsort.core.btree.")
                        || name.startsWith("io.nearsort.core.memory.") || name.startsWith("org.agrona."))
                        .allMethods().treatAsAtomic())
                .check(getClass());
    }
}
