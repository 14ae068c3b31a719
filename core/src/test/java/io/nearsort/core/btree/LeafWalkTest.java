package io.nearsort.core.btree;

import io.nearsort.core.Indexes;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link BPlusTree#forEachLeaf}: every entry once, in key order, leaf by leaf (LDI §3.1 trains on it). */
class LeafWalkTest {

    @Test
    void visitsEveryEntryInOrderLeafByLeaf() {
        final TreeMap<Long, Long> oracle = new TreeMap<>();
        final SplittableRandom rnd = new SplittableRandom(17);
        final BPlusTree tree = Indexes.bPlusTree().pageSize(512).build();
        {
            for (int i = 0; i < 20_000; i++) {
                final long key = rnd.nextInt(50) == 0 ? (rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE)
                        : rnd.nextLong(100_000);
                tree.put(key, i);
                oracle.put(key, (long) i);
                if (i % 7 == 0) {
                    final long gone = rnd.nextLong(100_000);
                    tree.remove(gone);
                    oracle.remove(gone);
                }
            }
            final var expected = oracle.entrySet().iterator();
            final int[] leaves = {0};
            final long[] previous = {Long.MIN_VALUE};
            final boolean[] first = {true};
            tree.forEachLeaf((keys, values, count) -> {
                assertTrue(count >= 1 && count <= tree.leafCapacity());
                leaves[0]++;
                for (int i = 0; i < count; i++) {
                    final var e = expected.next();
                    assertEquals(e.getKey(), keys[i]);
                    assertEquals(e.getValue(), values[i]);
                    assertTrue(first[0] || keys[i] > previous[0]);
                    first[0] = false;
                    previous[0] = keys[i];
                }
            });
            assertTrue(!expected.hasNext(), "every entry visited");
            assertEquals(tree.stats().counter(io.nearsort.core.IndexStats.LEAF_COUNT), leaves[0]);
            tree.close();
            assertEquals(0, tree.bytesInUse());
            assertThrows(IllegalStateException.class, () -> tree.forEachLeaf((k, v, c) -> { }));
        }
    }
}
