package io.nearsort.core.sbtree;

import io.nearsort.core.memory.PageArena;
import io.nearsort.core.memory.SlabPool;
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
 * Lincheck stress test of the search layer's ROWEX protocol (§III-F): one writer (Lincheck's non-parallel group,
 * the search-layer thread's role) indexes and removes fences, readers find blocks without locks, and every
 * history must be linearizable with respect to {@code TreeMap.floorEntry}. The writer appends ascending fences
 * (as conversions do, in place, publishing a count after its entry) and indexes and removes fences in the middle
 * (as splits and unlinks do: copy-on-write); search blocks of four entries make scenarios split, grow the root
 * and copy blocks. It is aimed at a writer that publishes a node's count before its entry's child pointer, but
 * does not reliably catch one: with that order in {@code SearchLayer}'s in-place append, one run passed
 * (docs/benchmarks.md, "SB-Tree (issue 18)", 2026-11-25).
 */
@Param(name = "key", gen = LongGen.class, conf = "1:32")
public class SearchLayerLincheckTest {
    private static final List<PageArena> CREATED = new CopyOnWriteArrayList<>();
    private static final long SCALE = 1_000;

    private final PageArena arena = PageArena.builder().pageSize(512).concurrent(true)
            .slabPool(SlabPool.disabled()).build();
    private final SearchLayer layer = new SearchLayer(new SearchBlockDescriptor(512, 4), arena,
            new EpochReclamation(), block(0));
    /** The last fence appended; appends start above the keys of {@link #index}. */
    private long appended = APPENDS_FROM;
    private static final long APPENDS_FROM = 16;

    public SearchLayerLincheckTest() {
        CREATED.add(arena);
    }

    /** A stand-in for the data block of fence {@code key * SCALE}: readers never dereference leaf children. */
    static long block(final long key) {
        return (key << 4) | 8;
    }

    /** The next fence above every other: the in-place ROWEX append of conversions. */
    @Operation(nonParallelGroup = "writer")
    public void append() {
        appended++;
        layer.insert(appended * SCALE, block(appended));
    }

    /** A fence among the existing ones (keys up to 16): copy-on-write, as for a split-off block. */
    @Operation(nonParallelGroup = "writer")
    public void index(@Param(name = "key") final long key) {
        final long fence = key % APPENDS_FROM;
        layer.insert(fence * SCALE, block(fence));
    }

    @Operation(nonParallelGroup = "writer")
    public boolean unindex(@Param(name = "key") final long key) {
        return layer.remove(key * SCALE, block(key));
    }


    /** The block found for a key just above {@code key}'s fence, as the fence's key. */
    @Operation
    public long find(@Param(name = "key") final long key) {
        return layer.find(key * SCALE + SCALE / 2) >>> 4;
    }

    @Validate
    public void close() {
        arena.close();
    }

    @Test
    void rowexIsLinearizable() {
        try {
            new StressOptions().iterations(30).invocationsPerIteration(1_000).threads(3).actorsPerThread(4)
                    .actorsBefore(8).sequentialSpecification(Spec.class)
                    // Failures are probabilistic under stress: minimizing a failed scenario reruns it for minutes.
                    .minimizeFailedScenario(false).check(getClass());
        } finally {
            CREATED.forEach(PageArena::close);
            CREATED.clear();
        }
    }

    /** The sequential specification: fences in a {@link TreeMap}, {@code MIN_VALUE} always present. */
    public static final class Spec {
        private final TreeMap<Long, Long> fences = new TreeMap<>();
        private long appended = APPENDS_FROM;

        public Spec() {
            fences.put(Long.MIN_VALUE, 0L);
        }

        public void append() {
            appended++;
            fences.put(appended * SCALE, appended);
        }

        public void index(final long key) {
            final long fence = key % APPENDS_FROM;
            fences.put(fence * SCALE, fence);
        }

        public boolean unindex(final long key) {
            return fences.remove(key * SCALE) != null;
        }

        public long find(final long key) {
            return fences.floorEntry(key * SCALE + SCALE / 2).getValue();
        }
    }
}
