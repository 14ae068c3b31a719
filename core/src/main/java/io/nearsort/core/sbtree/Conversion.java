package io.nearsort.core.sbtree;

import io.nearsort.core.memory.PageArena;

import java.util.function.Consumer;

/**
 * Converts a full segmented block into data blocks (SB-Tree §IV-B, Figure 5), on the thread that found it full,
 * as the paper does ("a single thread being responsible for converting a segmented block", §V-F).
 *
 * <ol>
 *   <li><b>Seal.</b> Close the slots no thread has installed a block in yet, then seal every per-thread
 *   block's reservation word ({@link ThreadContext}) and wait until the block's published count reaches the
 *   word's count: from here on the segmented block's content is final, and a thread that tries to insert into
 *   it learns it is sealed ("the segmented block notifies that the per-thread data blocks ... are being
 *   converted", §IV-A).</li>
 *   <li><b>Install the next segmented block first.</b> "To maintain continuous insertion during the conversion,
 *   a new segmented block is created and pointed to by the shortcut prior to the conversion": it takes the keys
 *   above the sealed block's largest key, and is linked behind it.</li>
 *   <li><b>Wait for the previous conversion</b>: conversions append to the data layer in the order of their
 *   segmented blocks.</li>
 *   <li><b>Merge and sort</b> the per-thread blocks ({@link SegmentedBlockMerge}: each nearly sorted block sorted
 *   by the adaptive sort, then merged, the newest write of each key kept), and <b>append</b> the result to the
 *   data layer ({@link DataLayer#appendConverted}): the sealed block leaves the list, the new data blocks go to
 *   the search-layer thread.</li>
 *   <li><b>Retire</b> the segmented block and its per-thread blocks (freed once no reader holds them).</li>
 * </ol>
 * Delayed inserts of keys in the sealed block's range wait for step 4; readers read the sealed block meanwhile.
 */
final class Conversion {
    private final PerThreadBlockDescriptor ptb;
    private final PageArena arena;
    private final ContextRegistry registry;
    private final EpochReclamation reclamation;
    private final DataLayer dataLayer;
    private final Consumer<Shortcut> installShortcut;
    private final Runnable retiredWork;
    /** Scratch of the merge; used by one conversion at a time (they run in sequence order). */
    private final SegmentedBlockMerge merge;
    /** Sequence of the last segmented block converted. */
    private volatile long convertedUpTo = -1;
    private volatile Throwable failure;

    Conversion(final PerThreadBlockDescriptor ptb, final PageArena arena, final ContextRegistry registry,
               final EpochReclamation reclamation, final DataLayer dataLayer,
               final Consumer<Shortcut> installShortcut, final Runnable retiredWork) {
        this.ptb = ptb;
        this.arena = arena;
        this.registry = registry;
        this.reclamation = reclamation;
        this.dataLayer = dataLayer;
        this.installShortcut = installShortcut;
        this.retiredWork = retiredWork;
        this.merge = new SegmentedBlockMerge(ptb);
    }

    /** Converts the segmented block of {@code shortcut}, which the calling thread found full. */
    void convert(final ThreadContext context, final Shortcut shortcut) {
        final long segmented = shortcut.block;
        final int maxSlots = SegmentedBlock.maxSlots(segmented);
        // 1. Seal.
        SegmentedBlock.closeEmptySlots(segmented);
        final long[] blocks = new long[maxSlots];
        final int[] counts = new int[maxSlots];
        int n = 0;
        boolean any = false;
        long maxKey = Long.MIN_VALUE;
        for (int slot = 0; slot < maxSlots; slot++) {
            final long block = SegmentedBlock.perThreadBlock(segmented, slot);
            if (block == 0) {
                continue;
            }
            final int count = seal(block);
            blocks[n] = block;
            counts[n++] = count;
            if (count > 0) {
                any = true;
                maxKey = Math.max(maxKey, PerThreadBlock.maxKey(block));
            }
        }
        // 2. The next segmented block, behind the shortcut, before the conversion proper.
        final long fence;
        final boolean beyondMax;
        if (!any) {
            fence = shortcut.fence;
            beyondMax = shortcut.beyondMax;
        } else if (maxKey == Long.MAX_VALUE) {
            fence = Long.MAX_VALUE;
            beyondMax = true;
        } else {
            fence = maxKey + 1;
            beyondMax = false;
        }
        try {
            // Inside the try: if the next block cannot be allocated (the arena is out of memory), the sealed block
            // gets no successor, so the failure must reach the writers waiting for one (SBTree.ensureUsable).
            final long next = arena.allocate();
            SegmentedBlock.format(next, fence, beyondMax, shortcut.sequence + 1, maxSlots);
            final long version = VersionLock.lock(segmented);
            BlockHeader.link(segmented, next);
            VersionLock.unlock(segmented, version);
            installShortcut.accept(new Shortcut(next, fence, beyondMax, shortcut.sequence + 1));
            // 3. In order.
            for (int spins = 0; convertedUpTo != shortcut.sequence - 1; spins++) {
                final Throwable failed = failure;
                if (failed != null) {
                    throw new IllegalStateException("an earlier conversion failed; the SBTree is unusable", failed);
                }
                context.conversionWaits++;
                VersionLock.backOff(spins);
            }
            // 4. Merge, sort, append.
            final int entries = merge.mergeSealed(blocks, counts, n);
            final int created = dataLayer.appendConverted(context, segmented, merge.keys(), merge.values(), entries);
            // 5. Retire.
            final long[] retired = new long[n + 2];
            retired[1] = segmented;
            System.arraycopy(blocks, 0, retired, 2, n);
            reclamation.retire(retired);
            retiredWork.run();
            context.conversions++;
            context.convertedEntries += entries;
            context.blocksCreated += created;
        } catch (RuntimeException | Error e) {
            if (failure == null) {
                failure = e;
            }
            throw e;
        }
        convertedUpTo = shortcut.sequence;
    }

    /**
     * Seals per-thread block {@code block} and returns its final entry count, once every entry reserved in it is
     * published.
     */
    private int seal(final long block) {
        final ThreadContext owner = registry.byId(PerThreadBlock.owner(block));
        final int reserved = owner == null ? -1 : owner.seal(PerThreadBlock.generation(block), ThreadContext.SEALED);
        // No owner context (its thread ended) or the owner moved on to a later block: this one is complete.
        final int count = reserved < 0 ? PerThreadBlock.published(ptb, block) : reserved;
        for (int spins = 0; PerThreadBlock.published(ptb, block) < count; spins++) {
            VersionLock.backOff(spins); // the owner is between its reservation and its publication
        }
        return count;
    }

    /** Why a conversion failed, or null. */
    Throwable failure() {
        return failure;
    }

    long convertedUpTo() {
        return convertedUpTo;
    }
}
