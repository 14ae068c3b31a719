package io.nearsort.core.sbtree;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Checks the invariants of a quiescent {@link SBTree}: the data layer's blocks in key order within their fences,
 * every N-ary search table, the segmented blocks after the last data block ending at the shortcut, and, once the
 * search-layer thread caught up, a search layer whose leaves index exactly the data blocks under their fences.
 */
final class SBTreeValidator {
    private SBTreeValidator() {
    }

    static void check(final SBTree tree) {
        awaitCaughtUp(tree);
        final DataLayer dataLayer = tree.dataLayer();
        final DataBlockDescriptor d = tree.dataBlockDescriptor();
        final Set<Long> dataBlocks = new HashSet<>();
        long block = dataLayer.head;
        assertEquals(Long.MIN_VALUE, BlockHeader.lowFence(block), "first block's fence");
        boolean havePrevious = false;
        long previousKey = 0;
        long lastData = 0;
        long entries = 0;
        while (block != 0 && !BlockHeader.isSegmented(block)) {
            final long version = VersionLock.awaitStable(block);
            assertFalse(VersionLock.isObsolete(version), "obsolete block in the data layer");
            final int count = DataBlock.count(d, block);
            final long fence = BlockHeader.lowFence(block);
            final long next = BlockHeader.next(block);
            for (int i = 0; i < count; i++) {
                final long key = DataBlock.key(d, block, i);
                if (key < fence) {
                    fail("key " + key + " below its block's fence " + fence);
                }
                if (havePrevious && key <= previousKey) {
                    fail("keys out of order: " + key + " after " + previousKey);
                }
                if (BlockHeader.beyond(block, key)) {
                    fail("key " + key + " at or above the block's high fence " + BlockHeader.highFence(block));
                }
                havePrevious = true;
                previousKey = key;
            }
            for (int bucket = 0; bucket < d.usedBuckets(count); bucket++) {
                assertEquals(DataBlock.key(d, block, bucket << d.bucketShift),
                        org.agrona.UnsafeApi.getLong(d.tableAddress(block, bucket)), "N-ary search table entry");
            }
            if (next != 0 && !BlockHeader.isSegmented(next)) {
                assertTrue(BlockHeader.lowFence(next) > fence, "fences ascend");
            }
            // The high fence is the successor's low fence, unless the successor takes no key.
            if (next == 0 || (BlockHeader.flags(next) & BlockHeader.FLAG_BEYOND_MAX) != 0) {
                assertTrue((BlockHeader.flags(block) & BlockHeader.FLAG_HIGH_OPEN) != 0, "open high fence");
            } else {
                assertEquals(0, BlockHeader.flags(block) & BlockHeader.FLAG_HIGH_OPEN, "bounded high fence");
                assertEquals(BlockHeader.lowFence(next), BlockHeader.highFence(block), "high fence");
            }
            entries += count;
            dataBlocks.add(block);
            lastData = block;
            block = next;
        }
        assertEquals(lastData, dataLayer.tail(), "the tail is the last data block");
        assertEquals(tree.sumDataEntries(), entries, "entries counted per thread");
        // The segmented blocks: the last is the shortcut's.
        long segmented = 0;
        while (block != 0) {
            assertTrue(BlockHeader.isSegmented(block), "only segmented blocks after the last data block");
            segmented = block;
            block = BlockHeader.next(block);
        }
        assertEquals(tree.shortcut().block, segmented, "the shortcut points to the right-most block");
        // The search layer indexes every data block under its fence, and nothing else.
        final SearchLayer searchLayer = tree.searchLayer();
        final Set<Long> indexed = new HashSet<>();
        final long[] last = {Long.MIN_VALUE, 0};
        walk(searchLayer.descriptor(), searchLayer.root(), searchLayer.height() - 1, indexed, last, d);
        assertEquals(dataBlocks, indexed, "the search layer indexes the data blocks");
    }

    /**
     * Waits until the search-layer thread has applied every request submitted so far (a thread taking the last
     * request while the caller looks is not idle: {@link SearchLayerThreadIdleTest}). Generous timeout: a loaded
     * 2-core CI machine.
     */
    static void awaitCaughtUp(final SBTree tree) {
        assertTrue(tree.awaitSearchLayer(120_000), "search-layer thread caught up");
    }

    private static void walk(final SearchBlockDescriptor d, final long node, final int level, final Set<Long> indexed,
                             final long[] last, final DataBlockDescriptor data) {
        assertEquals(level, SearchBlockDescriptor.level(node), "search block level");
        final int count = d.count(node);
        assertTrue(count > 0, "empty search block");
        for (int i = 0; i < count; i++) {
            final long key = SearchBlockDescriptor.key(node, i);
            final long child = d.child(node, i);
            if (level == 0) {
                if (last[1] != 0 && key <= last[0]) {
                    fail("search layer keys out of order: " + key + " after " + last[0]);
                }
                last[0] = key;
                last[1] = 1;
                assertEquals(key, BlockHeader.lowFence(child), "a search entry's key is its block's fence");
                assertTrue(indexed.add(child), "block indexed twice");
            } else {
                assertEquals(key, SearchBlockDescriptor.key(child, 0), "a separator is its subtree's smallest key");
                walk(d, child, level - 1, indexed, last, data);
            }
        }
    }
}
