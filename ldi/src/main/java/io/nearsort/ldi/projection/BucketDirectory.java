package io.nearsort.ldi.projection;

import io.nearsort.ldi.ibtree.DiskIntervalBTree;
import io.nearsort.ldi.ibtree.IntervalBTree;
import io.nearsort.ldi.io.CorruptFileException;
import io.nearsort.ldi.io.RecordFile;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongHashSet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * A projection's buckets: the checksummed directory file {@code <name>.dir} (one {@link BucketEntry} per live
 * bucket; appended at persist, rewritten atomically once maintenance has retired buckets) and the IB-tree over
 * their key ranges (§4.1), stored on disk as {@code <name>.ibt} in {@code k·4 KiB} nodes and rebuilt from the
 * directory at every persist. Buckets added since then are searched in an in-memory IB-tree, and retired ones are
 * filtered out, so a search always sees exactly the live buckets.
 *
 * <p>The directory is the source of truth: an IB-tree file built from another directory (a crash between the two
 * writes) is recognised by its fingerprint and rebuilt on open. Thread safe.
 */
final class BucketDirectory implements AutoCloseable {
    private final Path path;
    private final Path indexPath;
    private final String identity;
    private final int unitsPerNode;
    private final int fanout;
    private final int cachePages;
    private RecordFile file;
    private final Long2ObjectHashMap<BucketEntry> live = new Long2ObjectHashMap<>();
    private final List<BucketEntry> unpersisted = new ArrayList<>();
    private boolean rewrite;
    private DiskIntervalBTree disk;
    private IntervalBTree recent;
    private final LongHashSet retired = new LongHashSet();
    private long deadBytes;
    private long indexBuilds;

    /**
     * Opens (or creates) the directory of a projection whose bucket file is {@code dataFileBytes} long.
     *
     * @param unitsPerNode k of the IB-tree's {@code k·4 KiB} nodes
     * @param fanout       node capacity of the in-memory IB-tree of recent buckets
     * @param cachePages   IB-tree nodes kept in memory
     */
    BucketDirectory(final Path path, final Path indexPath, final String identity, final Path dataFile,
                    final long dataFileBytes, final int unitsPerNode, final int fanout, final int cachePages)
            throws IOException {
        this.path = path;
        this.indexPath = indexPath;
        this.identity = identity;
        this.unitsPerNode = unitsPerNode;
        this.fanout = fanout;
        this.cachePages = cachePages;
        this.recent = new IntervalBTree(fanout);
        this.file = RecordFile.open(path, identity);
        try {
            file.scan((offset, record) -> {
                if (record.remaining() != BucketEntry.BYTES) {
                    throw new CorruptFileException(path, offset, "directory entry of " + record.remaining()
                            + " bytes, expected " + BucketEntry.BYTES);
                }
                final BucketEntry e = BucketEntry.decode(record);
                if (e.offset() < 0 || e.location().end() > dataFileBytes || e.high() < e.low() || e.count() < 1) {
                    throw new CorruptFileException(dataFile, e.offset(), "bucket " + live.size()
                            + " of the directory lies beyond the end of the file (" + dataFileBytes
                            + " bytes): truncated");
                }
                if (live.put(e.offset(), e) != null) {
                    throw new CorruptFileException(path, offset, "bucket at " + e.offset() + " listed twice");
                }
            });
            openIndex();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Uses the IB-tree file if it was built from this directory, otherwise builds it. */
    private void openIndex() throws IOException {
        final List<BucketEntry> entries = sortedEntries();
        final long fingerprint = fingerprint(entries);
        if (Files.exists(indexPath)) {
            try {
                final DiskIntervalBTree t = DiskIntervalBTree.open(indexPath, cachePages);
                if (t.fingerprint() == fingerprint && t.size() == entries.size()
                        && t.nodeBytes() == unitsPerNode * DiskIntervalBTree.UNIT) {
                    disk = t;
                    return;
                }
                t.close();
            } catch (CorruptFileException stale) {
                // Derived from the checksummed directory: rebuilt below, never searched.
            }
        }
        buildIndex(entries, fingerprint);
    }

    private void buildIndex(final List<BucketEntry> entries, final long fingerprint) throws IOException {
        final int n = entries.size();
        final long[] lows = new long[n];
        final long[] highs = new long[n];
        final long[] offsets = new long[n];
        for (int i = 0; i < n; i++) {
            lows[i] = entries.get(i).low();
            highs[i] = entries.get(i).high();
            offsets[i] = entries.get(i).offset();
        }
        DiskIntervalBTree.write(indexPath, unitsPerNode, fingerprint, lows, highs, offsets, n);
        if (disk != null) {
            disk.close();
        }
        disk = DiskIntervalBTree.open(indexPath, cachePages);
        recent = new IntervalBTree(fanout);
        retired.clear();
        indexBuilds++;
    }

    /** A bucket was written to the data file. */
    synchronized void add(final BucketEntry e) {
        live.put(e.offset(), e);
        unpersisted.add(e);
        recent.insert(e.low(), e.high(), e.offset());
    }

    /** A bucket was replaced (by maintenance): it is no longer searched, and its bytes are dead. */
    synchronized void retire(final BucketEntry e) {
        if (live.remove(e.offset()) == null) {
            throw new IllegalStateException("bucket at " + e.offset() + " of " + path + " is not live");
        }
        unpersisted.remove(e);
        retired.add(e.offset());
        deadBytes += e.location().recordBytes();
        rewrite = true;
    }

    /** The live buckets whose key span intersects {@code [lo, hi]}. */
    synchronized List<BucketEntry> search(final long lo, final long hi) throws IOException {
        final List<BucketEntry> out = new ArrayList<>();
        final IntervalBTree.Visitor collect = (low, high, offset) -> {
            if (!retired.contains(offset)) {
                out.add(live.get(offset));
            }
        };
        disk.search(lo, hi, collect);
        recent.search(lo, hi, collect);
        return out;
    }

    /** Makes the directory durable (the data file must be forced first) and rebuilds the IB-tree file. */
    synchronized void persist() throws IOException {
        if (!rewrite && unpersisted.isEmpty()) {
            return;
        }
        final List<BucketEntry> entries = sortedEntries();
        if (rewrite) {
            final Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
            Files.deleteIfExists(tmp);
            try (RecordFile fresh = RecordFile.open(tmp, identity)) {
                for (BucketEntry e : entries) {
                    fresh.append(e.encode());
                }
                fresh.force();
            }
            file.close();
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            file = RecordFile.open(path, identity);
            rewrite = false;
        } else {
            for (BucketEntry e : unpersisted) {
                file.append(e.encode());
            }
            file.force();
        }
        unpersisted.clear();
        buildIndex(entries, fingerprint(entries));
    }

    /** Live buckets, in file order. */
    synchronized List<BucketEntry> entries() {
        return sortedEntries();
    }

    private List<BucketEntry> sortedEntries() {
        final List<BucketEntry> entries = new ArrayList<>(live.values());
        entries.sort(Comparator.comparingLong(BucketEntry::offset));
        return entries;
    }

    /** The largest row id in a live bucket, -1 for none. */
    synchronized long maxRowId() {
        long max = -1;
        for (BucketEntry e : live.values()) {
            max = Math.max(max, e.maxRowId());
        }
        return max;
    }

    synchronized int size() {
        return live.size();
    }

    /** Bytes of the data file held by retired buckets since open. */
    synchronized long deadBytes() {
        return deadBytes;
    }

    /** IB-tree files built since open (at open when the file was missing or stale, then at every persist). */
    synchronized long indexBuilds() {
        return indexBuilds;
    }

    /** IB-tree nodes read from disk since the last build. */
    synchronized long indexNodeReads() {
        return disk == null ? 0 : disk.nodeReads();
    }

    private static long fingerprint(final List<BucketEntry> entries) {
        final CRC32C crc = new CRC32C();
        for (BucketEntry e : entries) {
            crc.update(e.encode());
        }
        return ((long) entries.size() << 32) | crc.getValue();
    }

    @Override
    public synchronized void close() throws IOException {
        try {
            if (disk != null) {
                disk.close();
            }
        } finally {
            file.close();
        }
    }
}
