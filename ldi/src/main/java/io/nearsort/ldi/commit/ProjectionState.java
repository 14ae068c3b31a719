package io.nearsort.ldi.commit;

import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * One projection's state as the manifest's commits build it up: its live buckets by pointer, how many live buckets
 * each segment holds, and its active segment. Not thread-safe (used while a manifest is replayed).
 */
public final class ProjectionState {
    private final Long2ObjectHashMap<BucketEntry> live = new Long2ObjectHashMap<>();
    private final Int2IntHashMap perSegment = new Int2IntHashMap(0);
    private int activeSegment;
    private long activeEnd;
    private int nextSegment;

    /** The state before any commit: no live bucket; the active segment, its end and the next segment number all 0. */
    public ProjectionState() {
    }

    /** Applies one commit's changes; an inconsistent change is reported as {@link IllegalStateException}. */
    void apply(final ProjectionCommit c) {
        for (BucketEntry e : c.added()) {
            if (live.put(e.pointer(), e) != null) {
                throw new IllegalStateException("adds bucket " + e.segment() + ":" + e.location().offset()
                        + " twice");
            }
            bump(e.segment(), 1);
        }
        for (long p : c.retired()) {
            final BucketEntry e = live.remove(p);
            if (e == null) {
                throw new IllegalStateException("retires bucket " + io.nearsort.ldi.io.BucketPointer.toString(p)
                        + ", which is not live");
            }
            bump(e.segment(), -1);
        }
        activeSegment = c.activeSegment();
        activeEnd = c.activeEnd();
        nextSegment = c.nextSegment();
    }

    private void bump(final int segment, final int delta) {
        final int v = perSegment.get(segment) + delta;
        if (v == 0) {
            perSegment.remove(segment);
        } else {
            perSegment.put(segment, v);
        }
    }

    /** Segments this state needs: those holding a live bucket, and the active one once it exists. */
    int[] referencedSegments() {
        final List<Integer> s = new ArrayList<>();
        perSegment.forEachInt((segment, count) -> s.add(segment));
        if (activeEnd > 0 && !perSegment.containsKey(activeSegment)) {
            s.add(activeSegment);
        }
        final int[] out = s.stream().mapToInt(Integer::intValue).toArray();
        Arrays.sort(out);
        return out;
    }

    /**
     * The live buckets (unordered).
     *
     * @return a view of the live buckets (not a copy: it follows commits applied later)
     */
    public Collection<BucketEntry> live() {
        return live.values();
    }

    /**
     * The active segment as of the last commit applied.
     *
     * @return the number of the segment being appended to
     */
    public int activeSegment() {
        return activeSegment;
    }

    /**
     * The active segment's committed length as of the last commit applied.
     *
     * @return its length in bytes, 0 when it was not created yet
     */
    public long activeEnd() {
        return activeEnd;
    }

    /**
     * The number the next new segment gets, as of the last commit applied.
     *
     * @return the next segment number
     */
    public int nextSegment() {
        return nextSegment;
    }
}
