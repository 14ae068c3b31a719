package io.nearsort.core.sortedness;

/**
 * A stable merge sort of parallel (key, value) arrays: among equal keys the arrival order is kept, which is
 * what lets a buffer decide that the later of two writes to one key wins (SWARE §IV-C, the role
 * {@code std::stable_sort} plays in the paper).
 *
 * <p>Top-down, ping-ponging between the input and one scratch copy, with insertion sort for short ranges and
 * a skipped merge when two halves are already in order, so sorted input costs one linear pass. The scratch
 * arrays are kept between calls; an instance is confined to one thread.
 */
public final class StableMergeSort {
    private static final int INSERTION_SORT_THRESHOLD = 24;

    private long[] scratchKeys = new long[0];
    private long[] scratchValues = new long[0];

    /** An empty sorter; its scratch arrays grow on first use. */
    public StableMergeSort() {
    }

    /**
     * Bytes of Java heap its kept scratch arrays hold (array payloads; they grow to the longest run sorted).
     *
     * @return the bytes of the scratch arrays' payloads
     */
    public long heapBytes() {
        return (long) Long.BYTES * (scratchKeys.length + scratchValues.length);
    }

    /**
     * Sorts {@code keys[from, to)} ascending, moving {@code values[from, to)} along, stably.
     *
     * @param keys the keys; {@code keys[from, to)} is sorted in place
     * @param values the values, moved with their keys; {@code values[from, to)} is rearranged
     * @param from the first index of the run, inclusive
     * @param to the end of the run, exclusive
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of both arrays
     */
    public void sort(final long[] keys, final long[] values, final int from, final int to) {
        final int n = checkedLength(keys, values, from, to);
        if (n < 2) {
            return;
        }
        if (scratchKeys.length < n) {
            scratchKeys = new long[n];
            scratchValues = new long[n];
        }
        System.arraycopy(keys, from, scratchKeys, 0, n);
        System.arraycopy(values, from, scratchValues, 0, n);
        // Sort scratch[0, n) into keys[from, to).
        sortInto(scratchKeys, scratchValues, 0, keys, values, from, n);
    }

    /** The length of the run {@code [from, to)} of both arrays, after checking that both hold it. */
    static int checkedLength(final long[] keys, final long[] values, final int from, final int to) {
        java.util.Objects.checkFromToIndex(from, to, keys.length);
        java.util.Objects.checkFromToIndex(from, to, values.length);
        return to - from;
    }

    /**
     * The positions {@code 0..n-1} ordered by {@code primary}, then by {@code secondary} (both read at the
     * position), ties kept in position order: a stable sort by the secondary key followed by a stable sort by the
     * primary one.
     *
     * @param primary the first sort key of each position; only {@code primary[0, n)} is read
     * @param secondary the sort key among positions with equal primary keys; only {@code secondary[0, n)} is read
     * @param n the number of positions, {@code >= 0}
     * @return a new array of the positions {@code 0..n-1} in that order
     * @throws IndexOutOfBoundsException when {@code n} is negative or exceeds either array's length
     */
    public static int[] order(final long[] primary, final long[] secondary, final int n) {
        java.util.Objects.checkFromToIndex(0, n, primary.length);
        java.util.Objects.checkFromToIndex(0, n, secondary.length);
        final long[] positions = new long[n];
        for (int i = 0; i < n; i++) {
            positions[i] = i;
        }
        final StableMergeSort sorter = new StableMergeSort();
        final long[] sortKeys = java.util.Arrays.copyOf(secondary, n);
        sorter.sort(sortKeys, positions, 0, n);
        for (int i = 0; i < n; i++) {
            sortKeys[i] = primary[(int) positions[i]];
        }
        sorter.sort(sortKeys, positions, 0, n);
        final int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = (int) positions[i];
        }
        return out;
    }

    /**
     * Sorts {@code keys[from, to)} stably with a fresh sorter.
     *
     * @param keys the keys; {@code keys[from, to)} is sorted in place
     * @param values the values, moved with their keys; {@code values[from, to)} is rearranged
     * @param from the first index of the run, inclusive
     * @param to the end of the run, exclusive
     * @throws IndexOutOfBoundsException when {@code [from, to)} is not a range of both arrays
     */
    public static void sortStable(final long[] keys, final long[] values, final int from, final int to) {
        new StableMergeSort().sort(keys, values, from, to);
    }

    /**
     * Sorts the n elements at {@code src[srcFrom)} into {@code dst[dstFrom)}; both hold the same elements on
     * entry, and {@code src} is used as scratch.
     */
    private static void sortInto(final long[] srcK, final long[] srcV, final int srcFrom,
                                 final long[] dstK, final long[] dstV, final int dstFrom, final int n) {
        if (n <= INSERTION_SORT_THRESHOLD) {
            insertionSort(dstK, dstV, dstFrom, dstFrom + n);
            return;
        }
        final int half = n >>> 1;
        // Sort each half of dst into src, then merge src's halves back into dst.
        sortInto(dstK, dstV, dstFrom, srcK, srcV, srcFrom, half);
        sortInto(dstK, dstV, dstFrom + half, srcK, srcV, srcFrom + half, n - half);
        final int mid = srcFrom + half;
        final int end = srcFrom + n;
        if (srcK[mid - 1] <= srcK[mid]) {
            System.arraycopy(srcK, srcFrom, dstK, dstFrom, n);
            System.arraycopy(srcV, srcFrom, dstV, dstFrom, n);
            return;
        }
        int i = srcFrom;
        int j = mid;
        for (int d = dstFrom; d < dstFrom + n; d++) {
            if (j >= end || (i < mid && srcK[i] <= srcK[j])) {
                dstK[d] = srcK[i];
                dstV[d] = srcV[i++];
            } else {
                dstK[d] = srcK[j];
                dstV[d] = srcV[j++];
            }
        }
    }

    static void insertionSort(final long[] keys, final long[] values, final int from, final int to) {
        for (int i = from + 1; i < to; i++) {
            final long key = keys[i];
            final long value = values[i];
            int j = i - 1;
            while (j >= from && keys[j] > key) {
                keys[j + 1] = keys[j];
                values[j + 1] = values[j];
                j--;
            }
            keys[j + 1] = key;
            values[j + 1] = value;
        }
    }
}
