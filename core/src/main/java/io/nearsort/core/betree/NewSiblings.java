package io.nearsort.core.betree;

import java.util.Arrays;

/**
 * What a flush did to the node it reached: the nodes it split off to the right, each with the separator its
 * parent needs, or that the node's subtree is left empty (the parent may then drop it). One per level, owned by
 * the tree's writer.
 */
final class NewSiblings {
    long[] separators = new long[4];
    long[] pages = new long[4];
    int count;
    boolean empty;

    void clear() {
        count = 0;
        empty = false;
    }

    void add(final long separator, final long page) {
        if (count == separators.length) {
            separators = Arrays.copyOf(separators, count * 2);
            pages = Arrays.copyOf(pages, count * 2);
        }
        separators[count] = separator;
        pages[count] = page;
        count++;
    }
}
