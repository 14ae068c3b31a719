/**
 * Opportunistic bulk loading without a buffer (SWARE §III, Fig. 3b): {@link io.nearsort.core.ingest.RunAppender}
 * bulk-appends the sorted stretches of an input past an index's largest key and puts the rest one by one, the
 * baseline the SWARE buffer improves on for near-sorted (rather than sorted) stretches.
 *
 * <p>API: {@link io.nearsort.core.ingest.RunAppender}.
 */
package io.nearsort.core.ingest;
