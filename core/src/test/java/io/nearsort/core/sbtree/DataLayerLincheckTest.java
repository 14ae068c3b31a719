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
 * Lincheck stress test of the data layer's version-lock protocol (§III-F, §IV-D): writers in every thread insert,
 * overwrite and remove keys in data blocks under their version locks, splitting full blocks; readers look keys up
 * optimistically and validate the version; every history must be linearizable with respect to {@link TreeMap}.
 * The first data block starts with 24 of its 27 entries, keys above the scenario's, so every insert shifts a
 * block's entries and scenarios split blocks; the search layer is not updated (its thread is not started), so
 * split-off blocks are found by walking. It is aimed at a reader that trusts a block without validating its
 * version, but does not reliably catch one: with {@code DataLayer.lookup}'s {@code VersionLock.validate} removed,
 * one run passed (docs/benchmarks.md, "SB-Tree (issue 18)", 2026-11-25).
 */
@Param(name = "key", gen = LongGen.class, conf = "1:12")
@Param(name = "value", gen = LongGen.class, conf = "1:3")
public class DataLayerLincheckTest {
    private static final int PRELOADED = 24;
    private static final List<PageArena> CREATED = new CopyOnWriteArrayList<>();

    private final PageArena arena = PageArena.builder().pageSize(512).concurrent(true)
            .slabPool(SlabPool.disabled()).build();
    private final DataLayer dataLayer;
    private final ThreadLocal<ThreadContext> contexts = ThreadLocal.withInitial(
            () -> new ThreadContext(1, Thread.currentThread()));

    public DataLayerLincheckTest() {
        CREATED.add(arena);
        final DataBlockDescriptor d = new DataBlockDescriptor(512, 8);
        final PerThreadBlockDescriptor ptb = new PerThreadBlockDescriptor(512);
        final EpochReclamation reclamation = new EpochReclamation();
        final long head = arena.allocate();
        DataBlock.format(head, Long.MIN_VALUE, 0L);
        final long[] keys = new long[PRELOADED];
        final long[] values = new long[PRELOADED];
        for (int i = 0; i < PRELOADED; i++) {
            keys[i] = 100 + i;
            values[i] = -i;
        }
        DataBlock.append(d, head, 0, keys, values, 0, PRELOADED);
        final SearchLayer searchLayer = new SearchLayer(new SearchBlockDescriptor(512), arena, reclamation, head);
        dataLayer = new DataLayer(d, ptb, arena, searchLayer, reclamation, d.capacity, head, () -> true);
        // Requests queue up, never applied: a search-layer thread stopped before it started stays so.
        final SearchLayerThread thread = new SearchLayerThread(searchLayer, reclamation, new ContextRegistry(),
                arena, 0);
        thread.stop();
        dataLayer.attach(thread);
    }

    @Operation
    public void put(@Param(name = "key") final long key, @Param(name = "value") final long value) {
        dataLayer.put(contexts.get(), key, value);
    }

    @Operation
    public void remove(@Param(name = "key") final long key) {
        dataLayer.remove(contexts.get(), key);
    }

    @Operation
    public long get(@Param(name = "key") final long key) {
        final ThreadContext context = contexts.get();
        return dataLayer.lookup(context, key) == SegmentedBlock.FOUND ? context.valueOut[0] : -1L;
    }

    /** A preloaded key: its value never changes, so a torn read shows. */
    @Operation
    public long getPreloaded(@Param(name = "key") final long key) {
        final ThreadContext context = contexts.get();
        return dataLayer.lookup(context, 100 + key) == SegmentedBlock.FOUND ? context.valueOut[0] : -1L;
    }

    @Validate
    public void close() {
        arena.close();
    }

    @Test
    void versionLockIsLinearizable() {
        try {
            new StressOptions().iterations(20).invocationsPerIteration(500).threads(3).actorsPerThread(4)
                    .actorsBefore(4).sequentialSpecification(Spec.class)
                    // Failures are probabilistic under stress: minimizing a failed scenario reruns it for minutes.
                    .minimizeFailedScenario(false).check(getClass());
        } finally {
            CREATED.forEach(PageArena::close);
            CREATED.clear();
        }
    }

    /** The sequential specification: a {@link TreeMap} holding the preloaded keys. */
    public static final class Spec {
        private final TreeMap<Long, Long> map = new TreeMap<>();

        public Spec() {
            for (int i = 0; i < PRELOADED; i++) {
                map.put(100L + i, (long) -i);
            }
        }

        public void put(final long key, final long value) {
            map.put(key, value);
        }

        public void remove(final long key) {
            map.remove(key);
        }

        public long get(final long key) {
            return map.getOrDefault(key, -1L);
        }

        public long getPreloaded(final long key) {
            return map.getOrDefault(100 + key, -1L);
        }
    }
}
