package io.nearsort.jmh.labtree;

import java.util.SplittableRandom;

/**
 * The orders in which LAB-tree §4.3 populates an empty n x n matrix stored row-major, as row-major linear keys.
 */
public enum InsertionPattern {
    /** seq: row-major order, the storage order. */
    SEQ,
    /** str: column-major order, strided through the storage order. */
    STR,
    /** int: row-major and column-major orders interleaved, each skipping elements the other already inserted. */
    INT,
    /** ran: a uniformly random order. */
    RAN;

    /** The n² keys in insertion order. */
    public long[] keys(final int n, final long seed) {
        final int size = n * n;
        final long[] keys = new long[size];
        switch (this) {
            case SEQ:
                for (int i = 0; i < size; i++) {
                    keys[i] = i;
                }
                break;
            case STR:
                for (int i = 0; i < size; i++) {
                    keys[i] = (long) (i % n) * n + i / n;
                }
                break;
            case INT: {
                final boolean[] done = new boolean[size];
                int rowMajor = 0;
                int columnMajor = 0;
                for (int i = 0; i < size; i++) {
                    long key;
                    if (i % 2 == 0) {
                        while (done[rowMajor]) {
                            rowMajor++;
                        }
                        key = rowMajor;
                    } else {
                        while (done[(columnMajor % n) * n + columnMajor / n]) {
                            columnMajor++;
                        }
                        key = (long) (columnMajor % n) * n + columnMajor / n;
                    }
                    done[(int) key] = true;
                    keys[i] = key;
                }
                break;
            }
            case RAN: {
                for (int i = 0; i < size; i++) {
                    keys[i] = i;
                }
                final SplittableRandom random = new SplittableRandom(seed);
                for (int i = size - 1; i > 0; i--) {
                    final int j = random.nextInt(i + 1);
                    final long t = keys[i];
                    keys[i] = keys[j];
                    keys[j] = t;
                }
                break;
            }
            default:
                throw new AssertionError(this);
        }
        return keys;
    }
}
