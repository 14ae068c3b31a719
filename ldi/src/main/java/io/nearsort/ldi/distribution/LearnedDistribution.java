package io.nearsort.ldi.distribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * LDI's dynamic distribution (§3.2, Algorithm 1): global ({@code G}), local ({@code L}) and current ({@code C})
 * quantities over one shared set of intervals. {@link #record} counts a key into {@code C}; when a time window of
 * {@code windowSize} tuples is complete, {@link #tune} accumulates {@code C} into {@code L} (Phase 1), computes
 * every interval's drift (Eq. 3) and splits or merges the intervals whose drift crosses Φmax or Φmin (Phase 2,
 * Eq. 6), after which {@code C = G}.
 *
 * <p>Choices the paper leaves open, made here: a split cuts the key range at its midpoint and gives each half
 * half of {@code G.dis} and {@code G.load} (the paper's Figure 4(c) is lost); a merge joins the neighbour with the
 * smaller {@code G.dis} (the left one on ties), summing both distributions; every decision of one window is taken
 * on the state before any of them is applied. Keys below the first or above the last interval widen it. A window
 * in which an interval receives fewer tuples than {@code G} predicted counts with the predicted weight (Phase 1), because with the literal counts a cold interval could never merge.
 *
 * <p>Not thread-safe; owned by one {@link io.nearsort.ldi.bucketing.Bucketizer}.
 */
public final class LearnedDistribution implements Distribution {
    private final int windowSize;
    private final double phiMax;
    private final double phiMin;

    private int count;
    private long[] lows;
    private long lastHigh;
    private double[] globalDis;
    private long[] globalLoad;
    private double[] localDis;
    private long[] localLoad;
    private long[] currentLoad;
    private int windowFill;
    private long windows;
    private long splits;
    private long merges;
    private long widenings;

    /**
     * A distribution over explicit intervals.
     *
     * @param lows        each interval's smallest key, strictly ascending
     * @param lastHigh    the last interval's largest key (inclusive)
     * @param loads       the initial {@code G.load} of every interval ({@code G.dis} follows by normalising), or
     *                    {@code null} for none: then {@code G.dis} is uniform and {@code G.load} zero, so the first
     *                    windows' local evidence alone decides
     * @param windowSize  tuples per time window ({@code size} in Table 4)
     * @param phiMax      the split threshold Φmax
     * @param phiMin      the merge threshold Φmin
     */
    public LearnedDistribution(final long[] lows, final long lastHigh, final long[] loads, final int windowSize,
                               final double phiMax, final double phiMin) {
        if (lows.length == 0) {
            throw new IllegalArgumentException("lows must name at least one interval");
        }
        for (int i = 1; i < lows.length; i++) {
            if (lows[i] <= lows[i - 1]) {
                throw new IllegalArgumentException("interval boundaries must be strictly ascending (boundary " + i
                        + " is " + lows[i] + " after " + lows[i - 1] + ")");
            }
        }
        if (lastHigh < lows[lows.length - 1]) {
            throw new IllegalArgumentException("lastHigh " + lastHigh + " lies below the last interval's low "
                    + lows[lows.length - 1]);
        }
        if (windowSize < 1) {
            throw new IllegalArgumentException("windowSize must be at least 1 (got: " + windowSize + ")");
        }
        if (!(phiMax > 1.0) || Double.isInfinite(phiMax)) {
            throw new IllegalArgumentException("Φmax must be a finite number above 1 (got: " + phiMax + ")");
        }
        if (!(phiMin >= 0.0 && phiMin < 1.0)) {
            throw new IllegalArgumentException("Φmin must be in [0, 1) (got: " + phiMin + ")");
        }
        if (loads != null && loads.length != lows.length) {
            throw new IllegalArgumentException("initial loads must give one count per interval (" + lows.length
                    + " intervals, " + loads.length + " loads)");
        }
        this.windowSize = windowSize;
        this.phiMax = phiMax;
        this.phiMin = phiMin;
        this.count = lows.length;
        this.lows = lows.clone();
        this.lastHigh = lastHigh;
        this.globalDis = new double[count];
        this.globalLoad = new long[count];
        this.localDis = new double[count];
        this.localLoad = new long[count];
        this.currentLoad = new long[count];
        initialiseGlobal(loads);
    }

    private void initialiseGlobal(final long[] loads) {
        long total = 0;
        if (loads != null) {
            for (int i = 0; i < count; i++) {
                if (loads[i] < 0) {
                    throw new IllegalArgumentException("initial load " + i + " is negative: " + loads[i]);
                }
                total += loads[i];
            }
        }
        for (int i = 0; i < count; i++) {
            globalLoad[i] = loads == null ? 0 : loads[i];
            globalDis[i] = total == 0 ? 1.0 / count : (double) globalLoad[i] / total;
        }
    }

    /**
     * Counts {@code key} into the current window ({@code C.load}) and returns its interval.
     *
     * @param key any long; one outside every interval widens the first or last one
     * @return the index of the key's interval, 0 to {@code intervalCount() - 1}
     */
    public int record(final long key) {
        final int i = assign(key);
        currentLoad[i]++;
        windowFill++;
        return i;
    }

    /**
     * The interval of {@code key}, widening the first or last interval if needed, without counting the key.
     *
     * @param key any long; one outside every interval widens the first or last one
     * @return the index of the key's interval, 0 to {@code intervalCount() - 1}
     */
    public int assign(final long key) {
        if (key < lows[0]) {
            lows[0] = key;
            widenings++;
        } else if (key > lastHigh) {
            lastHigh = key;
            widenings++;
        }
        return intervalOf(key);
    }

    /**
     * Whether the current window holds {@code windowSize} tuples, so {@link #tune} is due.
     *
     * @return whether {@link #tune} is due
     */
    public boolean windowComplete() {
        return windowFill >= windowSize;
    }

    /**
     * Tuples per time window.
     *
     * @return the window size given at construction, at least 1
     */
    public int windowSize() {
        return windowSize;
    }

    /**
     * Keys that widened the first or last interval because they fell outside every interval.
     *
     * @return the number of such keys since the distribution was made
     */
    public long widenings() {
        return widenings;
    }

    /**
     * Algorithm 1 at the end of a time window; returns what it saw and did.
     *
     * @return every interval as it was before the window's splits and merges, with its drift and action
     */
    public TuningReport tune() {
        accumulateCurrentIntoLocal();
        final IntervalAction[] actions = new IntervalAction[count];
        final List<IntervalDrift> report = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            actions[i] = decide(i);
            report.add(new IntervalDrift(low(i), high(i), localDis[i], localLoad[i], globalDis[i], globalLoad[i],
                    drift(i), actions[i]));
        }
        for (int i = 0; i < count; i++) {
            if (actions[i] != IntervalAction.SKIP && actions[i] != IntervalAction.BLOCKED) {
                accumulateLocalIntoGlobal(i);
            }
        }
        applySplitsAndMerges(actions);
        windows++;
        return new TuningReport(windows, report);
    }

    /**
     * Phase 1 (lines 6–9): the window's counts join the local distribution. One deviation, documented in the class
     * comment: a window weighs in with at least the tuples {@code G} predicted for the interval
     * ({@code G.dis·size}, rounded), so an interval that stops receiving data accumulates evidence of it. With the
     * bare counts of lines 7–9 such an interval's drift stays 1 forever and it could never merge. Whenever the
     * interval receives at least its predicted share, as in Figure 4, the lines apply exactly.
     */
    private void accumulateCurrentIntoLocal() {
        for (int i = 0; i < count; i++) {
            final long c = currentLoad[i];
            final long weight = Math.max(c, Math.round(globalDis[i] * windowSize));
            if (weight > 0) {
                final double currentDis = (double) c / windowSize;
                localDis[i] = (localDis[i] * localLoad[i] + currentDis * weight) / (localLoad[i] + weight);
                localLoad[i] += weight;
            }
            currentLoad[i] = 0;
        }
        windowFill = 0;
    }

    /** Eq. 6, plus the choice of neighbour for a merge. */
    private IntervalAction decide(final int i) {
        final double drift = drift(i);
        if (drift >= phiMax) {
            return high(i) > low(i) ? IntervalAction.SPLIT : IntervalAction.BLOCKED;
        }
        if (drift <= phiMin) {
            if (count == 1) {
                return IntervalAction.BLOCKED;
            }
            if (i == 0) {
                return IntervalAction.MERGE_RIGHT;
            }
            if (i == count - 1) {
                return IntervalAction.MERGE_LEFT;
            }
            return globalDis[i + 1] < globalDis[i - 1] ? IntervalAction.MERGE_RIGHT : IntervalAction.MERGE_LEFT;
        }
        return IntervalAction.SKIP;
    }

    /** Phase 2, lines 13–17 and 20–24. */
    private void accumulateLocalIntoGlobal(final int i) {
        final long total = globalLoad[i] + localLoad[i];
        if (total > 0) {
            globalDis[i] = (globalDis[i] * globalLoad[i] + localDis[i] * localLoad[i]) / total;
        }
        globalLoad[i] = total;
        localLoad[i] = 0;
        localDis[i] = 0;
    }

    /** Lines 18 and 25–27: rebuilds the intervals with every split and merge applied; then {@code C = G}. */
    private void applySplitsAndMerges(final IntervalAction[] actions) {
        final IntervalList out = new IntervalList(count + 8);
        IntervalList.Entry pending = null;
        for (int i = 0; i < count; i++) {
            final IntervalList.Entry entry = new IntervalList.Entry(low(i), high(i), globalDis[i], globalLoad[i],
                    localDis[i], localLoad[i]);
            switch (actions[i]) {
                case SPLIT -> {
                    splits++;
                    final long mid = (entry.low >> 1) + (entry.high >> 1) + (entry.low & entry.high & 1);
                    final IntervalList.Entry left = new IntervalList.Entry(entry.low, mid, entry.globalDis / 2,
                            entry.globalLoad / 2, 0, 0);
                    final IntervalList.Entry right = new IntervalList.Entry(mid + 1, entry.high, entry.globalDis / 2,
                            entry.globalLoad - entry.globalLoad / 2, 0, 0);
                    pending = out.addAbsorbing(pending, left);
                    out.add(right);
                }
                case MERGE_LEFT -> {
                    merges++;
                    if (out.isEmpty()) {
                        pending = pending == null ? entry : pending.join(entry);
                    } else {
                        out.joinLast(pending == null ? entry : pending.join(entry));
                        pending = null;
                    }
                }
                case MERGE_RIGHT -> {
                    merges++;
                    pending = pending == null ? entry : pending.join(entry);
                }
                default -> pending = out.addAbsorbing(pending, entry);
            }
        }
        if (pending != null) {
            out.joinLastOrAdd(pending);
        }
        if (changed(actions)) {
            adopt(out);
        }
    }

    private static boolean changed(final IntervalAction[] actions) {
        for (IntervalAction a : actions) {
            if (a != IntervalAction.SKIP && a != IntervalAction.BLOCKED) {
                return true;
            }
        }
        return false;
    }

    private void adopt(final IntervalList out) {
        count = out.size();
        lows = new long[count];
        globalDis = new double[count];
        globalLoad = new long[count];
        localDis = new double[count];
        localLoad = new long[count];
        currentLoad = new long[count];
        for (int i = 0; i < count; i++) {
            final IntervalList.Entry e = out.get(i);
            lows[i] = e.low;
            globalDis[i] = e.globalDis;
            globalLoad[i] = e.globalLoad;
            localDis[i] = e.localDis;
            localLoad[i] = e.localLoad;
        }
        lastHigh = out.get(count - 1).high;
    }

    @Override
    public int intervalCount() {
        return count;
    }

    @Override
    public long low(final int i) {
        checkIndex(i);
        return lows[i];
    }

    @Override
    public long high(final int i) {
        checkIndex(i);
        return i == count - 1 ? lastHigh : lows[i + 1] - 1;
    }

    @Override
    public int intervalOf(final long key) {
        final int pos = Arrays.binarySearch(lows, 0, count, key);
        if (pos >= 0) {
            return pos;
        }
        return Math.max(0, -pos - 2);
    }

    @Override
    public double globalDis(final int i) {
        checkIndex(i);
        return globalDis[i];
    }

    @Override
    public long globalLoad(final int i) {
        checkIndex(i);
        return globalLoad[i];
    }

    @Override
    public double localDis(final int i) {
        checkIndex(i);
        return localDis[i];
    }

    @Override
    public long localLoad(final int i) {
        checkIndex(i);
        return localLoad[i];
    }

    @Override
    public long currentLoad(final int i) {
        checkIndex(i);
        return currentLoad[i];
    }

    @Override
    public double drift(final int i) {
        checkIndex(i);
        final long l = localLoad[i];
        final long g = globalLoad[i];
        final double g0 = globalDis[i];
        final double numerator;
        if (l + g == 0) {
            numerator = localDis[i];
        } else {
            numerator = ((double) l / (l + g)) * localDis[i] + ((double) g / (l + g)) * g0;
        }
        if (g0 == 0.0) {
            return numerator > 0 ? Double.POSITIVE_INFINITY : 1.0;
        }
        return l + g == 0 ? 1.0 : numerator / g0;
    }

    @Override
    public long splits() {
        return splits;
    }

    @Override
    public long merges() {
        return merges;
    }

    @Override
    public long windows() {
        return windows;
    }

    private void checkIndex(final int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("interval " + i + " of " + count);
        }
    }

    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder("Distribution{");
        for (int i = 0; i < count; i++) {
            sb.append(i == 0 ? "" : " ").append('[').append(low(i)).append('÷').append(high(i)).append(']');
        }
        return sb.append('}').toString();
    }
}
