package io.nearsort.labtree;

/** How LAB-tree leaves store their elements (LAB-tree §4.2). */
public enum LeafFormat {
    /** Every leaf stores key-value pairs, at most κs of them: the plain B-tree leaf. */
    SPARSE_ONLY,
    /**
     * A leaf switches between sparse (key-value pairs, at most κs) and dense (a start key and up to κd values of
     * a contiguous key subrange) when it is written: an overflowing sparse leaf whose keys span at most κd becomes
     * dense without splitting, and a dense leaf whose keys come to span more than κd becomes sparse if it holds at
     * most κs of them.
     */
    DYNAMIC
}
