package io.nearsort.ldi.baselines;

/** The two LSM merge policies of §2 and Appendix 8.1. */
public enum MergePolicy {
    /**
     * Leveling (proactive merging): every level holds one sorted run; a run arriving from the level above is
     * sort-merged with it at once. When the merge makes the level hold T times its base run, the result moves on to
     * the next level instead of being written here.
     */
    LEVELED,
    /**
     * Tiering (delayed merging): runs arriving at a level are appended as they are; when T − 1 runs wait and one
     * more arrives, all of them are sort-merged into one run for the next level.
     */
    TIERED
}
