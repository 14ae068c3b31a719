package io.nearsort.core.sware;

import io.nearsort.core.Concurrency;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SA trees' multi-threaded oracle tests, repeated with new seeds for {@value #PROPERTY} minutes (default 10)
 * each (issue 22, "every concurrent structure's multi-threaded oracle tests run under a tag for at least ten
 * minutes"): several writers and readers with per-thread oracles ({@link SortednessAwareIndexConcurrencyTest}),
 * and one writer with readers checking a prefix of its log in every mode and buffer size
 * ({@link SortednessAwareIndexOneWriterTest}: SA B+-tree and SA Bε-tree). Left out of the default build
 * ({@code slow} tag). Run with
 *
 * <pre>
 * mvn -B -ntp -pl core test -Dnearsort.excludedGroups=none -Dgroups=slow -Dtest=SwareSoakTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false [-Dnearsort.soak.minutes=10]
 * </pre>
 */
@Tag("slow")
class SwareSoakTest {
    static final String PROPERTY = "nearsort.soak.minutes";

    static long deadline() {
        return System.nanoTime() + (long) (Double.parseDouble(System.getProperty(PROPERTY, "10")) * 60e9);
    }

    @Test
    void severalWritersAndReaders() throws InterruptedException {
        final long end = deadline();
        final SortednessAwareIndexConcurrencyTest test = new SortednessAwareIndexConcurrencyTest();
        int rounds = 0;
        while (System.nanoTime() < end) {
            test.seedOffset = 1_000_003L * ++rounds;
            test.concurrentWritersAndReadersAgreeWithPerThreadOracles();
        }
        report("several writers and readers", rounds);
    }

    @Test
    void oneWriterManyReaders() throws InterruptedException {
        final long end = deadline();
        final Object[][] modes = SortednessAwareIndexOneWriterTest.modes().map(a -> a.get()).toArray(Object[][]::new);
        int rounds = 0;
        while (System.nanoTime() < end) {
            ++rounds;
            for (final Object[] mode : modes) {
                // A fresh instance per run, as JUnit makes one: the writer's progress lives in its fields.
                final SortednessAwareIndexOneWriterTest test = new SortednessAwareIndexOneWriterTest();
                test.seedOffset = 1_000_003L * rounds;
                test.readersSeeAPrefixOfTheWritersLog((String) mode[0], (Concurrency) mode[1], (Integer) mode[2],
                        (String) mode[3]);
            }
        }
        report("one writer, " + modes.length + " modes", rounds);
    }

    private static void report(final String what, final int rounds) {
        System.out.println("soak: " + what + ": " + rounds + " rounds, every one agreeing with its oracles");
        assertTrue(rounds > 0);
    }
}
