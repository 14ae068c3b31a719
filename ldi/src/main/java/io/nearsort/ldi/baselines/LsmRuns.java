package io.nearsort.ldi.baselines;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The LSM-like baseline's merge behaviour (§2, Figure 2a; Appendix 8.1, Figure 13): a buffer of B tuples (level 0)
 * is sorted and flushed to level 1 when full; level i's base run holds {@code B·T^(i-1)} tuples; the
 * {@link MergePolicy} decides when runs are sort-merged. Every tuple moved is counted per level, so the merge and
 * I/O counts of Table 1 and the closed forms of Eqs. 1–2 and 10–13 ({@link LsmCostModel}) can be checked against
 * what the runs actually did. A partial buffer stays in memory.
 */
public final class LsmRuns {
    private final MergePolicy policy;
    private final int bufferTuples;
    private final int ratio;
    private final long[] bufferKeys;
    private final long[] bufferRefs;
    private int buffered;
    private final List<List<SortedRun>> levels = new ArrayList<>();
    private final List<long[]> counters = new ArrayList<>();

    private static final int ARRIVALS = 0;
    private static final int FULLS = 1;
    private static final int MERGES = 2;
    private static final int WRITTEN = 3;
    private static final int READ = 4;

    /**
     * @param policy       leveling or tiering
     * @param bufferTuples B, at least 1
     * @param ratio        T, the size ratio between consecutive levels, at least 2
     */
    public LsmRuns(final MergePolicy policy, final int bufferTuples, final int ratio) {
        if (bufferTuples < 1) {
            throw new IllegalArgumentException("bufferTuples (B) must be at least 1 (got: " + bufferTuples + ")");
        }
        if (ratio < 2) {
            throw new IllegalArgumentException("ratio (T) must be at least 2 (got: " + ratio + ")");
        }
        this.policy = policy;
        this.bufferTuples = bufferTuples;
        this.ratio = ratio;
        this.bufferKeys = new long[bufferTuples];
        this.bufferRefs = new long[bufferTuples];
    }

    /** Adds a tuple to level 0; a full buffer is sorted and flushed. */
    public void add(final long key, final long rowRef) {
        bufferKeys[buffered] = key;
        bufferRefs[buffered] = rowRef;
        if (++buffered == bufferTuples) {
            final SortedRun run = SortedRun.sort(bufferKeys, bufferRefs, buffered);
            buffered = 0;
            arrive(1, run);
        }
    }

    private void arrive(final int level, final SortedRun run) {
        while (levels.size() < level) {
            levels.add(new ArrayList<>());
            counters.add(new long[5]);
        }
        final List<SortedRun> runs = levels.get(level - 1);
        final long[] c = counters.get(level - 1);
        c[ARRIVALS]++;
        if (runs.isEmpty()) {
            runs.add(run);
            c[WRITTEN] += run.size();
            return;
        }
        if (policy == MergePolicy.LEVELED) {
            final SortedRun existing = runs.get(0);
            c[READ] += existing.size();
            c[MERGES]++;
            final SortedRun merged = SortedRun.merge(existing, run);
            if (merged.size() >= (long) ratio * baseRun(level)) {
                runs.clear();
                c[FULLS]++;
                arrive(level + 1, merged);
            } else {
                runs.set(0, merged);
                c[WRITTEN] += merged.size();
            }
        } else if (runs.size() == ratio - 1) {
            SortedRun merged = runs.get(0);
            c[READ] += merged.size();
            for (int i = 1; i < runs.size(); i++) {
                c[READ] += runs.get(i).size();
                merged = SortedRun.merge(merged, runs.get(i));
            }
            merged = SortedRun.merge(merged, run);
            runs.clear();
            c[MERGES]++;
            c[FULLS]++;
            arrive(level + 1, merged);
        } else {
            runs.add(run);
            c[WRITTEN] += run.size();
        }
    }

    private long baseRun(final int level) {
        long run = bufferTuples;
        for (int i = 1; i < level; i++) {
            run *= ratio;
        }
        return run;
    }

    /** Disk levels that have received data. */
    public int levels() {
        return levels.size();
    }

    /** The counters of disk level {@code level} (from 1); zeros for a level never reached. */
    public LevelCounters level(final int level) {
        if (level < 1) {
            throw new IllegalArgumentException("disk levels are numbered from 1 (got: " + level + ")");
        }
        if (level > levels.size()) {
            return new LevelCounters(0, 0, 0, 0, 0);
        }
        final long[] c = counters.get(level - 1);
        return new LevelCounters(c[ARRIVALS], c[FULLS], c[MERGES], c[WRITTEN], c[READ]);
    }

    /** Counters summed over disk levels {@code 1..upTo}. */
    public LevelCounters total(final int upTo) {
        long a = 0;
        long f = 0;
        long m = 0;
        long w = 0;
        long r = 0;
        for (int i = 1; i <= upTo; i++) {
            final LevelCounters c = level(i);
            a += c.arrivals();
            f += c.fulls();
            m += c.merges();
            w += c.tuplesWritten();
            r += c.tuplesRead();
        }
        return new LevelCounters(a, f, m, w, r);
    }

    /** Counters summed over every level. */
    public LevelCounters total() {
        return total(levels.size());
    }

    /** The keys of each run on {@code level}, oldest run first. */
    public List<long[]> runs(final int level) {
        final List<long[]> out = new ArrayList<>();
        if (level >= 1 && level <= levels.size()) {
            for (SortedRun run : levels.get(level - 1)) {
                out.add(run.keys.clone());
            }
        }
        return out;
    }

    /** The tuples still in the level-0 buffer, in arrival order. */
    public long[] bufferedKeys() {
        return Arrays.copyOf(bufferKeys, buffered);
    }

    /** The merge policy. */
    public MergePolicy policy() {
        return policy;
    }
}
