package io.nearsort.core.sware;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Read-path counts kept per thread: every thread's reads are summed, those of ended threads included. */
class SwareCountersTest {
    @Test
    void eachThreadCountsInItsOwnCountsAndTheSumHasThemAll() throws Exception {
        final SwareCounters counters = new SwareCounters(true);
        final SwareCounters.Reads mine = counters.reads();
        assertSame(mine, counters.reads(), "a thread keeps its counts");
        mine.lookups += 3;
        mine.interpolationSteps += 7;
        final SwareCounters.Reads[] theirs = new SwareCounters.Reads[1];
        final Thread ended = new Thread(() -> {
            theirs[0] = counters.reads();
            theirs[0].lookups += 5;
            theirs[0].bufferHits += 2;
        });
        ended.start();
        ended.join();
        assertNotSame(mine, theirs[0]);
        assertEquals(8, counters.sum().lookups);
        // A new thread's first read folds the ended thread's counts: the sum keeps them.
        final Thread later = new Thread(() -> counters.reads().lookups += 11);
        later.start();
        later.join();
        final SwareCounters.Reads sum = counters.sum();
        assertEquals(19, sum.lookups);
        assertEquals(2, sum.bufferHits);
        assertEquals(7, sum.interpolationSteps);
        mine.lookups++;
        assertEquals(20, counters.sum().lookups, "a live thread's counts stay live after the fold");
    }

    @Test
    void aSingleThreadIndexHasOneSetOfCounts() {
        final SwareCounters counters = new SwareCounters(false);
        counters.reads().zoneSkips += 4;
        assertSame(counters.reads(), counters.sum());
        assertEquals(4, counters.sum().zoneSkips);
    }
}
