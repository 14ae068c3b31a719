package io.nearsort.ldi.commit;

import java.util.List;

/**
 * What one projection contributes to a commit: the buckets it added and retired since the previous commit, and
 * where its active segment ends.
 *
 * @param added         buckets written since the previous commit and still live
 * @param retired       pointers of buckets of earlier commits retired since (by maintenance or reclamation)
 * @param activeSegment the segment being appended to
 * @param activeEnd     its length when the commit was taken (0: not created yet)
 * @param nextSegment   the number the next segment will get
 */
public record ProjectionCommit(List<BucketEntry> added, long[] retired, int activeSegment, long activeEnd,
                               int nextSegment) {
    /**
     * Copies {@code added} and {@code retired}, so the commit does not change with what was given.
     *
     * @param added         buckets written since the previous commit and still live
     * @param retired       pointers of buckets of earlier commits retired since (by maintenance or reclamation)
     * @param activeSegment the segment being appended to
     * @param activeEnd     its length when the commit was taken (0: not created yet)
     * @param nextSegment   the number the next segment will get
     */
    public ProjectionCommit {
        added = List.copyOf(added);
        retired = retired.clone();
    }

    int encodedBytes() {
        return 4 + 8 + 4 + 4 + added.size() * BucketEntry.BYTES + 4 + 8 * retired.length;
    }
}
