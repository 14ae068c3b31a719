package io.nearsort.jmh;

import io.nearsort.examples.cli.bench.BenchStructure;
import io.nearsort.examples.cli.bench.BenchTarget;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The shared shape of the single-shot ingest benchmarks: keys generated once per trial, a fresh structure per
 * iteration, and a check after each iteration that every key arrived.
 */
public abstract class IngestState {
    private long[] keys;
    private BenchTarget target;

    /** The keys of this trial, in arrival order. */
    protected abstract long[] generateKeys();

    /** The structure under test. */
    protected abstract BenchStructure structure();

    @Setup(Level.Trial)
    public void generate() {
        keys = generateKeys();
    }

    @Setup(Level.Iteration)
    public void createStructure() {
        target = structure().createForWorkload(keys.length);
    }

    @TearDown(Level.Iteration)
    public void closeStructure() {
        if (target.size() != keys.length) {
            throw new IllegalStateException(structure() + " holds " + target.size() + " entries, expected "
                    + keys.length);
        }
        target.close();
    }

    /** One whole ingest; returns the structure so that JMH keeps the work. */
    protected BenchTarget ingestAll() {
        target.ingest(keys, keys, 0, keys.length);
        return target;
    }
}
