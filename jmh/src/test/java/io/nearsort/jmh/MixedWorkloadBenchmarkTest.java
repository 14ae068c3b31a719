package io.nearsort.jmh;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mixed workload's operations, per record and in batches: every key is written exactly once, each lookup
 * probes a key written before it, lookups are {@code readPercent} of the operations counted per record, and a
 * run over a real structure finds every probed key.
 */
class MixedWorkloadBenchmarkTest {

    @ParameterizedTest
    @CsvSource({"BPLUS, 1, 50", "SA_BPLUS_SW, 1, 50", "SA_BPLUS_SW, 500, 50", "SA_BPLUS, 500, 90",
        "TREEMAP, 7, 10"})
    void everyKeyIsWrittenOnceAndEveryLookupHitsAWrittenKey(final String structure, final String batch,
                                                            final int readPercent) {
        final MixedWorkloadBenchmark benchmark = new MixedWorkloadBenchmark();
        benchmark.n = 20_000;
        benchmark.workload = Workload.K5_L5;
        benchmark.readPercent = readPercent;
        benchmark.structure = structure;
        benchmark.batch = batch;
        benchmark.generate();

        final int n = benchmark.n;
        final int batchSize = Integer.parseInt(batch);
        final int preload = n / 5 * 4;
        int written = preload;
        long reads = 0;
        long expectedSum = 0;
        for (final long op : benchmark.operations) {
            if (op >= 0) {
                assertEquals(written, op, "writes follow the stream in order");
                written = Math.min(n, written + batchSize);
            } else {
                assertTrue(~op < written, "lookup of key position " + ~op + " before it was written");
                assertEquals(benchmark.keys[(int) ~op], benchmark.probes[(int) reads], "the lookup's key, drawn ahead");
                expectedSum += benchmark.keys[(int) ~op];
                reads++;
            }
        }
        assertEquals(n, written, "every key written");
        assertEquals((long) (n - preload) * readPercent / (100 - readPercent), reads, "lookups");
        assertEquals(reads, benchmark.probes.length, "one key drawn ahead per lookup");

        benchmark.preload();
        assertEquals(expectedSum, benchmark.mixed(), "every lookup finds its key (value = key)");
        benchmark.close(); // checks that the structure holds n entries
    }
}
