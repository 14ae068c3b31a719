package io.nearsort.core.btree;

import io.nearsort.core.memory.PageArena;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The off-heap key searches of a node against a plain scan of its keys. */
class NodeSearchTest {

    /** {@code gallopUpperBoundAt} from every start slot a caller may pass, for keys below, on, between and above. */
    @Test
    void gallopingSearchAgreesWithALinearScan() {
        try (PageArena arena = PageArena.builder().pageSize(1024).build()) {
            final long page = arena.allocate();
            final Node node = new Node(1024).initLeaf(page);
            final SplittableRandom random = new SplittableRandom(5);
            for (final int count : new int[] {0, 1, 2, 3, 7, 8, 9, NodeDescriptor.leafCapacity(1024)}) {
                final long[] keys = new long[count];
                long key = Long.MIN_VALUE;
                for (int i = 0; i < count; i++) {
                    key = i == 0 ? Long.MIN_VALUE : i == count - 1 ? Long.MAX_VALUE : key + 1 + random.nextInt(5);
                    keys[i] = key;
                    node.setKey(i, key);
                }
                node.setCount(count);
                for (int i = 0; i < count; i++) {
                    for (final long probe : new long[] {keys[i] - 1, keys[i], keys[i] + 1}) {
                        final int expected = linearUpperBound(keys, probe);
                        for (int from = 0; from <= expected; from++) {
                            assertEquals(expected, Node.gallopUpperBoundAt(page, from, count, probe),
                                    "count " + count + ", from " + from + ", key " + probe);
                        }
                    }
                }
            }
        }
    }

    private static int linearUpperBound(final long[] keys, final long key) {
        int i = 0;
        while (i < keys.length && keys[i] <= key) {
            i++;
        }
        return i;
    }
}
