package io.nearsort.labtree;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Update batching (LAB-tree §5) against an in-memory oracle, and Example 2. */
class UpdateBufferTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(FlushPolicy.class)
    void bufferedWritesAreReadBackAndSurviveReopen(final FlushPolicy policy) {
        final Path file = dir.resolve(policy + ".lab");
        final Map<Long, Double> oracle = new HashMap<>();
        final SplittableRandom random = new SplittableRandom(policy.ordinal());
        for (int session = 0; session < 2; session++) {
            try (LabArray a = LabArray.builder(file).shape(3000).pageSize(512).bufferPoolPages(8)
                    .updateBuffer(100, policy).pageInfoCache(policy == FlushPolicy.ALL ? 0 : 10).build()) {
                for (int op = 0; op < 6000; op++) {
                    final long key = op % 4 == 0 ? random.nextInt(3000) : (op * 7L) % 3000;
                    final double value = random.nextInt(6) == 0 ? 0 : random.nextInt(1, 500);
                    a.set(value, key);
                    if (value == 0) {
                        oracle.remove(key);
                    } else {
                        oracle.put(key, value);
                    }
                    if (op % 997 == 0) {
                        for (long k = 0; k < 3000; k++) {
                            assertEquals(oracle.getOrDefault(k, 0.0), a.get(k), 0.0, policy + " key " + k);
                        }
                    }
                    assertTrue(a.stats().bufferedRequests() <= (policy == FlushPolicy.ALL ? 100 : 90),
                            "at most K minus the page cache");
                }
                final double[] row = new double[3000];
                a.readRectangle(new long[] {0}, new long[] {2999}, row);
                for (int k = 0; k < 3000; k++) {
                    assertEquals(oracle.getOrDefault((long) k, 0.0), row[k], 0.0, "rectangle read sees the buffer");
                }
                final LabStats s = a.stats();
                assertTrue(s.flushes() > 0 && s.requestsFlushed() > 0, s.toString());
                if (policy != FlushPolicy.ALL) {
                    assertTrue(s.partialLookups() > 0, s.toString());
                }
            }
            try (LabArray a = LabArray.builder(file).shape(3000).pageSize(512).build()) {
                assertEquals(oracle.size(), a.stats().size());
                for (long k = 0; k < 3000; k++) {
                    assertEquals(oracle.getOrDefault(k, 0.0), a.get(k), 0.0);
                }
            }
        }
    }

    /**
     * Example 2: K/2 requests to leaf P0, then K requests to each of P1, P2, …: flush-all writes two leaves per
     * flush, where a policy that flushes P0 early writes one leaf per K requests; here LRU does (its oldest page is
     * always the one that just stopped receiving requests). Smallest-page shows Theorem 8's problem: once P1 fills
     * the buffer, every new request is the smallest page and is flushed alone.
     */
    @Test
    void example2FlushAllWritesTwoLeavesPerKUpdatesWhereABetterPolicyWritesOne() {
        final int k = 8;
        final int leaves = 40;
        final long[] pagesFlushed = new long[FlushPolicy.values().length];
        for (final FlushPolicy policy : new FlushPolicy[] {FlushPolicy.ALL, FlushPolicy.LRU, FlushPolicy.SP}) {
            try (LabArray a = LabArray.builder(dir.resolve("ex2-" + policy)).shape(16L * leaves)
                    .leafFormat(LeafFormat.SPARSE_ONLY).leafCapacities(16, 16).splitStrategy(SplitStrategy.ALIGNED)
                    .pageSize(512).updateBuffer(k, policy).pageInfoCache(0).build()) {
                // Leaves [16i, 16i + 16), full, before any buffering matters.
                for (long key = 0; key < 16L * leaves; key++) {
                    a.setLinear(1, key);
                }
                a.flush();
                assertEquals(leaves, a.stats().leafCount());
                final long before = a.stats().pagesFlushed();
                for (int i = 0; i < k / 2; i++) {
                    a.setLinear(2, i); // K/2 distinct keys of P0
                }
                for (int page = 1; page < leaves; page++) {
                    for (int i = 0; i < k; i++) {
                        a.setLinear(2, 16L * page + i); // K distinct keys of each next page
                    }
                }
                a.flush();
                pagesFlushed[policy.ordinal()] = a.stats().pagesFlushed() - before;
                for (long key = 0; key < 16L * leaves; key++) {
                    final boolean updated = key % 16 < (key < 16 ? k / 2 : k);
                    assertEquals(updated ? 2 : 1, a.getLinear(key), 0.0);
                }
            }
        }
        // The incoming request is eligible for flushing too (§5.1), so flush-all applies K + 1 requests at a time;
        // with pages receiving K requests in a row, every such window spans two leaves.
        final int requests = k / 2 + (leaves - 1) * k;
        final long windows = requests / (k + 1);
        final long all = pagesFlushed[FlushPolicy.ALL.ordinal()];
        assertEquals(2 * windows + (requests % (k + 1) > 0 ? 1 : 0), all, "flush-all: two leaves per flush");
        assertEquals(leaves, pagesFlushed[FlushPolicy.LRU.ordinal()], "LRU: every leaf once, one per K requests");
        assertTrue(all >= 1.75 * leaves, "flush-all writes about twice as many leaves: " + all);
        assertTrue(pagesFlushed[FlushPolicy.SP.ordinal()] > 5L * leaves,
                "smallest-page flushes single requests: " + pagesFlushed[FlushPolicy.SP.ordinal()]);
    }
}
