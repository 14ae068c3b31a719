package io.nearsort.labtree.split;

import io.nearsort.labtree.SplitStrategy;
import io.nearsort.labtree.leaf.LeafCapacity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SplitStrategyTest {
    private static LeafLevelModel sequential(final SplitStrategy strategy, final int n, final LeafCapacity capacity) {
        final LeafLevelModel model = new LeafLevelModel(n, strategy, capacity);
        for (int key = 0; key < n; key++) {
            model.insert(key);
        }
        return model;
    }

    @Test
    void example1SplitInMiddleLeavesDeadSpaceAndSplitAlignedNone() {
        // LAB-tree Example 1: 12 sequential inserts, leaf capacity 4.
        final LeafCapacity four = LeafCapacity.sparseOnly(4);
        assertEquals(List.of(List.of(0L, 1L), List.of(2L, 3L), List.of(4L, 5L), List.of(6L, 7L),
                List.of(8L, 9L, 10L, 11L)), sequential(SplitStrategy.MIDDLE, 12, four).keySets(),
                "every leaf but the last has two slots of dead space");
        final List<List<Long>> full = List.of(List.of(0L, 1L, 2L, 3L), List.of(4L, 5L, 6L, 7L),
                List.of(8L, 9L, 10L, 11L));
        assertEquals(full, sequential(SplitStrategy.ALIGNED, 12, four).keySets());
        assertEquals(full, sequential(SplitStrategy.OFF_DENSE, 12, four).keySets(),
                "split-off-dense does better than split-in-middle on sequential inserts (§4.1)");
    }

    @Test
    void splitAlignedWithKappaFiveSplitsAtAMultipleOfFive() {
        // §4.1's example: a leaf over [10, 35) with κ = 5 splits into [10, 20) and [20, 35).
        final long[] keys = {11, 13, 17, 21, 28, 33};
        assertEquals(20, SplitStrategy.ALIGNED.splitPoint(10, 35, keys, LeafCapacity.sparseOnly(5)));
        // The most balanced multiple wins even off the middle of the range.
        assertEquals(15, SplitStrategy.ALIGNED.splitPoint(10, 35, new long[] {10, 11, 12, 16, 17, 18},
                LeafCapacity.sparseOnly(5)));
    }

    @Test
    void remarkB4RulesOutInfeasibleAlignedSplits() {
        // κs = 4, κd = 8: a dense leaf holding 7…12 receives 97. Split at 8 would leave 8…12 and 97 on the right,
        // which fits neither format; 96 is chosen (the feasible multiple of κd nearest the middle of [0, 200)).
        final LeafCapacity capacity = LeafCapacity.dynamic(4, 8);
        final long[] keys = {7, 8, 9, 10, 11, 12, 97};
        assertEquals(96, SplitStrategy.ALIGNED.splitPoint(0, 200, keys, capacity));
        final Overflow leaf = new Overflow(0, 200, keys, capacity);
        assertTrue(!leaf.feasible(8), "the unmodified split-aligned choice is infeasible");
        for (final SplitStrategy strategy : SplitStrategy.values()) {
            final long x = strategy.splitPoint(0, 200, keys, capacity);
            assertTrue(leaf.feasible(x), strategy + " split at " + x);
        }
        // Split-in-middle keeps its balance where that is feasible: {7, 8, 9} and {10, 11, 12, 97} (sparse).
        assertEquals(10, SplitStrategy.MIDDLE.splitPoint(0, 200, keys, capacity));
    }

    @Test
    void dynamicLeavesSwitchToDenseInsteadOfSplitting() {
        final LeafCapacity capacity = LeafCapacity.dynamic(4, 8);
        assertTrue(capacity.fits(new long[] {7, 8, 9, 10, 11, 12}, 0, 6), "6 keys spanning 6 fit dense");
        assertTrue(capacity.fits(new long[] {1, 50, 90, 200}, 0, 4), "4 scattered keys fit sparse");
        assertTrue(!capacity.fits(new long[] {1, 2, 3, 4, 10}, 0, 5), "5 keys spanning 10 fit neither");
        // Sequential inserts under the dynamic format fill dense leaves of κd = 8.
        final LeafLevelModel model = sequential(SplitStrategy.ALIGNED, 64, capacity);
        assertEquals(8, model.leafCount());
        model.leaves().forEach(leaf -> assertEquals(8, leaf.keys().size()));
    }

    @ParameterizedTest
    @EnumSource(SplitStrategy.class)
    void everySplitIsInsideTheRangeAndBothSidesFit(final SplitStrategy strategy) {
        final SplittableRandom random = new SplittableRandom(strategy.ordinal());
        for (final LeafCapacity capacity : List.of(LeafCapacity.sparseOnly(4), LeafCapacity.sparseOnly(16),
                LeafCapacity.dynamic(4, 8), LeafCapacity.dynamic(8, 20))) {
            for (int trial = 0; trial < 300; trial++) {
                final int n = 50 + random.nextInt(2000);
                final LeafLevelModel model = new LeafLevelModel(n, strategy, capacity);
                for (int i = 0; i < n / 2; i++) {
                    model.insert(random.nextInt(n)); // the model asserts both halves of every split fit
                }
                long covered = 0;
                for (final LeafLevelModel.Leaf leaf : model.leaves()) {
                    assertEquals(covered, leaf.low(), "leaves partition the range");
                    covered = leaf.high();
                }
                assertEquals(n, covered);
            }
        }
    }

    @Test
    void competitiveRatiosHoldOnRandomSequences() {
        // Split-in-middle uses at most 2x and split-aligned at most 3x the ceil(n/κ) leaves of the offline optimum
        // (§4.1, Theorems 1 and 3), within an additive constant.
        final SplittableRandom random = new SplittableRandom(3);
        for (final int kappa : new int[] {4, 5, 16, 64}) {
            final LeafCapacity capacity = LeafCapacity.sparseOnly(kappa);
            for (int trial = 0; trial < 40; trial++) {
                final int domain = kappa * (20 + random.nextInt(200));
                final int inserts = 1 + random.nextInt(domain);
                final LeafLevelModel middle = new LeafLevelModel(domain, SplitStrategy.MIDDLE, capacity);
                final LeafLevelModel aligned = new LeafLevelModel(domain, SplitStrategy.ALIGNED, capacity);
                final java.util.BitSet present = new java.util.BitSet();
                for (int i = 0; i < inserts; i++) {
                    final int key = trial % 2 == 0 ? random.nextInt(domain) : i % domain; // random or sequential
                    present.set(key);
                    middle.insert(key);
                    aligned.insert(key);
                }
                final int optimal = (present.cardinality() + kappa - 1) / kappa;
                assertTrue(middle.leafCount() <= 2 * optimal + 1, "middle " + middle.leafCount() + " vs " + optimal);
                assertTrue(aligned.leafCount() <= 3 * optimal + 1, "aligned " + aligned.leafCount() + " vs " + optimal);
            }
        }
    }

    @Test
    void splitAlignedHasNoDeadSpace() {
        // Definition 1: from any state split-aligned reaches, some insertion sequence fills every leaf. Leaf
        // ranges stay multiples of κ; filling the rest of the array in ascending order then leaves every leaf full.
        final SplittableRandom random = new SplittableRandom(9);
        final int kappa = 6;
        for (int trial = 0; trial < 30; trial++) {
            final int n = kappa * (10 + random.nextInt(100));
            final LeafLevelModel model = new LeafLevelModel(n, SplitStrategy.ALIGNED, LeafCapacity.sparseOnly(kappa));
            for (int i = 0; i < n / 3; i++) {
                model.insert(random.nextInt(n));
            }
            for (final LeafLevelModel.Leaf leaf : model.leaves()) {
                assertEquals(0, leaf.low() % kappa, "aligned leaf start " + leaf);
                assertEquals(0, leaf.high() % kappa, "aligned leaf end " + leaf);
            }
            for (int key = 0; key < n; key++) {
                model.insert(key);
            }
            model.leaves().forEach(leaf -> assertEquals(kappa, leaf.keys().size(), "full leaf " + leaf));
            assertEquals(n / kappa, model.leafCount());
        }
    }

    @Test
    void splitInMiddleHasDeadSpaceOnTheSamePattern() {
        final LeafLevelModel model = sequential(SplitStrategy.MIDDLE, 600, LeafCapacity.sparseOnly(6));
        assertTrue(model.leafCount() > 600 / 6 * 1.5, "about half full: " + model.leafCount());
    }

    @Test
    void deferNextAndBalancedRatioPreferSplitsThatCannotSplitAgain() {
        // Keys 0..4 in [0, 100) with κ = 4: a split at 4 leaves [0, 4) full and never to split again.
        final LeafCapacity four = LeafCapacity.sparseOnly(4);
        final long[] keys = {0, 1, 2, 3, 4};
        assertEquals(4, SplitStrategy.DEFER_NEXT.splitPoint(0, 100, keys, four));
        assertEquals(4, SplitStrategy.BALANCED_RATIO.splitPoint(0, 100, keys, four));
        // Two clusters: splitting between them keeps both sides sparse and far from splitting.
        final long[] clusters = {10, 11, 12, 80, 81};
        assertEquals(80, SplitStrategy.DEFER_NEXT.splitPoint(0, 100, clusters, four));
        assertEquals(80, SplitStrategy.BALANCED_RATIO.splitPoint(0, 100, clusters, four));
    }

    @Test
    void tauMatchesAnExactEnumerationOfInsertionOrders() {
        // τ = E[insertions until either leaf splits], every missing key equally likely next: compare Remark B.1's
        // sum with a dynamic program over (insertions left, insertions right).
        for (int b1 = 0; b1 <= 4; b1++) {
            for (int b2 = 0; b2 <= 4; b2++) {
                for (int d1 = 0; d1 <= 9; d1++) {
                    for (int d2 = 0; d2 <= 9; d2++) {
                        if (d1 <= b1 && d2 <= b2) {
                            continue;
                        }
                        assertEquals(bruteForceTau(b1, d1, b2, d2),
                                SplitDeferNext.expectedInsertionsUntilSplit(b1, d1, b2, d2), 1e-9,
                                "b1=" + b1 + " d1=" + d1 + " b2=" + b2 + " d2=" + d2);
                    }
                }
            }
        }
        // Long ranges stay finite and positive (log-space terms).
        final double tau = SplitDeferNext.expectedInsertionsUntilSplit(100, 1_000_000_000L, 100, 1_000_000_000L);
        assertTrue(tau > 100 && tau <= 201, "tau " + tau);
    }

    private static double bruteForceTau(final int b1, final int d1, final int b2, final int d2) {
        // p[a][c]: probability that the first a + c insertions put a left and c right without a split yet.
        final double[][] p = new double[d1 + 2][d2 + 2];
        p[0][0] = 1;
        double expected = 0;
        for (int t = 0; t <= d1 + d2; t++) {
            for (int a = Math.max(0, t - d2); a <= Math.min(t, d1); a++) {
                final int c = t - a;
                if (p[a][c] == 0 || a > b1 || c > b2) {
                    continue;
                }
                final int remaining = d1 + d2 - t;
                if (remaining == 0) {
                    continue;
                }
                final double left = p[a][c] * (d1 - a) / remaining;
                final double right = p[a][c] * (d2 - c) / remaining;
                // The (t+1)-th insertion splits a leaf when it is that leaf's (b+1)-th.
                expected += (a + 1 > b1 ? left * (t + 1) : 0) + (c + 1 > b2 ? right * (t + 1) : 0);
                if (a + 1 <= b1) {
                    p[a + 1][c] += left;
                }
                if (c + 1 <= b2) {
                    p[a][c + 1] += right;
                }
            }
        }
        return expected;
    }

    @Test
    void badInputIsRejectedWithTheReason() {
        final LeafCapacity four = LeafCapacity.sparseOnly(4);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SplitStrategy.MIDDLE.splitPoint(0, 10,
                new long[] {1, 2, 3}, four)).getMessage().contains("does not overflow"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SplitStrategy.MIDDLE.splitPoint(0, 10,
                new long[] {1, 2, 3, 3, 4}, four)).getMessage().contains("sorted, distinct"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SplitStrategy.MIDDLE.splitPoint(5, 5,
                new long[] {1, 2, 3, 4, 5}, four)).getMessage().contains("0 <= low < high"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LeafCapacity.dynamic(8, 8)).getMessage()
                .contains("kappaDense must be > kappaSparse"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LeafCapacity.sparseOnly(1)).getMessage()
                .contains("kappaSparse must be >= 2"));
    }
}
