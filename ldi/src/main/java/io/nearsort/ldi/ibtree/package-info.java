/**
 * Internal: the interval B-tree over bucket key ranges (LDI §4.1), in memory for the buckets written in the
 * current session and on disk in {@code k·4 KiB} checksummed nodes. Its types are public only so that the
 * column store in {@code io.nearsort.ldi.projection} can use them; they are not part of nearsort's API and may
 * change in any release. Use {@link io.nearsort.ldi.projection.ColumnStore}.
 */
package io.nearsort.ldi.ibtree;
