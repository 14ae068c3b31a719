package io.nearsort.ldi.bucketing;

import io.nearsort.core.sortedness.StableMergeSort;
import io.nearsort.ldi.distribution.Distribution;
import io.nearsort.ldi.distribution.DistributionTrainer;
import io.nearsort.ldi.distribution.LearnedDistribution;
import io.nearsort.ldi.distribution.TuningReport;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * LDI's data-clustering component (§2, §3): tuples enter a main buffer of B slots; the leaf interval of the
 * learned distribution a key falls into keeps a pointer to it; an interval reaching n pointers writes a bucket of
 * exactly those tuples; a full buffer with no full interval combines sibling intervals into a non-compacted
 * bucket (§3.3). After every time window the distribution is tuned by Algorithm 1, and the buffered pointers
 * follow the new intervals.
 *
 * <p>Sibling combination, where the paper only shows examples (Figure 2b steps 7 and 12): the fewest adjacent
 * intervals that together point to at least n tuples; among equally many, the ones whose buffered keys span the
 * narrowest range (then the leftmost). Exactly n tuples are written, whole intervals from the left and the oldest
 * tuples of the last one. {@link #finish()} writes what remains in interval order, n tuples a bucket.
 *
 * <p>Not thread-safe: one ingest thread owns a bucketizer (the column store runs one per projection).
 */
public final class Bucketizer {
    private final int bucketCapacity;
    private final int trainingPrefix;
    private final int fanout;
    private final int intervalLoad;
    private final int windowSize;
    private final double phiMax;
    private final double phiMin;
    private final Consumer<Bucket> onBucket;
    private final Consumer<TuningReport> onTuning;
    private final MainBuffer buffer;

    private LearnedDistribution distribution;
    private List<IntervalPointers> pointers = new ArrayList<>();
    private long[] stagedKeys;
    private long[] stagedRefs;
    private int staged;
    private long arrivals;
    private long buckets;
    private long compactedBuckets;
    private long siblingCombines;
    private boolean finished;

    private Bucketizer(final BucketizerBuilder b) {
        this.bucketCapacity = b.bucketCapacity;
        this.trainingPrefix = b.trainingPrefix;
        this.fanout = b.fanout;
        this.intervalLoad = b.intervalLoad;
        this.windowSize = b.windowSize == 0 ? b.bufferCapacity : b.windowSize;
        this.phiMax = b.phiMax;
        this.phiMin = b.phiMin;
        this.onBucket = b.onBucket;
        this.onTuning = b.onTuning;
        this.buffer = new MainBuffer(b.bufferCapacity);
        if (b.boundaries != null) {
            final long[] lows = java.util.Arrays.copyOf(b.boundaries, b.boundaries.length - 1);
            final long lastHigh = b.boundaries[b.boundaries.length - 1] - 1;
            adopt(new LearnedDistribution(lows, lastHigh, b.initialLoads, windowSize, phiMax, phiMin));
        } else {
            stagedKeys = new long[trainingPrefix];
            stagedRefs = new long[trainingPrefix];
        }
    }

    /**
     * A builder with the paper's defaults (Φmax = 2, Φmin = 0.3).
     *
     * @return a new builder holding the defaults of {@link BucketizerBuilder}
     */
    public static BucketizerBuilder builder() {
        return new BucketizerBuilder(Bucketizer::new);
    }

    /**
     * Adds one tuple; buckets it completes are handed to the {@code onBucket} listener before this returns.
     *
     * @param key    the tuple's key; any long (a key outside every interval widens the first or last one)
     * @param rowRef the tuple's row reference, kept with the key unchanged
     * @throws IllegalStateException after {@link #finish()}
     */
    public void add(final long key, final long rowRef) {
        if (finished) {
            throw new IllegalStateException("Bucketizer is finished: no tuple can be added after finish()");
        }
        if (distribution == null) {
            stagedKeys[staged] = key;
            stagedRefs[staged] = rowRef;
            staged++;
            if (staged == trainingPrefix) {
                trainAndReplay();
            }
            return;
        }
        place(key, rowRef, true);
    }

    /** Writes out every buffered tuple (in interval order, n a bucket); afterwards no tuple can be added. */
    public void finish() {
        if (finished) {
            return;
        }
        drain();
        finished = true;
    }

    /**
     * Writes out every buffered tuple, in interval order and n a bucket, and keeps accepting tuples: a column
     * store's {@code flush()}. A training prefix still being collected is trained on what has arrived.
     */
    public void drain() {
        if (finished) {
            throw new IllegalStateException("Bucketizer is finished");
        }
        if (distribution == null && staged > 0) {
            trainAndReplay();
        }
        if (distribution == null) {
            return;
        }
        final int[] chunk = new int[bucketCapacity];
        int chunkSize = 0;
        int firstInterval = -1;
        int lastInterval = -1;
        for (int i = 0; i < pointers.size(); i++) {
            final IntervalPointers p = pointers.get(i);
            for (int j = 0; j < p.size(); j++) {
                if (chunkSize == 0) {
                    firstInterval = i;
                }
                lastInterval = i;
                chunk[chunkSize++] = p.slot(j);
                if (chunkSize == bucketCapacity) {
                    emit(chunk, chunkSize, firstInterval, i);
                    chunkSize = 0;
                }
            }
        }
        if (chunkSize > 0) {
            emit(chunk, chunkSize, firstInterval, lastInterval);
        }
        pointers.replaceAll(p -> new IntervalPointers());
    }

    /**
     * Whether {@link #finish()} was called.
     *
     * @return true once {@link #finish()} was called
     */
    public boolean isFinished() {
        return finished;
    }

    /**
     * The learned distribution, or {@code null} while the training prefix is still being collected.
     *
     * @return the live distribution (not a copy: it changes as tuples arrive), or {@code null} before training
     */
    public Distribution distribution() {
        return distribution;
    }

    /**
     * The buffered keys interval {@code i} points to, in arrival order (Figure 2b's leaf interval columns).
     *
     * @param interval the leaf interval's index {@code i}, 0 to {@code distribution().intervalCount() - 1}
     * @return a new array of the keys, empty when the interval points to none
     */
    public long[] pointedKeys(final int interval) {
        final IntervalPointers p = pointers.get(interval);
        final long[] keys = new long[p.size()];
        for (int j = 0; j < keys.length; j++) {
            keys[j] = buffer.key(p.slot(j));
        }
        return keys;
    }

    /**
     * Counters so far.
     *
     * @return a snapshot of the counters, the training prefix still being collected included
     */
    public BucketizerStats stats() {
        final long nonCompacted = buckets - compactedBuckets;
        return new BucketizerStats(arrivals + staged, buffer.occupied() + staged, buckets, compactedBuckets,
                nonCompacted, siblingCombines, distribution == null ? 0 : distribution.intervalCount(),
                distribution == null ? 0 : distribution.windows(), distribution == null ? 0 : distribution.splits(),
                distribution == null ? 0 : distribution.merges(),
                distribution == null ? 0 : distribution.widenings());
    }

    private void trainAndReplay() {
        final DistributionTrainer.Trained trained = intervalLoad > 0
                ? DistributionTrainer.trainByLoad(stagedKeys, 0, staged, intervalLoad)
                : DistributionTrainer.train(stagedKeys, 0, staged, fanout);
        adopt(new LearnedDistribution(trained.lows(), trained.lastHigh(), trained.loads(), windowSize, phiMax,
                phiMin));
        final long[] keys = stagedKeys;
        final long[] refs = stagedRefs;
        final int n = staged;
        stagedKeys = null;
        stagedRefs = null;
        staged = 0;
        for (int i = 0; i < n; i++) {
            // The prefix is already G's training load: it is bucketed, but not counted again into a window.
            place(keys[i], refs[i], false);
        }
    }

    private void adopt(final LearnedDistribution learned) {
        distribution = learned;
        pointers = new ArrayList<>(learned.intervalCount());
        for (int i = 0; i < learned.intervalCount(); i++) {
            pointers.add(new IntervalPointers());
        }
    }

    private void place(final long key, final long rowRef, final boolean countInWindow) {
        final int i = countInWindow ? distribution.record(key) : distribution.assign(key);
        final int slot = buffer.store(key, rowRef, arrivals++);
        final IntervalPointers p = pointers.get(i);
        p.add(slot, key);
        if (p.size() >= bucketCapacity) {
            writeOldest(i, bucketCapacity);
        } else if (buffer.isFull()) {
            combineSiblings();
        }
        if (countInWindow && distribution.windowComplete()) {
            final TuningReport report = distribution.tune();
            onTuning.accept(report);
            if (report.changed()) {
                remapPointers();
            }
        }
    }

    /** Writes the {@code n} oldest tuples of interval {@code i} as one compacted bucket. */
    private void writeOldest(final int i, final int n) {
        final IntervalPointers p = pointers.get(i);
        final int[] slots = new int[n];
        for (int j = 0; j < n; j++) {
            slots[j] = p.slot(j);
        }
        p.removeOldest(n, buffer);
        emit(slots, n, i, i);
    }

    /** §3.3 / Figure 2b steps 7 and 12: the buffer is full and no interval is. */
    private void combineSiblings() {
        siblingCombines++;
        final int k = pointers.size();
        // Two pointers: for every left end the nearest right end reaching n pointers; keep the shortest windows.
        int bestLength = Integer.MAX_VALUE;
        int bestLeft = -1;
        long bestSpan = Long.MAX_VALUE;
        int right = -1;
        long sum = 0;
        for (int left = 0; left < k; left++) {
            while (sum < bucketCapacity && right + 1 < k) {
                sum += pointers.get(++right).size();
            }
            if (sum < bucketCapacity) {
                break;
            }
            final int length = right - left + 1;
            final long span = span(left, right);
            if (length < bestLength || length == bestLength && Long.compareUnsigned(span, bestSpan) < 0) {
                bestLength = length;
                bestLeft = left;
                bestSpan = span;
            }
            sum -= pointers.get(left).size();
        }
        final int[] slots = new int[bucketCapacity];
        int taken = 0;
        final int last = bestLeft + bestLength - 1;
        for (int i = bestLeft; i <= last; i++) {
            final IntervalPointers p = pointers.get(i);
            final int take = Math.min(p.size(), bucketCapacity - taken);
            for (int j = 0; j < take; j++) {
                slots[taken++] = p.slot(j);
            }
            p.removeOldest(take, buffer);
        }
        emit(slots, taken, bestLeft, last);
    }

    /** The range of the keys intervals {@code [from, to]} point to, as an unsigned distance. */
    private long span(final int from, final int to) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = from; i <= to; i++) {
            final IntervalPointers p = pointers.get(i);
            if (p.size() > 0) {
                min = Math.min(min, p.minKey());
                max = Math.max(max, p.maxKey());
            }
        }
        return max - min;
    }

    private void emit(final int[] slots, final int n, final int firstInterval, final int lastInterval) {
        final long[] keys = new long[n];
        final long[] refs = new long[n];
        for (int j = 0; j < n; j++) {
            keys[j] = buffer.key(slots[j]);
            refs[j] = buffer.rowRef(slots[j]);
            buffer.release(slots[j]);
        }
        final boolean compacted = firstInterval == lastInterval;
        final Bucket bucket = new Bucket(buckets++, keys, refs, distribution.low(firstInterval),
                distribution.high(lastInterval), compacted);
        if (compacted) {
            compactedBuckets++;
        }
        onBucket.accept(bucket);
    }

    /** After a split or merge ({@code C = G}): every buffered tuple is re-pointed from its new interval. */
    private void remapPointers() {
        final int n = buffer.occupied();
        final long[] order = new long[n];
        final long[] slots = new long[n];
        int m = 0;
        for (IntervalPointers p : pointers) {
            for (int j = 0; j < p.size(); j++) {
                order[m] = buffer.arrival(p.slot(j));
                slots[m++] = p.slot(j);
            }
        }
        StableMergeSort.sortStable(order, slots, 0, m);
        final int k = distribution.intervalCount();
        pointers = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            pointers.add(new IntervalPointers());
        }
        for (int j = 0; j < m; j++) {
            final int slot = (int) slots[j];
            final long key = buffer.key(slot);
            pointers.get(distribution.intervalOf(key)).add(slot, key);
        }
        for (int i = 0; i < k; i++) {
            while (pointers.get(i).size() >= bucketCapacity) {
                writeOldest(i, bucketCapacity);
            }
        }
    }
}
