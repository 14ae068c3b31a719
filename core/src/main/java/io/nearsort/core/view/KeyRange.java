package io.nearsort.core.view;

/**
 * An immutable key interval in ascending order, each end open, closed or unbounded: the range of a sub-map
 * view. Every {@code long} is a key, so unboundedness is a flag, never a sentinel value.
 */
final class KeyRange {
    static final KeyRange ALL = new KeyRange(true, 0, false, true, 0, false);

    private final boolean lowUnbounded;
    private final long low;
    private final boolean lowInclusive;
    private final boolean highUnbounded;
    private final long high;
    private final boolean highInclusive;

    private KeyRange(final boolean lowUnbounded, final long low, final boolean lowInclusive,
                     final boolean highUnbounded, final long high, final boolean highInclusive) {
        this.lowUnbounded = lowUnbounded;
        this.low = low;
        this.lowInclusive = lowInclusive;
        this.highUnbounded = highUnbounded;
        this.high = high;
        this.highInclusive = highInclusive;
    }

    KeyRange withLow(final long key, final boolean inclusive) {
        return new KeyRange(false, key, inclusive, highUnbounded, high, highInclusive);
    }

    KeyRange withHigh(final long key, final boolean inclusive) {
        return new KeyRange(lowUnbounded, low, lowInclusive, false, key, inclusive);
    }

    /** This range with the bounded ends of {@code narrower} (already checked to lie within this range). */
    KeyRange intersect(final KeyRange narrower) {
        KeyRange result = this;
        if (!narrower.lowUnbounded) {
            result = result.withLow(narrower.low, narrower.lowInclusive);
        }
        if (!narrower.highUnbounded) {
            result = result.withHigh(narrower.high, narrower.highInclusive);
        }
        return result;
    }

    boolean isAll() {
        return lowUnbounded && highUnbounded;
    }

    boolean lowUnbounded() {
        return lowUnbounded;
    }

    long low() {
        return low;
    }

    boolean lowInclusive() {
        return lowInclusive;
    }

    boolean highUnbounded() {
        return highUnbounded;
    }

    long high() {
        return high;
    }

    boolean highInclusive() {
        return highInclusive;
    }

    boolean tooLow(final long key) {
        return !lowUnbounded && (key < low || (key == low && !lowInclusive));
    }

    boolean tooHigh(final long key) {
        return !highUnbounded && (key > high || (key == high && !highInclusive));
    }

    boolean contains(final long key) {
        return !tooLow(key) && !tooHigh(key);
    }

    /**
     * Whether a new bound at {@code key} may narrow this range: an inclusive bound must lie inside it, an
     * exclusive one inside its closure (as {@code java.util.TreeMap}'s sub-maps decide).
     */
    boolean admitsBound(final long key, final boolean inclusive) {
        if (inclusive) {
            return contains(key);
        }
        return (lowUnbounded || key >= low) && (highUnbounded || key <= high);
    }

    /** Whether no key lies in the range. */
    boolean isEmpty() {
        if (!lowUnbounded && !lowInclusive && low == Long.MAX_VALUE) {
            return true;
        }
        if (!highUnbounded && !highInclusive && high == Long.MIN_VALUE) {
            return true;
        }
        return lowestKey() > highestKey();
    }

    /** The smallest key in the range; only meaningful when it is not empty. */
    long lowestKey() {
        if (lowUnbounded) {
            return Long.MIN_VALUE;
        }
        return lowInclusive ? low : low + 1;
    }

    /** The largest key in the range; only meaningful when it is not empty. */
    long highestKey() {
        if (highUnbounded) {
            return Long.MAX_VALUE;
        }
        return highInclusive ? high : high - 1;
    }
}
