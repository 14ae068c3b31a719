package io.nearsort.jmh;

import io.nearsort.core.sortedness.KLGenerator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * SWARE §V-G, Fig. 20: the mixed workload ({@link MixedState}) across the data-sortedness grid and read:write
 * mixes from 10:90 to 90:10, for the Bε-tree and the SA Bε-tree beside the B+-tree and the SA B+-tree (each SA tree
 * also built for a single writer thread, {@code _SW}, and confined to one thread, {@code _ST}: the like-for-like
 * build, since the benchmark runs on one thread and neither plain tree takes a lock), written one
 * {@code put} per record. Fig. 20 normalises every time to the Bε-tree's on scrambled data at the same mix:
 * speedup = time(BETREE, SCRAMBLED) / time(structure, sortedness). {@code sortedness} is {@code SORTED},
 * {@code SCRAMBLED} or {@code K<k>_L<l>} with K and L in % of n (any cell of the OSM-tree §5 grid, e.g.
 * {@code K10_L5}, or the paper's "less sorted" {@code K100_L50}).
 *
 * <p>Run it one cell and mix at a time, so the four structures' forks of a cell follow each other within a
 * minute, then normalise the scores of every run:
 *
 * <pre>
 * mvn -q -B package -DskipTests
 * for m in 10 30 50 70 90; do for c in SCRAMBLED SORTED K5_L5 K10_L5 K25_L25 K100_L50; do
 *   jmh/alternate.sh -r 3 -o scores-$c-$m.tsv '\.MixedGridBenchmark\.' BETREE SA_BETREE,BPLUS,SA_BPLUS \
 *       -p sortedness=$c -p readPercent=$m
 * done; done
 * cat scores-*.tsv | awk -f jmh/normalise.awk -v base=BETREE -v param=sortedness -v ref=SCRAMBLED
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Xms4g", "-Xmx4g"})
public class MixedGridBenchmark extends MixedState {
    @Param({"1000000"})
    int n;

    @Param({"SORTED", "K1_L1", "K5_L5", "K10_L5", "K25_L25", "K50_L50", "K100_L50", "SCRAMBLED"})
    String sortedness;

    @Param({"10", "30", "50", "70", "90"})
    int readPercent;

    @Param({"BETREE", "SA_BETREE", "BPLUS", "SA_BPLUS", "SA_BETREE_SW", "SA_BPLUS_SW", "SA_BETREE_ST", "SA_BPLUS_ST"})
    String structure;

    /** Records per write: 1 is one {@code put} per record (the paper's per-record ingestion). */
    @Param({"1"})
    String batch;

    /**
     * Bytes of every tree's nodes. 4096 is the paper's page; the paper's entries are 8 bytes (§V: a 4-byte key),
     * ~510 to a page, where 4 KiB holds 254 of these 16-byte ones: 8192 gives the paper's entries per node, and
     * with them its fanouts (a Bε-tree node's √B pivots: 22 instead of 15).
     */
    @Param({"4096"})
    int pageSize;

    @Override
    protected long[] generateKeys() {
        return keys(sortedness, n);
    }

    /** The keys of a {@code sortedness} cell, reproducible (seed 42). */
    static long[] keys(final String sortedness, final int n) {
        final KLGenerator generator = KLGenerator.workload(n).seed(42);
        if (sortedness.equals("SORTED")) {
            return generator.generate();
        }
        if (sortedness.equals("SCRAMBLED")) {
            return generator.scrambled(true).generate();
        }
        final java.util.regex.Matcher cell = java.util.regex.Pattern.compile("K([0-9.]+)_L([0-9.]+)")
                .matcher(sortedness);
        if (!cell.matches()) {
            throw new IllegalArgumentException("sortedness must be SORTED, SCRAMBLED or K<k>_L<l> with k and l in % "
                    + "of n (got: " + sortedness + ")");
        }
        return generator.kPercent(Double.parseDouble(cell.group(1))).lPercent(Double.parseDouble(cell.group(2)))
                .generate();
    }

    @Override
    protected String structure() {
        return structure;
    }

    @Override
    protected String batch() {
        return batch;
    }

    @Override
    protected int readPercent() {
        return readPercent;
    }

    @Override
    protected int pageSize() {
        return pageSize;
    }

    @Benchmark
    public long mixed() {
        return runMixed();
    }
}
