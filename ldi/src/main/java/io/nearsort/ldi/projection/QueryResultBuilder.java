package io.nearsort.ldi.projection;

import io.nearsort.core.sortedness.StableMergeSort;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds an exact {@link QueryResult} from the blocks a query examined: rows outside {@code [lo, hi]} are filtered
 * out (LDI's extraneous tuples, §5.2), the matches are ordered by key then row id, and the requested columns are
 * copied once, typed, from the blocks they live in.
 */
public final class QueryResultBuilder {
    private final List<Column> columns = new ArrayList<>();
    private final int[] wanted;
    private final long lo;
    private final long hi;
    private final List<StoredBucket> sources = new ArrayList<>();
    private final IntArrayList sourceOf = new IntArrayList();
    private final IntArrayList rowOf = new IntArrayList();
    private final LongArrayList keys = new LongArrayList();
    private final LongArrayList ids = new LongArrayList();
    private long scanned;

    /**
     * A result of {@code names} (columns of {@code projection}) for keys in {@code [lo, hi]}.
     *
     * @param projection the layout of the projection queried
     * @param lo         the lowest ordered key kept, inclusive
     * @param hi         the highest ordered key kept, inclusive; below {@code lo}, no row is kept
     * @param names      names of columns of {@code projection}, the result's columns
     */
    public QueryResultBuilder(final ProjectionLayout projection, final long lo, final long hi, final String... names) {
        this.wanted = projection.positions(names);
        for (int w : wanted) {
            columns.add(projection.columns().get(w));
        }
        this.lo = lo;
        this.hi = hi;
    }

    /**
     * Examines every row of {@code block}, keeping those in range.
     *
     * @param block a block of the projection's rows, in any order; kept until {@link #build} (not copied)
     */
    public void add(final StoredBucket block) {
        scanned += block.count;
        final int source = sources.size();
        sources.add(block);
        for (int i = 0; i < block.count; i++) {
            if (block.keys[i] >= lo && block.keys[i] <= hi) {
                sourceOf.addInt(source);
                rowOf.addInt(i);
                keys.addLong(block.keys[i]);
                ids.addLong(block.rowIds[i]);
            }
        }
    }

    /**
     * The result; {@code blocksRead} is how many of the blocks came from disk.
     *
     * @param blocksRead how many of the blocks added came from disk, reported by {@link QueryResult#bucketsRead()}
     * @return the rows in range of every block added, ordered by key then row id
     */
    public QueryResult build(final long blocksRead) {
        final int n = keys.size();
        final int[] pos = StableMergeSort.order(keys.toLongArray(), ids.toLongArray(), n);
        final long[] outIds = new long[n];
        final int[] from = new int[n];
        final int[] rows = new int[n];
        for (int i = 0; i < n; i++) {
            final int match = pos[i];
            outIds[i] = ids.getLong(match);
            from[i] = sourceOf.getInt(match);
            rows[i] = rowOf.getInt(match);
        }
        final Object[] values = StoredBucket.gatherColumns(columns, wanted,
                sources.toArray(new StoredBucket[0]), from, rows, n);
        return new QueryResult(columns, outIds, values, blocksRead, scanned);
    }
}
