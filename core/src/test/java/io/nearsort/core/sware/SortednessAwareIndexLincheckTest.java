package io.nearsort.core.sware;

import io.nearsort.core.Indexes;
import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

import java.util.TreeMap;

/**
 * Lincheck stress test: concurrent scenarios of puts, batched puts ({@code putAll}, atomic up to 4,096 entries),
 * removes, lookups, sizes and scans on an SA B+-tree with a
 * four-entry buffer (so flushes, tombstones and query-driven sorts happen inside the scenarios) must be
 * linearizable with respect to {@link TreeMap}. Lincheck creates an index per scenario and cannot close it;
 * each holds a few kilobytes off-heap until the test JVM exits.
 */
@Param(name = "key", gen = LongGen.class, conf = "1:12")
@Param(name = "value", gen = LongGen.class, conf = "1:3")
public class SortednessAwareIndexLincheckTest {
    private final SortednessAwareIndex index = Indexes.saBPlusTree().bufferCapacity(4).pageSize(512)
            .queryDrivenSortThreshold(0.5).build();

    @Operation
    public void put(@Param(name = "key") final long key, @Param(name = "value") final long value) {
        index.put(key, value);
    }

    /** A batch that is an in-order run ending in a duplicate: the whole-run copy of putAll, then a tie. */
    @Operation
    public void putRun(@Param(name = "key") final long key, @Param(name = "value") final long value) {
        index.putAll(new long[] {key, key + 1, key + 1}, new long[] {value, value + 1, value + 2}, 0, 3);
    }

    /**
     * A strictly ascending batch: past the buffer when it finds it empty and lies above the tree, written to the
     * tree beside point reads, which see it whole.
     */
    @Operation
    public void putAscending(@Param(name = "key") final long key, @Param(name = "value") final long value) {
        index.putAll(new long[] {key, key + 2, key + 4}, new long[] {value, value + 1, value + 2}, 0, 3);
    }

    /** A descending batch: putAll's entry-by-entry path. */
    @Operation
    public void putDescending(@Param(name = "key") final long key, @Param(name = "value") final long value) {
        index.putAll(new long[] {key + 3, key}, new long[] {value, value + 1}, 0, 2);
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
                .actorsBefore(6).sequentialSpecification(Spec.class).check(getClass());
    }

    /** The sequential specification: a {@link TreeMap}. */
    public static final class Spec {
        private final TreeMap<Long, Long> map = new TreeMap<>();

        public void put(final long key, final long value) {
            map.put(key, value);
        }

        public void putRun(final long key, final long value) {
            map.put(key, value);
            map.put(key + 1, value + 1);
            map.put(key + 1, value + 2);
        }

        public void putAscending(final long key, final long value) {
            map.put(key, value);
            map.put(key + 2, value + 1);
            map.put(key + 4, value + 2);
        }

        public void putDescending(final long key, final long value) {
            map.put(key + 3, value);
            map.put(key, value + 1);
        }

        public void remove(final long key) {
            map.remove(key);
        }

        public long get(final long key) {
            return map.getOrDefault(key, -1L);
        }

        public long size() {
            return map.size();
        }

        public String scan(final long lo) {
            final StringBuilder sb = new StringBuilder();
            map.subMap(lo, true, lo + 4, true).forEach((k, v) -> sb.append(k).append('=').append(v).append(' '));
            return sb.toString();
        }
    }
}
