package io.nearsort.ldi.baselines;

/**
 * The I/O of one baseline projection.
 *
 * @param runsWritten  run files written: buffer flushes plus merge outputs
 * @param bytesWritten bytes written to run files
 * @param tuplesWritten tuples written to run files
 * @param tuplesRead   tuples read back by merges
 * @param liveRuns     runs a query looks at now
 */
public record BaselineStats(long runsWritten, long bytesWritten, long tuplesWritten, long tuplesRead, int liveRuns) {
}
