package io.nearsort.core;

import io.nearsort.core.testing.LongIndexOracle;
import io.nearsort.core.testing.LongIndexOracle.KeyPattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 22's scale runs: {@value #PROPERTY} (default 10^8) seeded random operations per structure against
 * {@link java.util.TreeMap} (puts with edge values, removes, point reads, range reads of every shape), the whole
 * content compared every 10^7 operations and at the end. Range reads are a tenth of the operations, as in the
 * default oracle runs, but most are short (spans below {@value #SHORT_SPAN}; one in {@value #LONG_SPAN_ONE_IN} up to
 * 5,000; one open to {@link Long#MAX_VALUE}, or inverted and wrapped around {@link Long#MIN_VALUE}, at most every
 * {@value #OPEN_ENDED_EVERY} operations): with the default spans the visits of thousands of entries per read over
 * the mixed keys' dense domain, and of nearly every entry per wrapped read from an edge key (one read in about
 * 1,400), took the run past 50 minutes in its first configuration ({@link LongIndexOracle#rangeSpans}). Left out
 * of the default build ({@code slow} tag); run with
 *
 * <pre>
 * ./mvnw -B -ntp -pl core test -Dnearsort.excludedGroups=none -Dgroups=slow -Dtest=ScaleOracleTest \
 *     -Dnearsort.testHeap=12g -Dsurefire.failIfNoSpecifiedTests=false [-Dnearsort.scale.operations=100000000]
 * </pre>
 *
 * (the oracle of the near-sorted run grows to tens of millions of entries: the default test heap, 2 GiB, is too
 * small; both runs take about 5 minutes on a 2-core VM).
 */
@Tag("slow")
class ScaleOracleTest {
    static final String PROPERTY = "nearsort.scale.operations";
    static final int SHORT_SPAN = 64;
    static final int LONG_SPAN_ONE_IN = 100;
    static final int OPEN_ENDED_EVERY = 10_000;
    static final int CHECKS_EVERY = 10_000_000;

    static Stream<Arguments> structures() {
        return Stream.of(
                Arguments.of("B+-tree, MIXED", KeyPattern.MIXED, (Supplier<LongIndex>) () -> Indexes.bPlusTree()
                        .splitRatio(0.8).tailLeafInserts(true).build()),
                Arguments.of("SA B+-tree, NEAR_SORTED", KeyPattern.NEAR_SORTED,
                        (Supplier<LongIndex>) () -> Indexes.saBPlusTree().bufferCapacity(10_000).build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("structures")
    void agreesWithTreeMapAtScale(final String name, final KeyPattern pattern, final Supplier<LongIndex> structure) {
        final int operations = Integer.parseInt(System.getProperty(PROPERTY, "100000000"));
        final long start = System.nanoTime();
        final LongIndex index = structure.get();
        try (index) {
            final long[] checks = {0};
            new LongIndexOracle(22, pattern).checksEvery(CHECKS_EVERY).sizeCheckEvery(1_000).batchLookupsEvery(10_007)
                    .rangeSpans(SHORT_SPAN, LONG_SPAN_ONE_IN, OPEN_ENDED_EVERY)
                    .run(index, operations, () -> System.out.printf("scale: %s: content check %d (%,d entries) at"
                            + " %.0f s%n", name, ++checks[0], index.size(), (System.nanoTime() - start) / 1e9));
            System.out.printf("scale: %s: %,d operations agree with TreeMap (%,d entries at the end) in %.0f s%n",
                    name, operations, index.size(), (System.nanoTime() - start) / 1e9);
            assertEquals(index.size(), index.stats().size());
        }
    }
}
