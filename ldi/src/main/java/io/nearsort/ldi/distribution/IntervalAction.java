package io.nearsort.ldi.distribution;

/** What Algorithm 1 (Eq. 6) decided for one interval at the end of a time window. */
public enum IntervalAction {
    /** Φmin &lt; drift &lt; Φmax: nothing changes. */
    SKIP,
    /** drift ≥ Φmax: the interval is split at its midpoint. */
    SPLIT,
    /** drift ≤ Φmin: the interval is merged into its left neighbour. */
    MERGE_LEFT,
    /** drift ≤ Φmin: the interval is merged into its right neighbour. */
    MERGE_RIGHT,
    /** A split or merge was called for but is impossible (a one-key interval, or the only interval). */
    BLOCKED
}
