package io.nearsort.ldi.baselines;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The level structure of the LSM-like baseline (§2, Figure 2a; Appendix 8.1, Figure 13) over any kind of sorted
 * run — in memory ({@link LsmRuns}, for the counts of Table 1 and the closed forms) or in files
 * ({@link LsmColumnStore}): level i's base run holds {@code B·T^(i-1)} tuples, and the {@link MergePolicy} decides
 * when runs are sort-merged. Every tuple moved is counted per level.
 *
 * @param <R> the run type
 */
public final class LsmLevels<R> {
    /**
     * Sort-merges and discards runs of type {@code R}.
     *
     * @param <R> the run type: a sorted run in memory ({@link LsmRuns}) or in files ({@link LsmColumnStore})
     */
    public interface Runs<R> {
        /**
         * Tuples in {@code run}.
         *
         * @param run a run of these levels
         * @return its tuples, not negative
         */
        long size(R run);

        /**
         * One run holding every tuple of {@code oldestFirst}, sorted; equal keys keep older tuples first.
         *
         * @param oldestFirst the runs to merge, at least two, oldest first
         * @return the merged run
         * @throws IOException when the runs cannot be read or the merged run written
         */
        R merge(List<R> oldestFirst) throws IOException;

        /**
         * {@code run} was merged into another and is no longer needed.
         *
         * @param run the run merged away
         * @throws IOException when releasing the run (e.g. deleting its file) fails
         */
        void discard(R run) throws IOException;

        /**
         * {@code run} comes to rest on a level: runs that a merge only described (the model streams a merge's
         * output into the next level's merge, so it is written once, where it rests) are written now.
         *
         * @param run the run coming to rest
         * @return the run as it rests on the level: {@code run} itself by default, or the run written now
         * @throws IOException when writing the run fails
         */
        default R place(final R run) throws IOException {
            return run;
        }
    }

    private static final int ARRIVALS = 0;
    private static final int FULLS = 1;
    private static final int MERGES = 2;
    private static final int WRITTEN = 3;
    private static final int READ = 4;

    private final MergePolicy policy;
    private final long bufferTuples;
    private final int ratio;
    private final Runs<R> runs;
    private final List<List<R>> levels = new ArrayList<>();
    private final List<long[]> counters = new ArrayList<>();

    /**
     * Creates empty levels: no run has arrived yet.
     *
     * @param policy       leveling or tiering
     * @param bufferTuples B, at least 1
     * @param ratio        T, the size ratio between consecutive levels, at least 2
     * @param runs         sort-merges, discards and places the runs
     * @throws IllegalArgumentException when {@code bufferTuples} is below 1 or {@code ratio} below 2
     */
    public LsmLevels(final MergePolicy policy, final long bufferTuples, final int ratio, final Runs<R> runs) {
        if (bufferTuples < 1) {
            throw new IllegalArgumentException("bufferTuples (B) must be at least 1 (got: " + bufferTuples + ")");
        }
        if (ratio < 2) {
            throw new IllegalArgumentException("ratio (T) must be at least 2 (got: " + ratio + ")");
        }
        this.policy = policy;
        this.bufferTuples = bufferTuples;
        this.ratio = ratio;
        this.runs = runs;
    }

    /**
     * A flushed buffer arrives at disk level 1.
     *
     * @param run the flushed buffer as a sorted run
     * @throws IOException when a merge, discard or place of {@link Runs} fails
     */
    public void arrive(final R run) throws IOException {
        arrive(1, run);
    }

    private void arrive(final int level, final R run) throws IOException {
        while (levels.size() < level) {
            levels.add(new ArrayList<>());
            counters.add(new long[5]);
        }
        final List<R> onLevel = levels.get(level - 1);
        final long[] c = counters.get(level - 1);
        c[ARRIVALS]++;
        if (onLevel.isEmpty()) {
            onLevel.add(runs.place(run));
            c[WRITTEN] += runs.size(run);
            return;
        }
        if (policy == MergePolicy.LEVELED) {
            final R existing = onLevel.get(0);
            c[READ] += runs.size(existing);
            c[MERGES]++;
            final R merged = runs.merge(List.of(existing, run));
            runs.discard(existing);
            runs.discard(run);
            if (runs.size(merged) >= ratio * baseRun(level)) {
                onLevel.clear();
                c[FULLS]++;
                arrive(level + 1, merged);
            } else {
                onLevel.set(0, runs.place(merged));
                c[WRITTEN] += runs.size(merged);
            }
        } else if (onLevel.size() == ratio - 1) {
            final List<R> inputs = new ArrayList<>(onLevel);
            inputs.forEach(r -> c[READ] += runs.size(r));
            inputs.add(run);
            final R merged = runs.merge(inputs);
            for (R r : inputs) {
                runs.discard(r);
            }
            onLevel.clear();
            c[MERGES]++;
            c[FULLS]++;
            arrive(level + 1, merged);
        } else {
            onLevel.add(runs.place(run));
            c[WRITTEN] += runs.size(run);
        }
    }

    private long baseRun(final int level) {
        long run = bufferTuples;
        for (int i = 1; i < level; i++) {
            run *= ratio;
        }
        return run;
    }

    /**
     * Disk levels that have received data.
     *
     * @return the number of disk levels reached, 0 before the first arrival
     */
    public int levels() {
        return levels.size();
    }

    /**
     * The runs on disk level {@code level} (from 1), oldest first.
     *
     * @param level the disk level, from 1; a level out of range has no run
     * @return a copy of the level's runs, empty for a level out of range
     */
    public List<R> runs(final int level) {
        return level >= 1 && level <= levels.size() ? List.copyOf(levels.get(level - 1)) : List.of();
    }

    /**
     * Every run, newest level first.
     *
     * @return a new list of every run, level 1's first
     */
    public List<R> allRuns() {
        final List<R> all = new ArrayList<>();
        for (List<R> l : levels) {
            all.addAll(l);
        }
        return all;
    }

    /**
     * The counters of disk level {@code level} (from 1); zeros for a level never reached.
     *
     * @param level the disk level, from 1
     * @return the level's counters
     * @throws IllegalArgumentException when {@code level} is below 1
     */
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

    /**
     * Counters summed over disk levels {@code 1..upTo}.
     *
     * @param upTo the last disk level summed; below 1 sums none
     * @return the summed counters
     */
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

    /**
     * Counters summed over every level.
     *
     * @return the counters summed over every disk level reached
     */
    public LevelCounters total() {
        return total(levels.size());
    }

    /**
     * The merge policy.
     *
     * @return the merge policy given at construction
     */
    public MergePolicy policy() {
        return policy;
    }
}
