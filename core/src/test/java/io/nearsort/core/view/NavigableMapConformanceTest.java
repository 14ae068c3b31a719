package io.nearsort.core.view;

import com.google.common.collect.testing.NavigableMapTestSuiteBuilder;
import com.google.common.collect.testing.SampleElements;
import com.google.common.collect.testing.TestSortedMapGenerator;
import com.google.common.collect.testing.features.CollectionFeature;
import com.google.common.collect.testing.features.CollectionSize;
import com.google.common.collect.testing.features.MapFeature;
import io.nearsort.core.Indexes;
import io.nearsort.core.LongIndex;
import io.nearsort.core.testing.GuavaSuites;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map.Entry;
import java.util.NavigableMap;
import java.util.SortedMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Guava's testlib {@code NavigableMapTestSuiteBuilder}, an independent conformance suite for the
 * {@code java.util.NavigableMap} contract (it derives the descending, sub-, head- and tail-map and key-set
 * suites itself), run against the views of the B+-tree, the SA B+-tree, the SB-Tree, the Bε-tree and the SA
 * Bε-tree with small nodes.
 */
class NavigableMapConformanceTest {
    private static final List<LongIndex> CREATED = new ArrayList<>();

    @TestFactory
    DynamicNode bPlusTreeView() {
        return suite("BPlusTree.asNavigableMap",
                () -> Indexes.bPlusTree().pageSize(512).splitRatio(0.8).tailLeafInserts(true).build());
    }

    /** The SA B+-tree's view, with a buffer of 3 entries so that maps span the buffer and the tree. */
    @TestFactory
    DynamicNode saBPlusTreeView() {
        return suite("SortednessAwareIndex.asNavigableMap",
                () -> Indexes.saBPlusTree().bufferCapacity(3).pageSize(512).build());
    }

    /** The Bε-tree's view; 512-byte nodes buffer 22 messages, so the suite's maps live in the root's buffer. */
    @TestFactory
    DynamicNode beTreeView() {
        return suite("BeTree.asNavigableMap", () -> Indexes.beTree().pageSize(512).build());
    }

    /**
     * The Bε-tree's view over a tree that held 300 keys and had them all removed: the suite's entries mix with
     * delete messages and dead leaf entries in a tree of three levels whose buffers flush as the suite writes.
     */
    @TestFactory
    DynamicNode beTreeViewOverDeletedKeys() {
        return suite("BeTree.asNavigableMap.afterDeletes", NavigableMapConformanceTest::beTreeOfDeletedKeys);
    }

    /** The SA Bε-tree's view, with a buffer of 3 entries so that maps span the SWARE buffer and the Bε-tree. */
    @TestFactory
    DynamicNode saBeTreeView() {
        return suite("SA-BeTree.asNavigableMap", () -> Indexes.saBeTree().bufferCapacity(3).pageSize(512).build());
    }

    private static DynamicNode suite(final String name, final java.util.function.Supplier<LongIndex> factory) {
        final junit.framework.Test suite = NavigableMapTestSuiteBuilder
                .using(new Generator(factory))
                .named(name)
                .withFeatures(MapFeature.GENERAL_PURPOSE, CollectionFeature.SUPPORTS_ITERATOR_REMOVE,
                        CollectionFeature.KNOWN_ORDER, CollectionSize.ANY)
                .createTestSuite();
        return GuavaSuites.toDynamic(suite, NavigableMapConformanceTest::closeCreated);
    }

    /**
     * The SB-Tree's view, with segmented blocks of one per-thread block of two entries, so that every map of
     * three or more entries spans data blocks (after conversions), a segmented block and tombstones.
     */
    @TestFactory
    DynamicNode sbTreeView() {
        return suite("SBTree.asNavigableMap",
                () -> Indexes.sbTree().blockSize(512).maxPerThreadBlocks(1).perThreadBlockCapacity(2).build());
    }

    private static LongIndex beTreeOfDeletedKeys() {
        final LongIndex tree = Indexes.beTree().pageSize(512).build();
        final java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        final long[] keys = new long[300];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(10_000) - 5_000;
            tree.put(keys[i], i);
        }
        for (final long key : keys) {
            tree.remove(key);
        }
        assertEquals(0, tree.size());
        return tree;
    }

    private static void closeCreated() {
        for (final LongIndex index : CREATED) {
            index.close();
            if (index instanceof io.nearsort.core.btree.PagedTree) {
                assertEquals(0, ((io.nearsort.core.btree.PagedTree) index).bytesInUse(), "bytesInUse after close");
            }
            if (index instanceof io.nearsort.core.sbtree.SBTree) {
                assertEquals(0, ((io.nearsort.core.sbtree.SBTree) index).bytesInUse(), "bytesInUse after close");
            }
        }
        CREATED.clear();
    }

    /** Creates views over fresh trees; sample keys include the extremes of the key domain. */
    private static final class Generator implements TestSortedMapGenerator<Long, Long> {
        private final java.util.function.Supplier<LongIndex> factory;

        Generator(final java.util.function.Supplier<LongIndex> factory) {
            this.factory = factory;
        }

        private static Entry<Long, Long> entry(final long key, final long value) {
            return new SimpleImmutableEntry<>(key, value);
        }

        @Override
        public SampleElements<Entry<Long, Long>> samples() {
            return new SampleElements<>(entry(-5L, Long.MIN_VALUE), entry(0L, 10L), entry(7L, -1L),
                    entry(1000L, Long.MAX_VALUE), entry(5000L, 0L));
        }

        @Override
        public SortedMap<Long, Long> create(final Object... entries) {
            final LongIndex index = factory.get();
            CREATED.add(index);
            final NavigableMap<Long, Long> map = index.asNavigableMap();
            for (final Object o : entries) {
                @SuppressWarnings("unchecked")
                final Entry<Long, Long> e = (Entry<Long, Long>) o;
                map.put(e.getKey(), e.getValue());
            }
            return map;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Entry<Long, Long>[] createArray(final int length) {
            return (Entry<Long, Long>[]) new Entry<?, ?>[length];
        }

        @Override
        public Iterable<Entry<Long, Long>> order(final List<Entry<Long, Long>> insertionOrder) {
            final List<Entry<Long, Long>> sorted = new ArrayList<>(insertionOrder);
            sorted.sort(Entry.comparingByKey());
            return sorted;
        }

        @Override
        public Long[] createKeyArray(final int length) {
            return new Long[length];
        }

        @Override
        public Long[] createValueArray(final int length) {
            return new Long[length];
        }

        @Override
        public Entry<Long, Long> belowSamplesLesser() {
            return entry(Long.MIN_VALUE, 1L);
        }

        @Override
        public Entry<Long, Long> belowSamplesGreater() {
            return entry(-1000L, 2L);
        }

        @Override
        public Entry<Long, Long> aboveSamplesLesser() {
            return entry(Long.MAX_VALUE - 1, 3L);
        }

        @Override
        public Entry<Long, Long> aboveSamplesGreater() {
            return entry(Long.MAX_VALUE, 4L);
        }
    }
}
