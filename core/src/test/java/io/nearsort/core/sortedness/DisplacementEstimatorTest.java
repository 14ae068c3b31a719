package io.nearsort.core.sortedness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lazily asked L estimate (SWARE §IV-C): the zonemap walk's worked examples, the walk against a brute-force
 * model on generated runs, and the sorts asking for L only when they need it.
 */
class DisplacementEstimatorTest {

    @Test
    void aKeyMovedBackBelongsAtTheStartOfTheStretchOfZonesAboveIt() {
        final ZoneWalkEstimator walk = DisplacementEstimator.zoneWalk(2, 64);
        // Zones [1, 2] [3, 4] | 0: both whole zones hold larger keys, so 0 belongs 4 back, at the run's start.
        assertEquals(4, walk.estimate(new long[] {1, 2, 3, 4, 0}, 0, 5, Long.MAX_VALUE));
        // Zones [10, 20] [30, 40] [50, 60] | 35: the walk stops at [10, 20], whose maximum is below 35; 35 belongs
        // 3 back (after 30) and the zone-grained estimate says 4, back to the start of [30, 40].
        assertEquals(4, walk.estimate(new long[] {10, 20, 30, 40, 50, 60, 35}, 0, 7, Long.MAX_VALUE));
        // Within its own zone (no whole zone before it is above it), a descent counts its offset in the zone.
        assertEquals(1, walk.estimate(new long[] {1, 2, 5, 4}, 0, 4, Long.MAX_VALUE));
        // Sorted, repeated keys, one or no entry: no descent.
        assertEquals(0, walk.estimate(new long[] {1, 1, 2, 3, 3}, 0, 5, Long.MAX_VALUE));
        assertEquals(0, walk.estimate(new long[] {7}, 0, 1, Long.MAX_VALUE));
        assertEquals(0, walk.estimate(new long[0], 0, 0, Long.MAX_VALUE));
        // One zone larger than any run: every descent counts its offset.
        assertEquals(2, DisplacementEstimator.zoneWalk(Integer.MAX_VALUE, 64).estimate(new long[] {3, 4, 1}, 0, 3,
                Long.MAX_VALUE));
        // A sub-range is a run of its own: its zones start at its first index.
        assertEquals(4, walk.estimate(new long[] {99, 99, 1, 2, 3, 4, 0, -5}, 2, 7, Long.MAX_VALUE));
    }

    @Test
    void theWalkStopsAtMaxZonesAndAtWhatTheCallerCallsEnough() {
        final long[] oneLateKey = {5, 6, 7, 8, 9, 10, 1};
        // Zones of one entry: 1 belongs 6 back; three zones back at most, then the estimate saturates.
        assertEquals(6, DisplacementEstimator.zoneWalk(1, 64).estimate(oneLateKey, 0, 7, Long.MAX_VALUE));
        assertEquals(3, DisplacementEstimator.zoneWalk(1, 3).estimate(oneLateKey, 0, 7, Long.MAX_VALUE));
        // Enough: any result at or above it will do; below it, the estimate is exact.
        assertTrue(DisplacementEstimator.zoneWalk(1, 64).estimate(oneLateKey, 0, 7, 2) >= 2);
        assertEquals(6, DisplacementEstimator.zoneWalk(1, 64).estimate(oneLateKey, 0, 7, 7));
    }

    @ParameterizedTest(name = "n={0} K={1}% L={2}% zone={3} maxZones={4}")
    @CsvSource({"20000,5,5,64,64", "20000,1,1,241,64", "20000,50,10,16,8", "20000,100,1,32,64", "5000,20,20,1,64",
        "5000,10,90,7,3", "100,30,30,200,64"})
    void theWalkMatchesABruteForceModel(final int n, final double k, final double l, final int zoneSize,
                                        final int maxZones) {
        final SplittableRandom random = new SplittableRandom(n + zoneSize);
        final long[] keys = KLGenerator.generate(n, k, l, 17);
        for (int i = 0; i < n; i += 1 + random.nextInt(50)) {
            keys[i] = keys[Math.max(0, i - 1)]; // repeats: an equal key is no descent
        }
        final long model = modelEstimate(keys, zoneSize, maxZones);
        final long bound = (long) maxZones * zoneSize;
        final ZoneWalkEstimator walk = DisplacementEstimator.zoneWalk(zoneSize, maxZones);
        final long estimate = walk.estimate(keys, 0, n, Long.MAX_VALUE);
        if (model < bound) {
            assertEquals(model, estimate);
        } else {
            assertTrue(estimate >= bound && estimate <= model, () -> estimate + " for a model of " + model);
        }
        final long enough = Math.max(1, model / 2);
        final long early = walk.estimate(keys, 0, n, enough);
        assertTrue(early >= Math.min(enough, bound) && early <= model, () -> early + " with enough " + enough);
        assertEquals(estimate, walk.estimate(keys, 0, n, Long.MAX_VALUE), "the kept maxima do not leak into a call");
    }

    /** The walk's definition, by brute force: every descent, every zone recomputed, no shortcut, no saturation. */
    private static long modelEstimate(final long[] keys, final int zoneSize, final int maxZones) {
        long l = 0;
        for (int i = 1; i < keys.length; i++) {
            if (keys[i] >= keys[i - 1]) {
                continue;
            }
            final int zone = i / zoneSize;
            int start = zone;
            while (start > Math.max(0, zone - maxZones)) {
                long max = Long.MIN_VALUE;
                for (int j = (start - 1) * zoneSize; j < start * zoneSize; j++) {
                    max = Math.max(max, keys[j]);
                }
                if (max <= keys[i]) {
                    break;
                }
                start--;
            }
            l = Math.max(l, i - (long) start * zoneSize);
        }
        return l;
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> DisplacementEstimator.zoneWalk(0, 64));
        assertThrows(IllegalArgumentException.class, () -> DisplacementEstimator.zoneWalk(64, 0));
        assertThrows(IllegalArgumentException.class, () -> DisplacementEstimator.of(-1));
        assertThrows(IndexOutOfBoundsException.class,
                () -> DisplacementEstimator.zoneWalk(4, 4).estimate(new long[3], 1, 4, 10));
        final long[][] run = {KLGenerator.workload(1000).scrambled(true).seed(1).generate(), new long[1000]};
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> new AdaptiveSorter().sort(run[0], run[1], 0, 1000, 1000, (k, f, t, e) -> -1, null));
        assertTrue(negative.getMessage().contains("negative L"), negative::getMessage);
        assertThrows(NullPointerException.class,
                () -> new AdaptiveSorter().sort(run[0], run[1], 0, 1000, 0, null, null));
    }

    /** Records what a sort asked for: the run it saw (in arrival order) and its "enough". */
    private static final class Recording implements DisplacementEstimator {
        private final DisplacementEstimator inner;
        final List<long[]> runs = new ArrayList<>();
        final List<Long> enoughs = new ArrayList<>();

        Recording(final DisplacementEstimator inner) {
            this.inner = inner;
        }

        @Override
        public long estimate(final long[] keys, final int from, final int to, final long enough) {
            runs.add(Arrays.copyOfRange(keys, from, to));
            enoughs.add(enough);
            return inner.estimate(keys, from, to, enough);
        }
    }

    @Test
    void theSortsAskForLOnlyWhenTheyNeedIt() {
        final int n = 10_000;
        final AdaptiveSorter sorter = new AdaptiveSorter();
        // K below 20%: the (K,L) sort is chosen without L, and its greedy pass sorts a near-sorted run.
        final long[] near = KLGenerator.generate(n, 2, 1, 3);
        final Recording unused = new Recording(DisplacementEstimator.zoneWalk(64, 64));
        final long[][] a = {near.clone(), new long[n]};
        assertEquals(AdaptiveSorter.Algorithm.KL_ADAPTIVE, sorter.sort(a[0], a[1], 0, n, 400, unused, null));
        assertEquals(0, unused.runs.size());
        final long[] sortedNear = near.clone();
        Arrays.sort(sortedNear);
        assertArrayEquals(sortedNear, a[0]);

        // K at or above 20%: L decides, asked precisely up to 5% of the run, with the run in arrival order.
        final long[] scrambled = KLGenerator.workload(n).scrambled(true).seed(3).generate();
        final Recording choice = new Recording(DisplacementEstimator.zoneWalk(64, 64));
        final long[][] b = {scrambled.clone(), new long[n]};
        assertEquals(AdaptiveSorter.Algorithm.RADIX_SORT, sorter.sort(b[0], b[1], 0, n, n, choice, null));
        assertEquals(1, choice.runs.size());
        assertArrayEquals(scrambled, choice.runs.get(0));
        assertEquals(500L, choice.enoughs.get(0));

        // The greedy pass fails on a scrambled run under a small K: the heap pass asks for its window, with the
        // run restored to arrival order, and wants the whole estimate (here the run's length: a window of the
        // whole run sorts anything).
        final Recording window = new Recording(DisplacementEstimator.of(n));
        final long[][] c = {scrambled.clone(), new long[n]};
        final KLAdaptiveSort.Outcome outcome = new KLAdaptiveSort().sort(c[0], c[1], 0, n, 10, window, null);
        assertEquals(KLAdaptiveSort.Outcome.ADAPTIVE, outcome);
        assertEquals(1, window.runs.size());
        assertArrayEquals(scrambled, window.runs.get(0));
        assertEquals((long) n, window.enoughs.get(0));
        assertArrayEquals(b[0], c[0]);
    }

    @ParameterizedTest(name = "n={0} K={1}% L={2}%")
    @CsvSource({"20000,5,5", "20000,30,1", "20000,30,30", "20000,100,0.5", "3000,10,2"})
    void askingLazilySortsAsAKnownEstimateDoes(final int n, final double k, final double l) {
        final long[] keys = KLGenerator.generate(n, k, l, 23);
        final ZoneWalkEstimator walk = DisplacementEstimator.zoneWalk(64, 64);
        final long kEstimate = 2L * descents(keys);
        final long lEstimate = walk.estimate(keys, 0, n, Long.MAX_VALUE);
        final long[][] known = {keys.clone(), arrivals(n)};
        final long[][] lazy = {keys.clone(), arrivals(n)};
        final AdaptiveSorter.Algorithm expected = new AdaptiveSorter().sort(known[0], known[1], 0, n, kEstimate,
                lEstimate, null);
        assertEquals(expected, new AdaptiveSorter().sort(lazy[0], lazy[1], 0, n, kEstimate, walk, null));
        assertArrayEquals(known[0], lazy[0]);
        assertArrayEquals(known[1], lazy[1]);
    }

    private static long descents(final long[] keys) {
        long d = 0;
        for (int i = 1; i < keys.length; i++) {
            if (keys[i] < keys[i - 1]) {
                d++;
            }
        }
        return d;
    }

    private static long[] arrivals(final int n) {
        final long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = i;
        }
        return values;
    }
}
