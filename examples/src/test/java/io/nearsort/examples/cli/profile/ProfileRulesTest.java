package io.nearsort.examples.cli.profile;

import io.nearsort.core.sortedness.SortednessReport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProfileRulesTest {
    private static SortednessReport report(final long n, final long k, final long l, final long removals) {
        return new SortednessReport(n, k, l, removals, 1, 0, false);
    }

    @Test
    void classBoundariesFollowSwareSectionIVC() {
        assertEquals(SortednessClass.SORTED, SortednessClass.of(report(1000, 0, 0, 0)));
        assertEquals(SortednessClass.NEAR_SORTED, SortednessClass.of(report(1000, 199, 999, 199)));
        assertEquals(SortednessClass.NEAR_SORTED, SortednessClass.of(report(1000, 1000, 49, 900)));
        assertEquals(SortednessClass.LESS_SORTED, SortednessClass.of(report(1000, 200, 50, 499)));
        assertEquals(SortednessClass.SCRAMBLED, SortednessClass.of(report(1000, 200, 50, 500)));
    }

    @Test
    void bufferCoversTwiceLWithinBounds() {
        // Near-sorted, L = 30,000 of 1M: 2L = 60,000 > 1% = 10,000, rounded up to 65,536.
        Recommendation r = Recommendation.of(report(1_000_000, 50_000, 30_000, 50_000));
        assertEquals(65_536, r.bufferCapacity());
        assertEquals(0.8, r.splitRatio());
        // L tiny: the papers' 1% of n wins.
        r = Recommendation.of(report(10_000_000, 100, 10, 100));
        assertEquals(131_072, r.bufferCapacity());
        // Huge L: capped, and the reasoning says so.
        r = Recommendation.of(report(1_000_000_000L, 100_000_000, 40_000_000, 100_000_000));
        assertEquals(Recommendation.MAX_BUFFER, r.bufferCapacity());
        assertTrue(r.reasons().get(0).contains("capped at 16,777,216 entries"), r.reasons().get(0));
        // Sorted: the smallest buffer; scrambled: 60:40 splits (Table I).
        assertEquals(Recommendation.MIN_BUFFER, Recommendation.of(report(1_000_000, 0, 0, 0)).bufferCapacity());
        assertEquals(0.6, Recommendation.of(report(1_000_000, 999_000, 900_000, 990_000)).splitRatio());
        assertFalse(Recommendation.of(report(100, 0, 0, 0)).reasons().isEmpty());
    }

    @Test
    void gapsAreUnsignedAndFixedWidthIsRecognised() {
        GapStatistics g = GapStatistics.of(new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
        assertEquals(-1L, g.min(), "2^64 - 1 as an unsigned long");
        assertEquals(-1L, g.max());
        assertEquals(Math.pow(2, 64), g.mean(), 1e4);
        g = GapStatistics.of(new long[] {30, 10, 20, 20, 40});
        assertEquals(10, g.min());
        assertEquals(10, g.median());
        assertEquals(4, g.distinct());
        assertTrue(g.fixedWidth());
        g = GapStatistics.of(new long[] {7});
        assertEquals(1, g.distinct());
        assertFalse(g.fixedWidth());
        g = GapStatistics.ofRange(0, 100, 11);
        assertFalse(g.exact());
        assertEquals(10.0, g.mean());
    }
}
