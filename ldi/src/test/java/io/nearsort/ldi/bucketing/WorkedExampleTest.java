package io.nearsort.ldi.bucketing;

import io.nearsort.ldi.distribution.IntervalAction;
import io.nearsort.ldi.distribution.IntervalDrift;
import io.nearsort.ldi.distribution.TuningReport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The paper's worked example (§2, Figures 1 and 2b; §3.2, Figure 4): 32 keys, a main buffer of B = 4, buckets of
 * n = 2, intervals [1÷2] [3÷6] [7÷12] [13÷19] [20÷30].
 */
class WorkedExampleTest {
    /** Figure 1: the sample data D in arrival order. */
    static final long[] D = {9, 10, 3, 18, 1, 13, 20, 24, 12, 4, 2, 7, 19, 30, 26, 14, 1, 29, 8, 4, 15, 25, 18, 9,
        2, 8, 11, 6, 16, 5, 12, 28};

    private final List<Bucket> written = new ArrayList<>();
    private final List<TuningReport> reports = new ArrayList<>();

    private Bucketizer figure2b() {
        return Bucketizer.builder()
                .initialBoundaries(1, 3, 7, 13, 20, 31)
                .bufferCapacity(4)
                .bucketCapacity(2)
                .driftThresholds(2.0, 0.3)
                .windowSize(16)
                .onBucket(written::add)
                .onTuning(reports::add)
                .build();
    }

    @Test
    void figure2bBucketsStepByStep() {
        final Bucketizer b = figure2b();
        // After each arrival: the buckets written so far (keys in write order), '~' marking non-compacted ones.
        final String[] afterArrival = {
            "[]", "[[9, 10]]", "[[9, 10]]", "[[9, 10]]",                         // step 1
            "[[9, 10]]", "[[9, 10], [18, 13]]",                                   // step 2
            "[[9, 10], [18, 13]]", "[[9, 10], [18, 13], [20, 24]]",               // step 3
        };
        for (int i = 0; i < D.length; i++) {
            b.add(D[i], i + 1);
            if (i < afterArrival.length) {
                assertEquals(afterArrival[i], written.toString(), "after arrival " + (i + 1));
            }
            if (i + 1 == 10) { // step 4: buffer [1 12 3 4]; [3÷6] fills with (3, 4)
                assertEquals("[3, 4]", written.get(written.size() - 1).toString());
                assertArrayEquals(new long[] {1}, b.pointedKeys(0));
                assertArrayEquals(new long[] {12}, b.pointedKeys(2));
            }
            if (i + 1 == 20) { // step 7: buffer [1 29 8 4] full, no interval full: [1÷2] and [3÷6] combine
                assertEquals("~[1, 4]", written.get(written.size() - 1).toString());
                assertArrayEquals(new long[] {8}, b.pointedKeys(2));
                assertArrayEquals(new long[] {29}, b.pointedKeys(4));
            }
            if (i + 1 == 32) { // step 12: buffer [2 16 12 28] full: [7÷12] and [13÷19] combine into [12, 16]
                assertEquals("~[12, 16]", written.get(written.size() - 1).toString());
                assertArrayEquals(new long[] {2}, b.pointedKeys(0));
                assertArrayEquals(new long[] {28}, b.pointedKeys(4));
            }
        }
        b.finish(); // step 13: the remaining 2 and 28
        assertEquals("[[9, 10], [18, 13], [20, 24], [3, 4], [1, 2], [12, 7], [30, 26], [19, 14],"
                + " ~[1, 4], [29, 25], [15, 18], [8, 9], [8, 11], [6, 5], ~[12, 16], ~[2, 28]]", written.toString());
        // Table 1: LDI writes 32 / 2 = 16 buckets and merges nothing.
        assertEquals(16, b.stats().buckets());
        assertEquals(3, b.stats().nonCompactedBuckets());
        assertEquals(2, b.stats().siblingCombines());
        final Bucket first = written.get(8);
        assertEquals(1, first.low());
        assertEquals(4, first.high());
        assertEquals(1, first.intervalLow());
        assertEquals(6, first.intervalHigh());
        assertArrayEquals(new long[] {17, 20}, first.rowRefs());
        long rows = 0;
        for (Bucket bucket : written) {
            rows += bucket.size();
        }
        assertEquals(32, rows);
    }

    @Test
    void figure4DriftOfIntervalSevenToTwelve() {
        // Figure 4 starts [7÷12] from G.dis = 10% and G.load = 5: the only values giving both printed drifts
        // (1.67 after window 1, 2.19 after window 2). The other intervals' loads are chosen to stay in (Φmin, Φmax).
        final Bucketizer b = Bucketizer.builder()
                .initialBoundaries(1, 3, 7, 13, 20, 31)
                .initialLoads(10, 10, 5, 10, 15)
                .bufferCapacity(4).bucketCapacity(2).windowSize(16)
                .onBucket(written::add).onTuning(reports::add)
                .build();
        for (int i = 0; i < 16; i++) {
            b.add(D[i], i);
        }
        assertEquals(1, reports.size());
        final IntervalDrift first = reports.get(0).intervalStartingAt(7);
        assertEquals(0.25, first.localDis(), 1e-12);      // C.dis3 = 4/16
        assertEquals(4, first.localLoad());
        assertEquals(1.67, first.drift(), 0.005);
        assertEquals(IntervalAction.SKIP, first.action());
        assertEquals(5, b.distribution().intervalCount());

        for (int i = 16; i < 32; i++) {
            b.add(D[i], i);
        }
        assertEquals(2, reports.size());
        final IntervalDrift second = reports.get(1).intervalStartingAt(7);
        assertEquals(0.2847, second.localDis(), 0.00005);  // L.dis3 = 28.47%
        assertEquals(9, second.localLoad());
        assertEquals(2.19, second.drift(), 0.005);
        assertEquals(IntervalAction.SPLIT, second.action());
        for (IntervalDrift d : reports.get(1).intervals()) {
            if (d.low() != 7) {
                assertEquals(IntervalAction.SKIP, d.action(), "interval " + d.low());
            }
        }
        // The split of [7÷12]: L was folded into G (G.load 5 + 9 = 14) and the halves share it.
        final var dist = b.distribution();
        assertEquals(6, dist.intervalCount());
        assertEquals(1, dist.splits());
        assertEquals(7, dist.low(2));
        assertEquals(9, dist.high(2));
        assertEquals(10, dist.low(3));
        assertEquals(12, dist.high(3));
        assertEquals(14, dist.globalLoad(2) + dist.globalLoad(3));
        final double folded = (0.10 * 5 + (2.5625 / 9) * 9) / 14;
        assertEquals(folded, dist.globalDis(2) + dist.globalDis(3), 1e-12);
        assertEquals(0, dist.localLoad(2));
        assertEquals(1.0, dist.drift(2));
        // The split happened after the last arrival, so the buckets are still those of Figure 2b.
        b.finish();
        assertEquals(16, written.size());
    }
}
