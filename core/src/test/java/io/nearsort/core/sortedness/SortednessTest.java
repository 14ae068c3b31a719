package io.nearsort.core.sortedness;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SortednessTest {

    @Test
    void handWorkedExamples() {
        // 1 2 3 4 5: sorted.
        assertEquals(new SortednessReport(5, 0, 0, 0, 1, 0, false), Sortedness.measure(new long[] {1, 2, 3, 4, 5}));
        // One swap at distance 3: 1 5 3 4 2 6 -> ranks 1 and 4 displaced by 3, removals 2, runs 3.
        assertEquals(new SortednessReport(6, 2, 3, 2, 3, 0, false),
                Sortedness.measure(new long[] {1, 5, 3, 4, 2, 6}));
        // One late key shifts every key it overtakes by one: 2 3 4 1 -> K=4, L=3, removals 1.
        assertEquals(new SortednessReport(4, 4, 3, 1, 2, 0, false), Sortedness.measure(new long[] {2, 3, 4, 1}));
        // Ties are ranked by arrival, so repeated keys in order are not displaced.
        assertEquals(new SortednessReport(5, 0, 0, 0, 1, 2, false), Sortedness.measure(new long[] {1, 1, 2, 2, 3}));
        // 2 1 1: rank0 = first 1 (arrived at 1), rank1 = second 1 (at 2), rank2 = 2 (at 0).
        assertEquals(new SortednessReport(3, 3, 2, 1, 2, 1, false), Sortedness.measure(new long[] {2, 1, 1}));
        assertEquals(new SortednessReport(0, 0, 0, 0, 0, 0, false), Sortedness.measure(new long[0]));
        // Reverse order: every key displaced; LNDS is 1.
        final SortednessReport reverse = Sortedness.measure(new long[] {5, 4, 3, 2, 1});
        assertEquals(4, reverse.k());
        assertEquals(4, reverse.l());
        assertEquals(4, reverse.minRemovals());
        assertEquals(5, reverse.runs());
        assertEquals(0.8, reverse.kFraction(), 1e-12);
    }

    @Test
    void minRemovalsAgreeWithAQuadraticOracle() {
        final SplittableRandom random = new SplittableRandom(8);
        for (int round = 0; round < 200; round++) {
            final int n = random.nextInt(60);
            final long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = random.nextInt(20);
            }
            int best = 0;
            final int[] lnds = new int[n];
            for (int i = 0; i < n; i++) {
                lnds[i] = 1;
                for (int j = 0; j < i; j++) {
                    if (keys[j] <= keys[i]) {
                        lnds[i] = Math.max(lnds[i], lnds[j] + 1);
                    }
                }
                best = Math.max(best, lnds[i]);
            }
            assertEquals(n - best, Sortedness.measure(keys).minRemovals());
        }
    }

    @Test
    void streamingEstimateIsExactWhenTheWindowCoversTheStream() {
        final long[] keys = KLGenerator.generate(10_000, 10, 5, 77);
        final StreamingSortednessEstimator estimator = new StreamingSortednessEstimator(10_000);
        for (final long key : keys) {
            estimator.add(key);
        }
        final SortednessReport exact = Sortedness.measure(keys);
        final SortednessReport estimate = estimator.report();
        assertTrue(estimate.approximate());
        assertEquals(exact.n(), estimate.n());
        assertEquals(exact.k(), estimate.k());
        assertEquals(exact.l(), estimate.l());
        assertEquals(exact.minRemovals(), estimate.minRemovals());
        assertEquals(exact.runs(), estimate.runs());
    }

    @Test
    void streamingEstimateIsExactWhileLStaysBelowTheWindow() {
        final long[] keys = KLGenerator.generate(400_000, 5, 0.5, 78);
        for (int i = 0; i < keys.length; i += 1000) {
            keys[i + 1] = keys[i]; // some duplicates
        }
        final StreamingSortednessEstimator estimator = new StreamingSortednessEstimator(2_500);
        for (final long key : keys) {
            estimator.add(key);
        }
        final SortednessReport exact = Sortedness.measure(keys);
        final SortednessReport estimate = estimator.report();
        assertEquals(0, estimator.outliers());
        assertEquals(exact.n(), estimate.n());
        assertEquals(exact.k(), estimate.k(), estimate + " vs " + exact);
        assertEquals(exact.l(), estimate.l(), estimate + " vs " + exact);
        assertEquals(exact.runs(), estimate.runs());
        assertEquals(exact.duplicates(), estimate.duplicates());
        assertTrue(estimate.minRemovals() <= exact.minRemovals(), "a lower bound");
        assertTrue(estimate.minRemovals() >= exact.minRemovals() * 0.9, estimate + " vs " + exact);
        assertEquals(estimate, estimator.report(), "report() does not disturb the state");
    }

    @Test
    void streamingEstimateFlagsDisplacementsBeyondTheWindow() {
        final long[] keys = KLGenerator.generate(100_000, 1, 10, 79);
        final StreamingSortednessEstimator estimator = new StreamingSortednessEstimator(1_000);
        for (final long key : keys) {
            estimator.add(key);
        }
        final SortednessReport exact = Sortedness.measure(keys);
        final SortednessReport estimate = estimator.report();
        assertTrue(estimator.outliers() > 0);
        assertTrue(estimate.l() >= 1_000 && estimate.l() <= exact.l(), estimate + " vs " + exact);
        assertTrue(estimate.k() >= exact.k(), "overestimates K: " + estimate + " vs " + exact);
    }

    @Test
    void sortedStreamsEstimateAsSorted() {
        final StreamingSortednessEstimator estimator = new StreamingSortednessEstimator(64);
        for (long key = 0; key < 10_000; key++) {
            estimator.add(key);
        }
        final SortednessReport estimate = estimator.report();
        assertEquals(0, estimate.k());
        assertEquals(1, estimate.runs());
        assertEquals(0, estimator.outliers());
    }
}
