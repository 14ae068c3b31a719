package io.nearsort.ldi.baselines;

/**
 * What happened at one disk level of an {@link LsmRuns} (level 1 is the first on disk; level 0 is the buffer).
 *
 * @param arrivals      runs that arrived from the level above
 * @param fulls         times the level filled and passed its merged data on to the next level
 * @param merges        sort-merges performed at this level (an arrival into an empty level is no merge)
 * @param tuplesWritten tuples written to this level
 * @param tuplesRead    tuples of this level read back to be merged
 */
public record LevelCounters(long arrivals, long fulls, long merges, long tuplesWritten, long tuplesRead) {
}
