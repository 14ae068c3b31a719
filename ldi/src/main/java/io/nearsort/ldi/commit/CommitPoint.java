package io.nearsort.ldi.commit;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A durable state of a column store, made by {@code ColumnStore.flush(metadata)}: every row appended before it, and
 * the caller's metadata recorded atomically with them.
 *
 * <p>Written for stream sinks (Kafka Connect's {@code preCommit}, Flink's checkpoints): the metadata holds what the
 * sink needs to resume exactly where the durable state ends, e.g. {@code "orders-3" -> "1045"} (the next offset of a
 * topic partition) or {@code "checkpointId" -> "17"}. After a restart the sink reads {@code lastCommit()} and resumes
 * from its metadata; after a failed checkpoint it reopens the store at an earlier retained commit point, discarding
 * what came after.
 *
 * @param id         the commit's number: increasing, never reused by the store (not even after a roll-back)
 * @param timeMillis when it was made (wall clock, milliseconds since the epoch)
 * @param rows       rows in the store at this commit: row ids {@code 0 .. rows - 1}
 * @param metadata   the caller's map, sorted by key, unmodifiable
 */
public record CommitPoint(long id, long timeMillis, long rows, Map<String, String> metadata) {
    /** Bytes the encoded metadata of one commit may take (keys and values in UTF-8, 8 bytes per entry). */
    public static final int MAX_METADATA_BYTES = 64 * 1024;

    /**
     * Copies {@code metadata} into an unmodifiable map sorted by key.
     *
     * @param id         the commit's number: increasing, never reused by the store (not even after a roll-back)
     * @param timeMillis when it was made (wall clock, milliseconds since the epoch)
     * @param rows       rows in the store at this commit: row ids {@code 0 .. rows - 1}
     * @param metadata   the caller's map; no null key or value
     */
    public CommitPoint {
        metadata = Collections.unmodifiableMap(new TreeMap<>(metadata));
    }

    /**
     * Checks a caller's metadata map: no null key or value, at most {@link #MAX_METADATA_BYTES} encoded.
     *
     * @param metadata the map a caller wants recorded with a commit
     * @throws IllegalArgumentException when the map is null, holds a null key or value, or encodes to more than
     *         {@link #MAX_METADATA_BYTES}
     */
    public static void check(final Map<String, String> metadata) {
        if (metadata == null) {
            throw new IllegalArgumentException("commit metadata must not be null (use Map.of() for none)");
        }
        long bytes = 0;
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new IllegalArgumentException("commit metadata takes no null key or value (got: " + e.getKey()
                        + " -> " + e.getValue() + ")");
            }
            bytes += 8 + ManifestDescriptor.utf8(e.getKey()).length + ManifestDescriptor.utf8(e.getValue()).length;
        }
        if (bytes > MAX_METADATA_BYTES) {
            throw new IllegalArgumentException("commit metadata must encode to at most " + MAX_METADATA_BYTES
                    + " bytes (got: " + bytes + " bytes in " + metadata.size() + " entries)");
        }
    }
}
