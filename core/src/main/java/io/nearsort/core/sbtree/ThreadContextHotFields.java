package io.nearsort.core.sbtree;

/** The fields the owner writes on every call, kept off other threads' contexts' cache lines. */
abstract class ThreadContextHotFields extends ThreadContextPadding {
    /** The reservation word; see {@link ThreadContext}. */
    volatile long word;
    /** The epoch announced while inside an operation, 0 outside ({@link EpochReclamation}). */
    volatile long epoch;
    /** Nesting depth of operations (a scan's consumer may read the index). */
    int epochDepth;
    /** Net entries this thread added to data blocks (written with release stores). */
    long dataEntries;

    /** The shortcut whose segmented block holds this thread's current per-thread block, or null. */
    Shortcut shortcut;
    /** The current per-thread block (valid while {@link #shortcut} is set). */
    long perThreadBlock;
    int generation;
    long blockMin;
    long blockMax;
    boolean blockAscending;
    /** Scans of this thread in progress: their consumers must not write. */
    int scanDepth;
    /** The stable version {@code DataLayer.locate} read of the block it returned. */
    long locatedVersion;
    /**
     * The data block and position of this thread's last delayed insert: an insert into a full block right after
     * it is part of an ascending stretch, and the block splits where it lands ({@code DataLayer.split}).
     */
    long lastInsertBlock;
    int lastInsertAt;

    // Statistics, written by the owner only (plain stores), summed by stats().
    long shortcutInserts;
    long shortcutRemoves;
    long delayedInserts;
    long delayedUpdates;
    long removes;
    long walkSteps;
    long searchLayerRestarts;
    long blockSplits;
    long ascendingSplits;
    long conversions;
    long convertedEntries;
    long blocksCreated;
    long conversionWaits;

    /** Scratch of this thread's reads. */
    SegmentedBlockMerge merge;
    long[] blockKeys;
    long[] blockValues;
    final long[] valueOut = new long[1];
}
