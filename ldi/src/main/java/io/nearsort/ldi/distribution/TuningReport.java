package io.nearsort.ldi.distribution;

import java.util.List;

/**
 * The outcome of one run of Algorithm 1 at the end of a time window.
 *
 * @param window    the window's number, from 1
 * @param intervals every interval as it was when the window ended, in key order
 */
public record TuningReport(long window, List<IntervalDrift> intervals) {

    /**
     * Copies {@code intervals}, so the report does not change with the list given.
     *
     * @param window    the window's number, from 1
     * @param intervals every interval as it was when the window ended, in key order; no null element
     */
    public TuningReport {
        intervals = List.copyOf(intervals);
    }

    /**
     * Whether any interval was split or merged, so that {@code C = G} took new boundaries.
     *
     * @return true when some interval's action is neither {@link IntervalAction#SKIP} nor
     *         {@link IntervalAction#BLOCKED}
     */
    public boolean changed() {
        for (IntervalDrift d : intervals) {
            if (d.action() != IntervalAction.SKIP && d.action() != IntervalAction.BLOCKED) {
                return true;
            }
        }
        return false;
    }

    /**
     * The entry of the interval that started at {@code low}; throws if there was none.
     *
     * @param low the interval's smallest key when the window ended
     * @return the interval's entry
     * @throws IllegalArgumentException when no interval started at {@code low}
     */
    public IntervalDrift intervalStartingAt(final long low) {
        for (IntervalDrift d : intervals) {
            if (d.low() == low) {
                return d;
            }
        }
        throw new IllegalArgumentException("no interval started at " + low + " in window " + window);
    }
}
