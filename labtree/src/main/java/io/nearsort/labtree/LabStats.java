package io.nearsort.labtree;

/**
 * Counters of a {@link LabArray} (LAB-tree §4.3 and §5.3 report leaves and I/Os).
 *
 * @param size            non-default elements stored
 * @param height          levels of the tree (1: the root is a leaf)
 * @param leafCount       leaves
 * @param denseLeafCount  leaves in the dense format
 * @param splits          leaf splits
 * @param logicalAccesses page accesses through the buffer pool
 * @param pageReads       pages read from the file
 * @param pageWrites      pages written to the file
 * @param filePages       data pages in the file (including freed ones awaiting reuse and the meta page)
 * @param bufferedRequests write requests waiting in the update buffer (not yet in {@code size})
 * @param flushes         times the update buffer flushed (the policy picked pages, or everything was applied)
 * @param pagesFlushed    leaves the flushes wrote to (the cost model of §5.1: one unit per page flushed)
 * @param requestsFlushed requests applied by flushes
 * @param partialLookups  internal-level lookups made to identify pages (§5.2)
 */
public record LabStats(long size, int height, long leafCount, long denseLeafCount, long splits,
                       long logicalAccesses, long pageReads, long pageWrites, long filePages, long bufferedRequests,
                       long flushes, long pagesFlushed, long requestsFlushed, long partialLookups) {
}
