package io.nearsort.ldi.io;

/**
 * Counters of an {@link IoHandler}.
 *
 * @param bucketRequests   buckets asked for by queries
 * @param deduplicated     requests served by a read another query already had in flight
 * @param singleReads      buckets read with a request of their own
 * @param extentReads      extents read, each covering several co-located buckets
 * @param bucketsInExtents buckets served from those extents
 * @param bytesRead        bytes read from files, extraneous bytes of extents included
 * @param writePhases      exclusive write phases (bucket writes of a flush)
 */
public record IoStats(long bucketRequests, long deduplicated, long singleReads, long extentReads,
                      long bucketsInExtents, long bytesRead, long writePhases) {
}
