package io.nearsort.jmh;

import io.nearsort.examples.cli.bench.BenchStructure;
import io.nearsort.examples.cli.bench.BenchTarget;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every benchmarked structure holds exactly the generated keys after ingest, so the timings compare equals. */
class BenchmarkSanityTest {

    @Test
    void everyStructureIngestsEveryWorkloadCorrectly() {
        for (final Workload workload : Workload.values()) {
            final long[] keys = workload.keys(50_000);
            final long[] values = Arrays.stream(keys).map(k -> ~k).toArray();
            for (final BenchStructure structure : BenchStructure.values()) {
                try (BenchTarget target = structure.createForWorkload(keys.length)) {
                    target.ingest(keys, values, 0, keys.length);
                    assertEquals(keys.length, target.size(), structure + " " + workload);
                    for (final long key : keys) {
                        assertEquals(~key, target.get(key, -1L), structure + " " + workload + " key " + key);
                    }
                    assertEquals(-1L, target.get(0, -1L), "absent key");
                    final long lo = keys.length / 3;
                    final long hi = lo + 999;
                    long expected = 0;
                    for (final long key : keys) {
                        if (key >= lo && key <= hi) {
                            expected += ~key;
                        }
                    }
                    final long[] visited = new long[2];
                    target.scan(lo, hi, visited);
                    assertEquals(expected, visited[1], structure + " " + workload + " scan");
                    // Scan(startKey, count): the first 37 keys from lo on.
                    final long[] sorted = keys.clone();
                    Arrays.sort(sorted);
                    int at = Arrays.binarySearch(sorted, lo);
                    at = at >= 0 ? at : -at - 1;
                    long expectedFrom = 0;
                    for (int i = at; i < Math.min(sorted.length, at + 37); i++) {
                        expectedFrom += ~sorted[i];
                    }
                    target.scanFrom(lo, 37, visited);
                    assertEquals(Math.min(37, sorted.length - at), visited[0], structure + " " + workload + " scanFrom");
                    assertEquals(expectedFrom, visited[1], structure + " " + workload + " scanFrom");
                    target.scanFrom(lo, 0, visited);
                    assertEquals(0, visited[0], structure + " scanFrom 0");
                }
            }
        }
    }
}
