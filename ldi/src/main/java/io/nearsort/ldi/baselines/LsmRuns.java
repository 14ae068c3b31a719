package io.nearsort.ldi.baselines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The LSM-like baseline's merge behaviour (§2, Figure 2a; Appendix 8.1, Figure 13): a buffer of B tuples (level 0)
 * is sorted and flushed to level 1 when full; level i's base run holds {@code B·T^(i-1)} tuples; the
 * {@link MergePolicy} decides when runs are sort-merged. Every tuple moved is counted per level, so the merge and
 * I/O counts of Table 1 and the closed forms of Eqs. 1–2 and 10–13 ({@link LsmCostModel}) can be checked against
 * what the runs actually did. A partial buffer stays in memory. The levels are {@link LsmLevels}', the same code
 * the on-disk {@link LsmColumnStore} runs.
 */
public final class LsmRuns {
    private final int bufferTuples;
    private final long[] bufferKeys;
    private final long[] bufferRefs;
    private int buffered;
    private final LsmLevels<SortedRun> levels;

    /**
     * Creates an empty LSM: a buffer of B tuples in memory and no run on any level.
     *
     * @param policy       leveling or tiering
     * @param bufferTuples B, at least 1
     * @param ratio        T, the size ratio between consecutive levels, at least 2
     */
    public LsmRuns(final MergePolicy policy, final int bufferTuples, final int ratio) {
        this.levels = new LsmLevels<>(policy, bufferTuples, ratio, new LsmLevels.Runs<>() {
            @Override
            public long size(final SortedRun run) {
                return run.size();
            }

            @Override
            public SortedRun merge(final List<SortedRun> oldestFirst) {
                SortedRun merged = oldestFirst.get(0);
                for (int i = 1; i < oldestFirst.size(); i++) {
                    merged = SortedRun.merge(merged, oldestFirst.get(i));
                }
                return merged;
            }

            @Override
            public void discard(final SortedRun run) {
                // garbage collected
            }
        });
        this.bufferTuples = bufferTuples;
        this.bufferKeys = new long[bufferTuples];
        this.bufferRefs = new long[bufferTuples];
    }

    /**
     * Adds a tuple to level 0; a full buffer is sorted and flushed.
     *
     * @param key    the tuple's key, any long
     * @param rowRef the tuple's row reference, kept with the key
     */
    public void add(final long key, final long rowRef) {
        bufferKeys[buffered] = key;
        bufferRefs[buffered] = rowRef;
        if (++buffered == bufferTuples) {
            final SortedRun run = SortedRun.sort(bufferKeys, bufferRefs, buffered);
            buffered = 0;
            try {
                levels.arrive(run);
            } catch (IOException e) {
                throw new UncheckedIOException("in-memory runs do no I/O", e);
            }
        }
    }

    /**
     * Disk levels that have received data.
     *
     * @return the number of disk levels reached, 0 before the first full buffer
     */
    public int levels() {
        return levels.levels();
    }

    /**
     * The counters of disk level {@code level} (from 1); zeros for a level never reached.
     *
     * @param level the disk level, from 1
     * @return the level's counters
     * @throws IllegalArgumentException when {@code level} is below 1
     */
    public LevelCounters level(final int level) {
        return levels.level(level);
    }

    /**
     * Counters summed over disk levels {@code 1..upTo}.
     *
     * @param upTo the last disk level summed; below 1 sums none
     * @return the summed counters
     */
    public LevelCounters total(final int upTo) {
        return levels.total(upTo);
    }

    /**
     * Counters summed over every level.
     *
     * @return the counters summed over every disk level reached
     */
    public LevelCounters total() {
        return levels.total();
    }

    /**
     * The keys of each run on {@code level}, oldest run first.
     *
     * @param level the disk level, from 1; a level out of range has no run
     * @return a new list holding each run's keys, sorted, in a new array; empty for a level out of range
     */
    public List<long[]> runs(final int level) {
        final List<long[]> out = new ArrayList<>();
        for (SortedRun run : levels.runs(level)) {
            out.add(run.keys.clone());
        }
        return out;
    }

    /**
     * The tuples still in the level-0 buffer, in arrival order.
     *
     * @return a copy of their keys
     */
    public long[] bufferedKeys() {
        return Arrays.copyOf(bufferKeys, buffered);
    }

    /**
     * The merge policy.
     *
     * @return the merge policy given at construction
     */
    public MergePolicy policy() {
        return levels.policy();
    }
}
