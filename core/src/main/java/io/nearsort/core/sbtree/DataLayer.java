package io.nearsort.core.sbtree;

import io.nearsort.core.LongLongConsumer;
import io.nearsort.core.memory.PageArena;

/**
 * The data layer (SB-Tree §III-A): data blocks in a linked list in key order, the segmented blocks last. This
 * class walks it ({@code FindBlock} then {@code Covers}, Algorithms 1–3), reads and scans it, inserts delayed
 * data and splits full blocks (§IV-D), deletes, appends a conversion's blocks (§IV-B), and unlinks emptied
 * blocks on the search-layer thread's behalf.
 *
 * <h2>Concurrency</h2>
 * A data block is changed only under its {@link VersionLock}; readers are optimistic and validate. A walk reads
 * a block's next pointer and its successor's fence under the block's version, so it follows only links that
 * existed. Every operation runs inside an epoch ({@link EpochReclamation}), so no block it reaches is freed
 * under it. Locks are taken one at a time, or left to right (a block, then its successor), so they cannot
 * deadlock; nobody waits for anything while holding one.
 */
final class DataLayer implements SearchLayerThread.DataLayerMaintenance {
    private final DataBlockDescriptor d;
    private final PerThreadBlockDescriptor ptb;
    private final PageArena arena;
    private final SearchLayer searchLayer;
    private final EpochReclamation reclamation;
    private final int fillTarget;
    /** Whether a split may allocate a block ({@code SBTreeBuilder.maxBytes}). */
    private final java.util.function.BooleanSupplier mayAllocate;
    private SearchLayerThread searchLayerThread;
    /** The first data block (fence {@code Long.MIN_VALUE}); never unlinked. */
    final long head;
    /**
     * The last data block, whose successor is the oldest segmented block not yet converted: conversions append
     * to it (§IV-B). Changed under its lock, by a split of it or a conversion.
     */
    private volatile long tail;
    /** Odd while a conversion moves entries from a segmented block to data blocks (read by {@code size()}). */
    private volatile long conversionSequence;

    DataLayer(final DataBlockDescriptor d, final PerThreadBlockDescriptor ptb, final PageArena arena,
              final SearchLayer searchLayer, final EpochReclamation reclamation, final int fillTarget,
              final long head, final java.util.function.BooleanSupplier mayAllocate) {
        this.d = d;
        this.ptb = ptb;
        this.arena = arena;
        this.searchLayer = searchLayer;
        this.reclamation = reclamation;
        this.fillTarget = fillTarget;
        this.head = head;
        this.tail = head;
        this.mayAllocate = mayAllocate;
    }

    void attach(final SearchLayerThread thread) {
        this.searchLayerThread = thread;
    }

    long tail() {
        return tail;
    }

    long conversionSequence() {
        return conversionSequence;
    }

    // ------------------------------------------------------------------ walking

    /**
     * The block whose range holds {@code key}: {@code FindBlock(SearchLayer, key)}, then
     * {@code while Covers(block.nextBlock, key) do block <- block.nextBlock} (Algorithm 2). The block may be a data
     * block or a segmented block; its stable version is left in {@code context.locatedVersion}.
     */
    long locate(final ThreadContext context, final long key) {
        long block = searchLayer.find(key);
        while (true) {
            final long version = VersionLock.awaitStable(block);
            if (VersionLock.isObsolete(version)) {
                // Unlinked after the search layer (or a walk) led here: its range belongs to its predecessor now.
                context.searchLayerRestarts++;
                block = searchLayer.find(key);
                continue;
            }
            if (BlockHeader.beyond(block, key)) {
                final long next = BlockHeader.next(block);
                if (VersionLock.validate(block, version)) {
                    block = next;
                    context.walkSteps++;
                }
                continue;
            }
            context.locatedVersion = version;
            return block;
        }
    }

    /**
     * Waits until the segmented block {@code block}, sealed and being converted, has left the data layer: its
     * keys are then in data blocks (§IV-B).
     */
    private static void awaitConversion(final ThreadContext context, final long block) {
        context.conversionWaits++;
        for (int spins = 0; !VersionLock.isObsolete(VersionLock.awaitStable(block)); spins++) {
            VersionLock.backOff(spins);
        }
    }

    // ------------------------------------------------------------------ point reads

    /**
     * The value of {@code key} in the data layer ({@code SearchInBlock} of Algorithm 2), through the N-ary search
     * table of its data block, or of the segmented block being converted that holds it.
     *
     * @return {@link SegmentedBlock#FOUND} with the value in {@code context.valueOut[0]}, or another code
     */
    int lookup(final ThreadContext context, final long key) {
        while (true) {
            final long block = locate(context, key);
            if (BlockHeader.isSegmented(block)) {
                return SegmentedBlock.lookup(ptb, block, key, context.valueOut);
            }
            final long version = context.locatedVersion;
            final int count = DataBlock.count(d, block);
            final int pos = DataBlock.find(d, block, count, key);
            final long value = pos >= 0 ? DataBlock.value(d, block, pos) : 0L;
            if (VersionLock.validate(block, version)) {
                if (pos < 0) {
                    return SegmentedBlock.ABSENT;
                }
                context.valueOut[0] = value;
                return SegmentedBlock.FOUND;
            }
        }
    }

    // ------------------------------------------------------------------ delayed data (§IV-D)

    /**
     * Inserts or overwrites {@code key} in its data block under the block's version lock, splitting a full block
     * as a B+-tree leaf splits.
     *
     * @throws IllegalStateException when a split is needed and the memory bound refuses a new block (nothing
     *                               changed then)
     */
    void put(final ThreadContext context, final long key, final long value) {
        final long block = lockBlockOf(context, key);
        final long version = context.locatedVersion;
        final int count = DataBlock.count(d, block);
        final int pos = DataBlock.find(d, block, count, key);
        if (pos >= 0) {
            DataBlock.setValue(d, block, pos, value);
            VersionLock.unlock(block, version);
            context.delayedUpdates++;
            return;
        }
        final int insertAt = -pos - 1;
        if (count < d.capacity) {
            DataBlock.insertAt(d, block, insertAt, count, key, value);
            VersionLock.unlock(block, version);
            context.lastInsertBlock = block;
            context.lastInsertAt = insertAt;
        } else {
            if (!mayAllocate.getAsBoolean()) {
                VersionLock.unlockUnchanged(block, version);
                throw new IllegalStateException("SBTree memory limit reached (SBTreeBuilder.maxBytes): inserting "
                        + key + " needs a new data block; remove entries or raise the limit");
            }
            split(context, block, version, insertAt, count, key, value);
        }
        context.addDataEntries(1);
        context.delayedInserts++;
    }

    /**
     * Splits the full, locked {@code block} around the new entry and unlocks it: 50:50 as a B+-tree leaf splits,
     * or, when this thread's last delayed insert went to the position just before in the same block (an ascending
     * stretch of delayed keys, as after a key from the future moved the shortcut's fence ahead of the stream),
     * where the entry lands (at most the conversion's fill target, {@code SBTreeBuilder.fillFactor}, stays): the
     * entries below it stay and the new right block takes the entry and the rest of the stretch. 50:50 splits of
     * such a stretch would leave every block half full.
     */
    private void split(final ThreadContext context, final long block, final long version, final int insertAt,
                       final int count, final long key, final long value) {
        final long right = arena.allocate();
        final boolean ascending = context.lastInsertBlock == block && insertAt == context.lastInsertAt + 1;
        final int keep = Math.min(count, fillTarget);
        final int leftCount = !ascending ? (count + 1) / 2 : insertAt < keep ? insertAt + 1 : keep;
        DataBlock.format(right, 0L, BlockHeader.next(block));
        if (insertAt < leftCount) {
            DataBlock.moveTail(d, block, leftCount - 1, count, right);
            DataBlock.insertAt(d, block, insertAt, leftCount - 1, key, value);
        } else {
            DataBlock.moveTail(d, block, leftCount, count, right);
            DataBlock.insertAt(d, right, insertAt - leftCount, count - leftCount, key, value);
        }
        final long fence = DataBlock.key(d, right, 0);
        context.lastInsertBlock = insertAt < leftCount ? block : right;
        context.lastInsertAt = insertAt < leftCount ? insertAt : insertAt - leftCount;
        BlockHeader.setLowFence(right, fence);
        BlockHeader.link(block, right);
        if (tail == block) {
            tail = right;
        }
        // Requested before the unlock: nobody can reach (and empty) the new block before its index request.
        searchLayerThread.index(new long[] {fence, right}, 1);
        VersionLock.unlock(block, version);
        context.blockSplits++;
        if (ascending) {
            context.ascendingSplits++;
        }
        context.blocksCreated++;
    }

    /**
     * Removes {@code key} from its data block; asks the search-layer thread to unlink the block when it emptied.
     */
    void remove(final ThreadContext context, final long key) {
        final long block = lockBlockOf(context, key);
        final long version = context.locatedVersion;
        final int count = DataBlock.count(d, block);
        final int pos = DataBlock.find(d, block, count, key);
        if (pos < 0) {
            VersionLock.unlockUnchanged(block, version);
            return;
        }
        DataBlock.removeAt(d, block, pos, count);
        if (count == 1 && block != head) {
            searchLayerThread.unlink(block);
        }
        VersionLock.unlock(block, version);
        context.addDataEntries(-1);
        context.removes++;
    }

    /**
     * The data block whose range holds {@code key}, locked (its pre-lock version in
     * {@code context.locatedVersion}): a segmented block is waited out until converted, a lock lost to another
     * writer is retried from the search.
     */
    private long lockBlockOf(final ThreadContext context, final long key) {
        while (true) {
            final long block = locate(context, key);
            if (BlockHeader.isSegmented(block)) {
                awaitConversion(context, block);
                continue;
            }
            if (VersionLock.tryLock(block, context.locatedVersion)) {
                return block;
            }
        }
    }

    // ------------------------------------------------------------------ unlinking emptied blocks

    /**
     * Unlinks {@code block} if it is still an empty data block other than the first and the last: its entry
     * leaves the search layer, its predecessor's range extends over it, and it is retired. Search-layer thread
     * only (it is the only one to unlink and to free, so it needs no epoch).
     */
    @Override
    public void unlinkIfEmpty(final long block) {
        if (block == head || block == tail) {
            return;
        }
        final long stable = VersionLock.awaitStable(block);
        if (VersionLock.isObsolete(stable) || DataBlock.count(d, block) != 0) {
            return;
        }
        final long fence = BlockHeader.lowFence(block);
        // Out of the search layer first: readers then reach the block by walking, until it leaves the list.
        final boolean wasIndexed = searchLayer.remove(fence, block);
        while (true) {
            if (VersionLock.isObsolete(VersionLock.awaitStable(block))) {
                return;
            }
            long predecessor = searchLayer.find(fence - 1);
            long next;
            while ((next = BlockHeader.next(predecessor)) != block) {
                if (next == 0 || BlockHeader.isSegmented(next) || BlockHeader.lowFence(next) > fence) {
                    break;
                }
                predecessor = next;
            }
            if (next != block) {
                continue; // a split or unlink moved the link meanwhile: look again
            }
            final long predecessorVersion = VersionLock.lock(predecessor);
            if (predecessorVersion < 0) {
                continue;
            }
            if (BlockHeader.next(predecessor) != block) {
                VersionLock.unlockUnchanged(predecessor, predecessorVersion);
                continue;
            }
            final long version = VersionLock.lock(block);
            if (DataBlock.count(d, block) != 0 || block == tail) {
                VersionLock.unlockUnchanged(block, version);
                VersionLock.unlockUnchanged(predecessor, predecessorVersion);
                if (wasIndexed) {
                    searchLayer.insert(fence, block);
                }
                return;
            }
            BlockHeader.link(predecessor, BlockHeader.next(block));
            VersionLock.unlockObsolete(block, version);
            VersionLock.unlock(predecessor, predecessorVersion);
            reclamation.retire(block);
            searchLayerThread.countUnlinked();
            return;
        }
    }

    // ------------------------------------------------------------------ conversion (§IV-B)

    /**
     * Appends the converted, ascending entries of the sealed segmented block {@code segmented} to the data
     * layer: the last data block is topped up to the fill target, the rest cut into new data blocks; then the
     * segmented block leaves the list (it becomes obsolete) and the new blocks are handed to the search layer.
     *
     * @return the number of data blocks created
     */
    int appendConverted(final ThreadContext context, final long segmented, final long[] keys, final long[] values,
                        final int n) {
        long last;
        long lastVersion;
        for (int spins = 0; ; spins++) {
            last = tail;
            lastVersion = VersionLock.lock(last);
            if (lastVersion >= 0 && tail == last && BlockHeader.next(last) == segmented) {
                break;
            }
            if (lastVersion >= 0) {
                VersionLock.unlockUnchanged(last, lastVersion);
            }
            VersionLock.backOff(spins); // a split of the last block moves the tail: its thread needs the core
        }
        final int lastCount = DataBlock.count(d, last);
        final int topUp = Math.min(n, Math.max(0, fillTarget - lastCount));
        final long successor = BlockHeader.next(segmented); // the segmented block installed ahead of us
        final int blocks = (n - topUp + fillTarget - 1) / fillTarget;
        final long[] fencesAndBlocks = new long[2 * blocks];
        long first = 0;
        long previous = 0;
        for (int b = 0, at = topUp; b < blocks; b++, at += fillTarget) {
            final int size = Math.min(fillTarget, n - at);
            final long block = arena.allocate();
            DataBlock.format(block, keys[at], successor);
            DataBlock.append(d, block, 0, keys, values, at, size);
            if (previous == 0) {
                first = block;
            } else {
                BlockHeader.link(previous, block);
            }
            previous = block;
            fencesAndBlocks[2 * b] = keys[at];
            fencesAndBlocks[2 * b + 1] = block;
        }
        conversionSequence++;
        DataBlock.append(d, last, lastCount, keys, values, 0, topUp);
        BlockHeader.link(last, blocks > 0 ? first : successor);
        final long segmentedVersion = VersionLock.lock(segmented);
        VersionLock.unlockObsolete(segmented, segmentedVersion);
        if (blocks > 0) {
            tail = previous;
        }
        context.addDataEntries(n);
        conversionSequence++;
        if (blocks > 0) {
            searchLayerThread.index(fencesAndBlocks, blocks);
        }
        VersionLock.unlock(last, lastVersion);
        return blocks;
    }

    // ------------------------------------------------------------------ scans (Algorithm 3)

    /**
     * Visits the entries with {@code lo <= key <= hi} in ascending order, at most {@code limit} of them:
     * {@code FindBlock}, then {@code ScanInBlock} block after block along the data layer (Algorithm 3). Each data
     * block is copied under its version and emitted from the copy, so the consumer never sees a block being
     * changed and may itself read the index; a segmented block is emitted merged ({@link SegmentedBlockMerge}).
     *
     * @return the number of entries visited
     */
    long scan(final ThreadContext context, final long lo, final long hi, final long limit,
              final LongLongConsumer consumer, final boolean nested) {
        return scan(context, lo, hi, limit, consumer, nested, null);
    }

    /**
     * {@link #scan}, keeping the merge of the first segmented block it reads in {@code snapshot} (a cursor's,
     * {@link CursorSnapshot}) when that block gives the first entry visited.
     */
    long scan(final ThreadContext context, final long lo, final long hi, final long limit,
              final LongLongConsumer consumer, final boolean nested, final CursorSnapshot snapshot) {
        final long[] keys = nested ? new long[d.capacity] : blockKeys(context);
        final long[] values = nested ? new long[d.capacity] : context.blockValues;
        final SegmentedBlockMerge merge = snapshot != null ? null
                : nested ? new SegmentedBlockMerge(ptb) : merge(context);
        final long sequence = conversionSequence;
        if (snapshot != null) {
            snapshot.invalidate();
        }
        long from = lo;
        long visited = 0;
        long block = locate(context, lo);
        while (true) {
            final long next;
            if (BlockHeader.isSegmented(block)) {
                final SegmentedBlockMerge m = snapshot != null ? snapshot.merge() : merge;
                final int n = m.mergeSegmentedBlock(block, from, hi);
                if (snapshot != null && visited == 0 && n > 0) {
                    snapshot.record(block, sequence, n, 0);
                }
                next = BlockHeader.next(block);
                final long[] mk = m.keys();
                final long[] mv = m.values();
                for (int i = 0; i < n; i++) {
                    consumer.accept(mk[i], mv[i]);
                    if (++visited == limit) {
                        return visited;
                    }
                }
                if (n > 0) {
                    if (mk[n - 1] == Long.MAX_VALUE) {
                        return visited;
                    }
                    from = mk[n - 1] + 1;
                }
            } else {
                int n;
                long successor;
                while (true) {
                    final long version = VersionLock.awaitStable(block);
                    final int count = DataBlock.count(d, block);
                    final int start = NarySearchTable.lowerBound(d, block, count, from);
                    n = count - start;
                    DataBlock.copyOut(d, block, start, n, keys, values, 0);
                    successor = BlockHeader.next(block);
                    if (VersionLock.validate(block, version)) {
                        break;
                    }
                }
                next = successor;
                for (int i = 0; i < n; i++) {
                    if (keys[i] > hi) {
                        return visited;
                    }
                    consumer.accept(keys[i], values[i]);
                    if (++visited == limit) {
                        return visited;
                    }
                }
                if (n > 0) {
                    if (keys[n - 1] == Long.MAX_VALUE) {
                        return visited;
                    }
                    from = keys[n - 1] + 1;
                }
            }
            if (next == 0 || from > hi) {
                return visited;
            }
            block = next;
        }
    }

    /**
     * The largest entry with a key {@code <= key}, into {@code out} ({key, value}); false when there is none.
     * Walks back one block range at a time (the list is singly linked): from a block with nothing at or below
     * the key, it looks again below the block's fence. A segmented block's merge is kept in {@code snapshot}
     * when one is given (a cursor's, {@link CursorSnapshot}).
     */
    boolean floor(final ThreadContext context, final long key, final long[] out, final boolean nested,
                  final CursorSnapshot snapshot) {
        final SegmentedBlockMerge merge = snapshot != null ? null
                : nested ? new SegmentedBlockMerge(ptb) : merge(context);
        final long sequence = conversionSequence;
        if (snapshot != null) {
            snapshot.invalidate();
        }
        long target = key;
        while (true) {
            final long block = locate(context, target);
            final long fence = BlockHeader.lowFence(block);
            if (BlockHeader.isSegmented(block)) {
                final SegmentedBlockMerge m = snapshot != null ? snapshot.merge() : merge;
                final int n = m.mergeSegmentedBlock(block, fence, target);
                if (n > 0) {
                    if (snapshot != null) {
                        snapshot.record(block, sequence, n, n - 1);
                    }
                    out[0] = m.keys()[n - 1];
                    out[1] = m.values()[n - 1];
                    return true;
                }
            } else {
                final long version = context.locatedVersion;
                final int count = DataBlock.count(d, block);
                final int pos = NarySearchTable.lowerBound(d, block, count, target);
                final int at = pos < count && DataBlock.key(d, block, pos) == target ? pos : pos - 1;
                final long k = at >= 0 ? DataBlock.key(d, block, at) : 0L;
                final long v = at >= 0 ? DataBlock.value(d, block, at) : 0L;
                if (!VersionLock.validate(block, version)) {
                    continue;
                }
                if (at >= 0) {
                    out[0] = k;
                    out[1] = v;
                    return true;
                }
            }
            if (fence == Long.MIN_VALUE) {
                return false;
            }
            target = fence - 1;
        }
    }

    private long[] blockKeys(final ThreadContext context) {
        if (context.blockKeys == null) {
            context.blockKeys = new long[d.capacity];
            context.blockValues = new long[d.capacity];
        }
        return context.blockKeys;
    }

    SegmentedBlockMerge merge(final ThreadContext context) {
        if (context.merge == null) {
            context.merge = new SegmentedBlockMerge(ptb);
        }
        return context.merge;
    }
}
