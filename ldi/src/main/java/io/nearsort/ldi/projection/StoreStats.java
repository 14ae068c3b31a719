package io.nearsort.ldi.projection;

import java.util.Map;

/**
 * The storage state of a whole {@link ColumnStore}.
 *
 * @param rows           rows appended (committed or not)
 * @param committedRows  rows of the last commit
 * @param liveBytes      bytes of live bucket records, all projections
 * @param deadBytes      bytes of segment files no live bucket uses, all projections
 * @param fileBytes      bytes of every file of the store (segments, manifest, IB-trees)
 * @param manifestBytes  bytes of the manifest
 * @param manifestRewrites times the manifest was rewritten since open
 * @param commits        commit points retained
 * @param memoryBytes    heap bytes held for rows not yet written and open cursors (estimate)
 * @param memoryBudget   the budget they must stay within
 * @param projections    per projection, in layout order
 */
public record StoreStats(long rows, long committedRows, long liveBytes, long deadBytes, long fileBytes,
                         long manifestBytes, long manifestRewrites, int commits, long memoryBytes, long memoryBudget,
                         Map<String, ProjectionStats> projections) {
    /**
     * Keeps an unmodifiable copy of {@code projections}, in their iteration order.
     *
     * @param rows             rows appended (committed or not)
     * @param committedRows    rows of the last commit
     * @param liveBytes        bytes of live bucket records, all projections
     * @param deadBytes        bytes of segment files no live bucket uses, all projections
     * @param fileBytes        bytes of every file of the store (segments, manifest, IB-trees)
     * @param manifestBytes    bytes of the manifest
     * @param manifestRewrites times the manifest was rewritten since open
     * @param commits          commit points retained
     * @param memoryBytes      heap bytes held for rows not yet written and open cursors (estimate)
     * @param memoryBudget     the budget they must stay within
     * @param projections      per projection, in layout order
     */
    public StoreStats {
        projections = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(projections));
    }
}
