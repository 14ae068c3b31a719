package io.nearsort.ldi.projection;

import io.nearsort.ldi.commit.BucketEntry;
import io.nearsort.ldi.commit.ProjectionCommit;
import io.nearsort.ldi.ibtree.DiskIntervalBTree;
import io.nearsort.ldi.ibtree.IntervalBTree;
import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FileIo;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.LongHashSet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.CRC32C;

/**
 * A projection's live buckets: the entries the manifest's commits add up to plus the changes since the last commit
 * (handed to the next commit by {@link #takeChanges}), the live bytes of each segment (for space reclamation), and
 * the IB-tree over the buckets' key ranges (§4.1), stored as {@code <name>.ibt} in {@code k·4 KiB} nodes. The file
 * is derived data: it is rebuilt from the live entries when enough buckets changed since the last build (and at
 * close), and in between buckets added since are searched in an in-memory IB-tree and retired ones filtered out, so
 * a search always sees exactly the live buckets. A file built from another state (a crash, a roll-back) is
 * recognised by its fingerprint and rebuilt on open.
 *
 * <p>Thread safe. Memory: one entry object per live bucket and the cached IB-tree nodes, on the heap.
 */
final class BucketDirectory implements AutoCloseable {
    /** Changes since the last IB-tree build that make the next commit rebuild it, at least. */
    private static final int MIN_REBUILD_CHANGES = 1024;

    private final FileIo io;
    private final Path indexPath;
    private final int unitsPerNode;
    private final int fanout;
    private final int cachePages;
    private final Long2ObjectHashMap<BucketEntry> live = new Long2ObjectHashMap<>();
    private final Long2LongHashMap liveBytes = new Long2LongHashMap(0);
    private final Int2IntHashMap pins = new Int2IntHashMap(0);
    private final Map<Long, BucketEntry> added = new LinkedHashMap<>();
    private final LongArrayList retiredSinceCommit = new LongArrayList();
    private DiskIntervalBTree disk;
    private IntervalBTree recent;
    private final LongHashSet retiredSinceBuild = new LongHashSet();
    private boolean changedSinceBuild;
    private long indexBuilds;

    /**
     * Opens the directory of a committed state: {@code entries} are its live buckets.
     *
     * @param io           how the IB-tree file is opened and replaced
     * @param unitsPerNode k of the IB-tree's {@code k·4 KiB} nodes
     * @param fanout       node capacity of the in-memory IB-tree of recent buckets
     * @param cachePages   IB-tree nodes kept in memory
     */
    BucketDirectory(final FileIo io, final Path indexPath, final Collection<BucketEntry> entries,
                    final int unitsPerNode, final int fanout, final int cachePages) throws IOException {
        this.io = io;
        this.indexPath = indexPath;
        this.unitsPerNode = unitsPerNode;
        this.fanout = fanout;
        this.cachePages = cachePages;
        this.recent = new IntervalBTree(fanout);
        for (BucketEntry e : entries) {
            live.put(e.pointer(), e);
            addLiveBytes(e.segment(), e.location().recordBytes());
        }
        openIndex();
    }

    /** Uses the IB-tree file if it was built from these entries, otherwise builds it. */
    private void openIndex() throws IOException {
        final List<BucketEntry> entries = sortedEntries();
        final long fingerprint = fingerprint(entries);
        if (Files.exists(indexPath)) {
            try {
                final DiskIntervalBTree t = DiskIntervalBTree.open(io, indexPath, cachePages);
                if (t.fingerprint() == fingerprint && t.size() == entries.size()
                        && t.nodeBytes() == unitsPerNode * DiskIntervalBTree.UNIT) {
                    disk = t;
                    return;
                }
                t.close();
            } catch (CorruptFileException stale) {
                // Derived from the manifest: rebuilt below, never searched.
            }
        }
        buildIndex(entries);
    }

    private void buildIndex(final List<BucketEntry> entries) throws IOException {
        final int n = entries.size();
        final long[] lows = new long[n];
        final long[] highs = new long[n];
        final long[] pointers = new long[n];
        for (int i = 0; i < n; i++) {
            lows[i] = entries.get(i).low();
            highs[i] = entries.get(i).high();
            pointers[i] = entries.get(i).pointer();
        }
        DiskIntervalBTree.write(io, indexPath, unitsPerNode, fingerprint(entries), lows, highs, pointers, n);
        // Open the new tree before closing the old one: if the open fails, the old tree (its channel still reads the
        // file it opened) and the buckets recorded since its build still answer searches exactly (issue 22).
        final DiskIntervalBTree built = DiskIntervalBTree.open(io, indexPath, cachePages);
        final DiskIntervalBTree old = disk;
        disk = built;
        recent = new IntervalBTree(fanout);
        retiredSinceBuild.clear();
        changedSinceBuild = false;
        indexBuilds++;
        if (old != null) {
            old.close();
        }
    }

    private void addLiveBytes(final int segment, final long delta) {
        final long v = liveBytes.get(segment) + delta;
        if (v == 0) {
            liveBytes.remove(segment);
        } else {
            liveBytes.put(segment, v);
        }
    }

    /** A bucket was written. */
    synchronized void add(final BucketEntry e) {
        live.put(e.pointer(), e);
        addLiveBytes(e.segment(), e.location().recordBytes());
        added.put(e.pointer(), e);
        recent.insert(e.low(), e.high(), e.pointer());
        changedSinceBuild = true;
    }

    /** A bucket was replaced (by maintenance or reclamation): it is no longer searched, its bytes are dead. */
    synchronized void retire(final BucketEntry e) {
        if (live.remove(e.pointer()) == null) {
            throw new IllegalStateException("bucket " + e.segment() + ":" + e.location().offset() + " of "
                    + indexPath.getFileName() + " is not live");
        }
        addLiveBytes(e.segment(), -e.location().recordBytes());
        if (added.remove(e.pointer()) == null) {
            retiredSinceCommit.addLong(e.pointer()); // committed earlier: the next commit retires it
        }
        retiredSinceBuild.add(e.pointer());
        changedSinceBuild = true;
    }

    /** Whether the bucket is still live. */
    synchronized boolean isLive(final BucketEntry e) {
        return live.get(e.pointer()) == e;
    }

    /** The live buckets whose key span intersects {@code [lo, hi]}, pinning their segments when {@code pin}. */
    synchronized List<BucketEntry> search(final long lo, final long hi, final boolean pin) throws IOException {
        final List<BucketEntry> out = new ArrayList<>();
        final IntervalBTree.Visitor collect = (low, high, pointer) -> {
            if (!retiredSinceBuild.contains(pointer)) {
                out.add(live.get(pointer));
            }
        };
        disk.search(lo, hi, collect);
        recent.search(lo, hi, collect);
        if (pin) {
            for (BucketEntry e : out) {
                pins.put(e.segment(), pins.get(e.segment()) + 1);
            }
        }
        return out;
    }

    /** Releases the pins {@link #search} took for {@code entries}. */
    synchronized void unpin(final List<BucketEntry> entries) {
        for (BucketEntry e : entries) {
            final int left = pins.get(e.segment()) - 1;
            if (left <= 0) {
                pins.remove(e.segment());
            } else {
                pins.put(e.segment(), left);
            }
        }
    }

    /** Whether a query or cursor is reading segment {@code s}. */
    synchronized boolean pinned(final int s) {
        return pins.containsKey(s);
    }

    /**
     * The changes since the last commit, handed to the next one, with the active segment's state ({@code active}:
     * segment, length, next segment, read by the caller under this directory's lock).
     */
    synchronized ProjectionCommit takeChanges(final long[] active) {
        final ProjectionCommit c = new ProjectionCommit(new ArrayList<>(added.values()),
                retiredSinceCommit.toLongArray(), (int) active[0], active[1], (int) active[2]);
        added.clear();
        retiredSinceCommit.clear();
        return c;
    }

    /** Whether buckets were added or retired since the last commit. */
    synchronized boolean hasChanges() {
        return !added.isEmpty() || !retiredSinceCommit.isEmpty();
    }

    /** Segments holding a live bucket. */
    synchronized TreeSet<Integer> liveSegments() {
        final TreeSet<Integer> s = new TreeSet<>();
        liveBytes.forEachLong((segment, bytes) -> s.add((int) segment));
        return s;
    }

    /** Bytes of live records (headers included) in segment {@code s}. */
    synchronized long liveBytes(final int s) {
        return liveBytes.get(s);
    }

    /** Bytes of all live records. */
    synchronized long liveBytes() {
        final long[] sum = {0};
        liveBytes.forEachLong((segment, bytes) -> sum[0] += bytes);
        return sum[0];
    }

    /** The live buckets of segment {@code s}, in file order. */
    synchronized List<BucketEntry> liveIn(final int s) {
        final List<BucketEntry> out = new ArrayList<>();
        for (BucketEntry e : live.values()) {
            if (e.segment() == s) {
                out.add(e);
            }
        }
        out.sort(Comparator.comparingLong(BucketEntry::pointer));
        return out;
    }

    /** Rebuilds the IB-tree file when enough buckets changed since the last build ({@code force}: when any did). */
    synchronized void maybeRebuildIndex(final boolean force) throws IOException {
        final long changes = recent.size() + retiredSinceBuild.size();
        if (force ? changedSinceBuild : changes >= Math.max(MIN_REBUILD_CHANGES, disk.size() / 8)) {
            buildIndex(sortedEntries());
        }
    }

    /** Live buckets, in pointer (segment, then file) order. */
    synchronized List<BucketEntry> entries() {
        return sortedEntries();
    }

    private List<BucketEntry> sortedEntries() {
        final List<BucketEntry> entries = new ArrayList<>(live.values());
        entries.sort(Comparator.comparingLong(BucketEntry::pointer));
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

    /** IB-tree files built since open (at open when the file was missing or stale, then when buckets changed). */
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
        if (disk != null) {
            disk.close();
            disk = null;
        }
    }
}
