package io.nearsort.core.sortedness;

/**
 * A stable least-significant-digit radix sort of parallel (key, value) arrays, for runs of keys in no particular
 * order, such as the outliers the (K,L)-adaptive sort sets aside (its Pass 2 sorts them with any stable sort).
 * A comparison sort of random keys mispredicts about one branch per comparison; this sort does not compare.
 *
 * <p>Keys are ranked by their distance from the smallest key, read as an unsigned number, so only the bytes in
 * which that distance can be non-zero are passed over: keys within 2<sup>24</sup> of each other take three
 * passes whatever their magnitude, and arbitrary longs at most eight. Each pass scatters by one byte in
 * arrival order, which keeps equal keys in arrival order. Runs shorter than {@value #MIN_RADIX_RUN}, or too
 * widely spread for their length, go to {@link StableMergeSort} instead. The scratch arrays are kept between
 * calls; an instance is confined to one thread.
 */
public final class StableRadixSort {
    /** Shorter runs are merge-sorted: the 256 buckets of each pass would cost more than the run. */
    static final int MIN_RADIX_RUN = 256;
    private static final int RADIX_BITS = 8;
    private static final int BUCKETS = 1 << RADIX_BITS;

    private final StableMergeSort mergeSort = new StableMergeSort();
    private final int[] counts = new int[BUCKETS];
    private long[] scratchKeys = new long[0];
    private long[] scratchValues = new long[0];

    /** An empty sorter; its scratch arrays, and those of the merge sort it falls back to, grow on first use. */
    public StableRadixSort() {
    }

    /**
     * Bytes of Java heap its kept scratch arrays hold, its merge sort's included (array payloads).
     *
     * @return the bytes of the scratch arrays' payloads, the merge sort's included
     */
    public long heapBytes() {
        return (long) Long.BYTES * (scratchKeys.length + scratchValues.length) + (long) Integer.BYTES * counts.length
                + mergeSort.heapBytes();
    }

    /**
     * Sorts {@code keys[from, to)} ascending, moving {@code values[from, to)} along, stably.
     *
     * @param keys the keys; {@code keys[from, to)} is sorted in place
     * @param values the values, moved with their keys; {@code values[from, to)} is rearranged
     * @param from the first index of the run, inclusive
     * @param to the end of the run, exclusive
     * @return whether radix passes sorted the run (false: it was merge-sorted, or shorter than two)
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of both arrays
     */
    public boolean sort(final long[] keys, final long[] values, final int from, final int to) {
        final int n = StableMergeSort.checkedLength(keys, values, from, to);
        if (n < 2) {
            return false;
        }
        long min = keys[from];
        long max = min;
        for (int i = from + 1; i < to; i++) {
            min = Math.min(min, keys[i]);
            max = Math.max(max, keys[i]);
        }
        final int passes = (Long.SIZE - Long.numberOfLeadingZeros(max - min) + RADIX_BITS - 1) / RADIX_BITS;
        // A pass reads the run twice and writes it once, about what two merge levels cost, and a merge sort takes
        // about log2(n) levels.
        if (n < MIN_RADIX_RUN || 2 * passes > 32 - Integer.numberOfLeadingZeros(n)) {
            mergeSort.sort(keys, values, from, to);
            return false;
        }
        if (scratchKeys.length < n) {
            scratchKeys = new long[n];
            scratchValues = new long[n];
        }
        long[] srcK = keys;
        long[] srcV = values;
        int srcFrom = from;
        long[] dstK = scratchKeys;
        long[] dstV = scratchValues;
        int dstFrom = 0;
        for (int pass = 0; pass < passes; pass++) {
            scatterByDigit(srcK, srcV, srcFrom, dstK, dstV, dstFrom, n, min, pass * RADIX_BITS);
            final long[] k = srcK;
            final long[] v = srcV;
            final int f = srcFrom;
            srcK = dstK;
            srcV = dstV;
            srcFrom = dstFrom;
            dstK = k;
            dstV = v;
            dstFrom = f;
        }
        if (srcK != keys) { // an odd number of passes left the sorted run in the scratch arrays
            System.arraycopy(srcK, srcFrom, keys, from, n);
            System.arraycopy(srcV, srcFrom, values, from, n);
        }
        return true;
    }

    /** One counting-sort pass by the byte of {@code key - min} at {@code shift}, in source order among ties. */
    private void scatterByDigit(final long[] srcK, final long[] srcV, final int srcFrom, final long[] dstK,
                                final long[] dstV, final int dstFrom, final int n, final long min, final int shift) {
        final int[] c = counts;
        java.util.Arrays.fill(c, 0);
        for (int i = srcFrom; i < srcFrom + n; i++) {
            c[(int) ((srcK[i] - min) >>> shift) & (BUCKETS - 1)]++;
        }
        int start = dstFrom;
        for (int b = 0; b < BUCKETS; b++) {
            final int count = c[b];
            c[b] = start;
            start += count;
        }
        for (int i = srcFrom; i < srcFrom + n; i++) {
            final long key = srcK[i];
            final int at = c[(int) ((key - min) >>> shift) & (BUCKETS - 1)]++;
            dstK[at] = key;
            dstV[at] = srcV[i];
        }
    }
}
