package io.nearsort.ldi.projection;

import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The sort-merge shared by LDI maintenance (§3.3: non-compacted buckets, each sorted, merged into compacted ones)
 * and the LSM-like and Sorted_Col baselines (§2: runs merged into longer runs): a k-way merge of sorted block
 * streams into sorted blocks of a fixed number of rows, ordered by key and then row id. Only the current block of
 * each input and the blocks feeding the output block being filled are held in memory.
 */
public final class BlockMerger {
    /** A stream of blocks, each sorted, each starting at or after the previous one's end; null when done. */
    @FunctionalInterface
    public interface BlockSource {
        /**
         * The stream's next block.
         *
         * @return the next block, or null when the stream is done
         * @throws IOException if reading the block fails
         */
        StoredBucket next() throws IOException;
    }

    /** Receives each merged block, in key order. */
    @FunctionalInterface
    public interface BlockSink {
        /**
         * Takes the next merged block.
         *
         * @param block a merged block: sorted by key then row id, compacted, not empty
         * @throws IOException if storing the block fails
         */
        void accept(StoredBucket block) throws IOException;
    }

    private BlockMerger() {
    }

    /**
     * A source of the one sorted block {@code block} (an in-memory run).
     *
     * @param block a block sorted by key then row id
     * @return a source returning {@code block} once, then null
     */
    public static BlockSource single(final StoredBucket block) {
        final StoredBucket[] next = {block};
        return () -> {
            final StoredBucket b = next[0];
            next[0] = null;
            return b;
        };
    }

    /**
     * Merges {@code sources} into blocks of {@code rowsPerBlock} rows (the last may be shorter), all compacted.
     *
     * @param layout       the columns of the blocks, in their order
     * @param sources      the block streams to merge, each read to its end
     * @param rowsPerBlock rows of each output block, at least 1
     * @param sink         receives the output blocks, in key order
     * @return rows merged
     * @throws IOException if a source or the sink fails
     */
    public static long merge(final List<Column> layout, final List<BlockSource> sources, final int rowsPerBlock,
                             final BlockSink sink) throws IOException {
        if (rowsPerBlock < 1) {
            throw new IllegalArgumentException("rowsPerBlock must be at least 1 (got: " + rowsPerBlock + ")");
        }
        final Cursor[] cursors = new Cursor[sources.size()];
        final PriorityQueue<Cursor> heap = new PriorityQueue<>((a, b) -> {
            final int byKey = Long.compare(a.block.key(a.row), b.block.key(b.row));
            return byKey != 0 ? byKey : Long.compare(a.block.rowId(a.row), b.block.rowId(b.row));
        });
        for (int i = 0; i < cursors.length; i++) {
            cursors[i] = new Cursor(sources.get(i));
            if (cursors[i].advanceBlock()) {
                heap.add(cursors[i]);
            }
        }
        final Output out = new Output(layout, rowsPerBlock, sink);
        long rows = 0;
        while (!heap.isEmpty()) {
            final Cursor c = heap.poll();
            out.add(c.block, c.row);
            rows++;
            if (++c.row < c.block.count() || c.advanceBlock()) {
                heap.add(c);
            }
        }
        out.finish();
        return rows;
    }

    private static final class Cursor {
        private final BlockSource source;
        private StoredBucket block;
        private int row;

        Cursor(final BlockSource source) {
            this.source = source;
        }

        boolean advanceBlock() throws IOException {
            do {
                block = source.next();
            } while (block != null && block.count() == 0);
            row = 0;
            return block != null;
        }
    }

    /** Collects where each output row comes from and gathers a block when {@code rowsPerBlock} are collected. */
    private static final class Output {
        private final List<Column> layout;
        private final BlockSink sink;
        private final int[] from;
        private final int[] rows;
        private final List<StoredBucket> held = new ArrayList<>();
        private final Map<StoredBucket, Integer> heldIndex = new IdentityHashMap<>();
        private int n;

        Output(final List<Column> layout, final int rowsPerBlock, final BlockSink sink) {
            this.layout = layout;
            this.sink = sink;
            this.from = new int[rowsPerBlock];
            this.rows = new int[rowsPerBlock];
        }

        void add(final StoredBucket block, final int row) throws IOException {
            Integer index = heldIndex.get(block);
            if (index == null) {
                index = held.size();
                held.add(block);
                heldIndex.put(block, index);
            }
            from[n] = index;
            rows[n++] = row;
            if (n == from.length) {
                finish();
            }
        }

        void finish() throws IOException {
            if (n > 0) {
                sink.accept(StoredBucket.gather(layout, held, from, rows, n, true));
            }
            n = 0;
            held.clear();
            heldIndex.clear();
        }
    }
}
