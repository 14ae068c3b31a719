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
 * content compared every 10^7 operations and at the end. Left out of the default build ({@code slow} tag); run with
 *
 * <pre>
 * ./mvnw -B -ntp -pl core test -Dnearsort.excludedGroups=none -Dgroups=slow -Dtest=ScaleOracleTest \
 *     -Dnearsort.testHeap=12g -Dsurefire.failIfNoSpecifiedTests=false [-Dnearsort.scale.operations=100000000]
 * </pre>
 *
 * (the oracle of the near-sorted run grows to tens of millions of entries: the default test heap, 2 GiB, is too
 * small).
 */
@Tag("slow")
class ScaleOracleTest {
    static final String PROPERTY = "nearsort.scale.operations";

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
            new LongIndexOracle(22, pattern).checksEvery(10_000_000).sizeCheckEvery(1_000)
                    .run(index, operations, () -> { });
            System.out.printf("scale: %s: %,d operations agree with TreeMap (%,d entries at the end) in %.0f s%n",
                    name, operations, index.size(), (System.nanoTime() - start) / 1e9);
            assertEquals(index.size(), index.stats().size());
        }
    }
}
