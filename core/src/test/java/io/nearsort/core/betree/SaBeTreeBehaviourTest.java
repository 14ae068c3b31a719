package io.nearsort.core.betree;

import io.nearsort.core.IndexStats;
import io.nearsort.core.Indexes;
import io.nearsort.core.sortedness.KLGenerator;
import io.nearsort.core.sware.SortednessAwareIndex;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SWARE §V-G: the SA Bε-tree bulk loads sorted stretches past the Bε-tree's buffers, leaving them empty, and its
 * top-inserts land in those buffers.
 */
class SaBeTreeBehaviourTest {

    @Test
    void sortedInputIsBulkLoadedLeavingEveryInternalBufferEmpty() {
        final int n = 300_000;
        try (SortednessAwareIndex index = Indexes.saBeTree().bufferCapacity(n / 100).build()) {
            for (long key = 1; key <= n; key++) {
                index.put(key, -key);
            }
            index.flush();
            final IndexStats stats = index.stats();
            assertEquals("SA Bε-tree", stats.structure());
            assertEquals(n, stats.bulkLoadedEntries());
            assertEquals(0, stats.topInserts());
            assertEquals(0, stats.counter(BeTree.MESSAGES_BUFFERED), "no message in any internal node");
            assertEquals(0, stats.counter(BeTree.MESSAGES_FLUSHED));
            assertEquals(0, stats.leafSplits());
            assertTrue(stats.height() >= 3, stats.toString());
            assertTrue(stats.averageLeafFill() > 0.94, stats.toString());
            assertEquals(n, index.size());
            assertEquals(-777, index.getOrDefault(777, 0));
        }
    }

    @Test
    void scrambledInputFillsTheInternalBuffers() {
        final int n = 200_000;
        final long[] keys = KLGenerator.workload(n).scrambled(true).seed(2).generate();
        try (SortednessAwareIndex index = Indexes.saBeTree().bufferCapacity(n / 100).build()) {
            for (final long key : keys) {
                index.put(key, key);
            }
            index.flush();
            final IndexStats stats = index.stats();
            assertTrue(stats.topInserts() > 0.9 * n, stats.toString());
            // Top-inserts enter the root's buffer; flushes carry them down level by level.
            assertTrue(stats.counter(BeTree.MESSAGES_BUFFERED) > stats.counter(BeTree.NODE_BUFFER_CAPACITY),
                    stats.toString());
            for (int level = 1; level < stats.height(); level++) {
                assertTrue(stats.counter(BeTree.NODE_FLUSHES_LEVEL + level) > 0, "flushes at level " + level);
            }
            assertEquals(n, index.size());
        }
    }

    @Test
    void nearSortedInputIsMostlyBulkLoadedAndItsTopInsertsStayInTheBuffers() {
        final int n = 300_000;
        final long[] keys = KLGenerator.generate(n, 5, 5, 1);
        try (SortednessAwareIndex index = Indexes.saBeTree().bufferCapacity(n / 100).build()) {
            for (final long key : keys) {
                index.put(key, key);
            }
            index.flush();
            final IndexStats stats = index.stats();
            assertTrue(stats.bulkLoadedEntries() > 0.8 * n, stats.toString());
            assertTrue(stats.topInserts() > 0, stats.toString());
            assertTrue(stats.counter(BeTree.MESSAGES_BUFFERED) > 0, "top-inserts wait in the buffers: " + stats);
            assertEquals(n, index.size());
            // The plain Bε-tree sends every entry through every level; the SA Bε-tree only its top-inserts, into
            // buffers that bulk loads left empty (§V-G).
            try (BeTree plain = Indexes.beTree().build()) {
                for (final long key : keys) {
                    plain.put(key, key);
                }
                final long plainFlushed = plain.stats().counter(BeTree.MESSAGES_FLUSHED);
                assertTrue(stats.counter(BeTree.MESSAGES_FLUSHED) < 0.3 * plainFlushed,
                        stats.counter(BeTree.MESSAGES_FLUSHED) + " messages flushed against " + plainFlushed);
            }
        }
    }

    @Test
    void theBuilderPassesTreeSettingsToTheBeTreeAndRejectsTailLeafInserts() {
        assertThrows(IllegalArgumentException.class, () -> Indexes.saBeTree().tailLeafInserts(true));
        try (SortednessAwareIndex index = Indexes.saBeTree().pageSize(512).splitRatio(0.6).bufferCapacity(1_000)
                .build()) {
            final IndexStats stats = index.stats();
            assertEquals(5, stats.counter(BeTree.MAX_PIVOTS), "512-byte nodes");
            assertEquals(22, stats.counter(BeTree.NODE_BUFFER_CAPACITY));
            assertEquals(28, stats.counter("zoneSize"), "zones of one bulk-loaded leaf (95% of 30 entries)");
        }
    }
}
