package io.nearsort.core.sbtree;

import io.nearsort.core.Indexes;
import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Lincheck stress test of the whole index: concurrent puts, removes, lookups and membership tests from three
 * threads must be linearizable with respect to {@link TreeMap}. One per-thread block per segmented block and
 * 512-byte blocks make every scenario convert segmented blocks (a second writer thread's first put converts),
 * send most keys down the delayed path into version-locked data blocks, leave tombstones in segmented blocks and
 * order writes of one key from different threads by their write stamps. Scans and {@code size()} are weakly
 * consistent by contract and are tested elsewhere. Each index is closed after its invocation ({@link Validate}),
 * and any Lincheck creates beyond those at the end.
 */
@Param(name = "key", gen = LongGen.class, conf = "1:12")
@Param(name = "value", gen = LongGen.class, conf = "1:3")
public class SBTreeLincheckTest {
    private static final List<SBTree> CREATED = new CopyOnWriteArrayList<>();

    private final SBTree index = Indexes.sbTree().blockSize(512).maxPerThreadBlocks(1).build();

    public SBTreeLincheckTest() {
        CREATED.add(index);
    }

    @Operation
    public void put(@Param(name = "key") final long key, @Param(name = "value") final long value) {
        index.put(key, value);
    }

    @Operation
    public void remove(@Param(name = "key") final long key) {
        index.remove(key);
    }

    @Operation
    public long get(@Param(name = "key") final long key) {
        return index.getOrDefault(key, -1);
    }

    @Operation
    public boolean containsKey(@Param(name = "key") final long key) {
        return index.containsKey(key);
    }

    /** Runs after each invocation: frees the index and ends its search-layer thread. */
    @Validate
    public void close() {
        index.close();
    }

    @Test
    void linearizableUnderStress() {
        try {
            new StressOptions().iterations(30).invocationsPerIteration(300).threads(3).actorsPerThread(4)
                    .actorsBefore(4).sequentialSpecification(Spec.class)
                    // Failures are probabilistic under stress: minimizing a failed scenario reruns it for minutes.
                    .minimizeFailedScenario(false).check(getClass());
        } finally {
            CREATED.forEach(SBTree::close);
            CREATED.clear();
        }
    }

    /** The sequential specification: a {@link TreeMap}. */
    public static final class Spec {
        private final TreeMap<Long, Long> map = new TreeMap<>();

        public void put(final long key, final long value) {
            map.put(key, value);
        }

        public void remove(final long key) {
            map.remove(key);
        }

        public long get(final long key) {
            return map.getOrDefault(key, -1L);
        }

        public boolean containsKey(final long key) {
            return map.containsKey(key);
        }
    }
}
