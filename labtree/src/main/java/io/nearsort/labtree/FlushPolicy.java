package io.nearsort.labtree;

/**
 * Which buffered requests an update buffer writes to the LAB-tree when it is full (LAB-tree §5.1). A "page" is a
 * leaf: flushing a page applies every buffered request in its key range with one leaf access.
 */
public enum FlushPolicy {
    /** Flush-all: apply the whole buffer in key order; Ω(√K)- and O(√K log K)-competitive. */
    ALL,
    /** Least-recently-used: flush the page whose latest request is oldest; Ω(√K)-competitive. */
    LRU,
    /** Smallest-page: flush the page with the fewest buffered requests; Θ(K)-competitive. */
    SP,
    /** Largest-page: flush the page with the most buffered requests; Θ(K)-competitive. */
    LP,
    /**
     * Largest-page-probabilistically: flush the page of a request picked uniformly at random, i.e. a page with
     * probability proportional to its buffered requests (§5.2, Remark B.8); no pass over the buffer.
     */
    LPP,
    /**
     * Largest-group: pages with [2^i, 2^(i+1)) buffered requests form group i; flush the group holding the most
     * requests; O(log² K)-competitive.
     */
    LG
}
