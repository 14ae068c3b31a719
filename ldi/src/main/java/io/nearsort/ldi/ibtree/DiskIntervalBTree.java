package io.nearsort.ldi.ibtree;

import io.nearsort.core.sortedness.StableMergeSort;
import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.io.RecordFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The IB-tree of §4.1 stored on disk (Figure 6): nodes of {@code k·4 KiB} pages, every entry carrying its data (a
 * bucket pointer) in leaves, every internal entry the smallest low key below it and {@code Max}, the largest high
 * key below it, so a range search skips subtrees ending before the query and stops at the first one starting after
 * it: O(log n + answers) node reads. Nodes are read on demand through a bounded cache ("full or partial loading in
 * memory"), each page checked against its CRC32C, so corruption is reported, never searched.
 *
 * <p>The file is bulk-built from the bucket directory ({@link #write}), leaves filled completely, and replaced
 * atomically; a {@code fingerprint} of the directory it was built from lets the owner detect a stale file. Thread
 * safe: searches may run concurrently.
 */
public final class DiskIntervalBTree implements AutoCloseable {
    /** The page unit of §4.1. */
    public static final int UNIT = 4096;
    private static final int MAGIC = 0x4C444942; // "LDIB"
    private static final int VERSION = 1;
    private static final int NODE_HEADER = 5;
    private static final int LEAF_ENTRY = 24;
    private static final int INTERNAL_ENTRY = 20;
    private static final byte LEAF = 0;
    private static final byte INTERNAL = 1;

    private final Path path;
    private final FileChannel channel;
    private final int pageSize;
    private final int rootPage;
    private final int height;
    private final long entries;
    private final long fingerprint;
    private final Map<Integer, ByteBuffer> cache;
    private final int cachePages;
    private long nodeReads;
    private long nodesVisited;

    private DiskIntervalBTree(final Path path, final FileChannel channel, final int pageSize, final int rootPage,
                              final int height, final long entries, final long fingerprint, final int cachePages) {
        this.path = path;
        this.channel = channel;
        this.pageSize = pageSize;
        this.rootPage = rootPage;
        this.height = height;
        this.entries = entries;
        this.fingerprint = fingerprint;
        this.cachePages = cachePages;
        this.cache = new LinkedHashMap<>(16, 0.75f, true);
    }

    /**
     * Builds the tree of {@code n} intervals into {@code path} (through a temporary file moved into place).
     *
     * @param path         the tree's file; replaced atomically when it exists
     * @param unitsPerNode k: nodes are {@code k·4 KiB}
     * @param fingerprint  identifies the bucket directory the tree is built from; {@link #fingerprint()} returns it
     * @param lows         the intervals' low ends, in any order (sorted here by low, then high)
     * @param highs        the intervals' high ends (inclusive), parallel to {@code lows}
     * @param values       what to store with each interval (the column store stores its bucket pointer)
     * @param n            the number of intervals, the first {@code n} entries of each array; 0 for an empty tree
     * @throws IOException when the temporary file cannot be written, forced or moved into place
     * @throws IllegalArgumentException when {@code unitsPerNode} is not from 1 to 256
     */
    public static void write(final Path path, final int unitsPerNode, final long fingerprint, final long[] lows,
                             final long[] highs, final long[] values, final int n) throws IOException {
        write(FileIo.standard(), path, unitsPerNode, fingerprint, lows, highs, values, n);
    }

    /**
     * {@link #write(Path, int, long, long[], long[], long[], int)} through {@code io}: the temporary file is opened,
     * written and forced, then moved into place, through it.
     *
     * @param io           how the files are opened and renamed
     * @param path         the tree's file; replaced atomically when it exists
     * @param unitsPerNode k: nodes are {@code k·4 KiB}
     * @param fingerprint  identifies the bucket directory the tree is built from; {@link #fingerprint()} returns it
     * @param lows         the intervals' low ends, in any order (sorted here by low, then high)
     * @param highs        the intervals' high ends (inclusive), parallel to {@code lows}
     * @param values       what to store with each interval (the column store stores its bucket pointer)
     * @param n            the number of intervals, the first {@code n} entries of each array; 0 for an empty tree
     * @throws IOException when the temporary file cannot be written, forced or moved into place
     * @throws IllegalArgumentException when {@code unitsPerNode} is not from 1 to 256
     */
    public static void write(final FileIo io, final Path path, final int unitsPerNode, final long fingerprint,
                             final long[] lows, final long[] highs, final long[] values, final int n)
            throws IOException {
        if (unitsPerNode < 1 || unitsPerNode > 256) {
            throw new IllegalArgumentException("IB-tree nodes are k·4 KiB with k from 1 to 256 (got: k = "
                    + unitsPerNode + ")");
        }
        final int pageSize = unitsPerNode * UNIT;
        final int[] order = StableMergeSort.order(lows, highs, n);
        final Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try (FileChannel ch = io.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            int nextPage = 1;
            final int leafCapacity = (pageSize - NODE_HEADER - 4) / LEAF_ENTRY;
            final int internalCapacity = (pageSize - NODE_HEADER - 4) / INTERNAL_ENTRY;
            // Level by level: each node's (minLow, maxHigh, page) becomes an entry of the level above.
            int count = Math.max(1, (n + leafCapacity - 1) / leafCapacity);
            long[] minLow = new long[count];
            long[] maxHigh = new long[count];
            int[] pages = new int[count];
            for (int node = 0; node < count; node++) {
                final ByteBuffer page = newPage(pageSize, LEAF);
                final int from = node * leafCapacity;
                final int to = Math.min(n, from + leafCapacity);
                long max = Long.MIN_VALUE;
                for (int i = from; i < to; i++) {
                    final int e = order[i];
                    page.putLong(lows[e]).putLong(highs[e]).putLong(values[e]);
                    max = Math.max(max, highs[e]);
                }
                page.putInt(1, to - from);
                minLow[node] = to > from ? lows[order[from]] : Long.MAX_VALUE;
                maxHigh[node] = max;
                pages[node] = nextPage;
                writePage(ch, page, nextPage++, pageSize);
            }
            int levels = 1;
            while (count > 1) {
                final int parents = (count + internalCapacity - 1) / internalCapacity;
                final long[] pMin = new long[parents];
                final long[] pMax = new long[parents];
                final int[] pPages = new int[parents];
                for (int node = 0; node < parents; node++) {
                    final ByteBuffer page = newPage(pageSize, INTERNAL);
                    final int from = node * internalCapacity;
                    final int to = Math.min(count, from + internalCapacity);
                    long max = Long.MIN_VALUE;
                    for (int i = from; i < to; i++) {
                        page.putLong(minLow[i]).putLong(maxHigh[i]).putInt(pages[i]);
                        max = Math.max(max, maxHigh[i]);
                    }
                    page.putInt(1, to - from);
                    pMin[node] = minLow[from];
                    pMax[node] = max;
                    pPages[node] = nextPage;
                    writePage(ch, page, nextPage++, pageSize);
                }
                minLow = pMin;
                maxHigh = pMax;
                pages = pPages;
                count = parents;
                levels++;
            }
            final ByteBuffer header = ByteBuffer.allocate(pageSize).order(ByteOrder.LITTLE_ENDIAN);
            header.putInt(MAGIC).putInt(VERSION).putInt(pageSize).putInt(pages[0]).putInt(levels).putLong(n)
                    .putLong(fingerprint);
            writePage(ch, header, 0, pageSize);
            ch.force(true);
        }
        io.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Opens a tree written by {@link #write}, keeping up to {@code cachePages} nodes in memory.
     *
     * @param path       the tree's file
     * @param cachePages nodes kept in memory, at least 1
     * @return the open tree, to close when done
     * @throws IOException when the file cannot be opened or read; a {@link CorruptFileException} when its header is
     *         not an IB-tree's, fails its checksum or does not fit the file
     * @throws IllegalArgumentException when {@code cachePages} is below 1
     */
    public static DiskIntervalBTree open(final Path path, final int cachePages) throws IOException {
        return open(FileIo.standard(), path, cachePages);
    }

    /**
     * {@link #open(Path, int)} through {@code io}: the file's channel, which reads every node, comes from it.
     *
     * @param io         how the file is opened
     * @param path       the tree's file
     * @param cachePages nodes kept in memory, at least 1
     * @return the open tree, to close when done
     * @throws IOException when the file cannot be opened or read; a {@link CorruptFileException} when its header is
     *         not an IB-tree's, fails its checksum or does not fit the file
     * @throws IllegalArgumentException when {@code cachePages} is below 1
     */
    public static DiskIntervalBTree open(final FileIo io, final Path path, final int cachePages) throws IOException {
        if (cachePages < 1) {
            throw new IllegalArgumentException("cachePages must be at least 1 (got: " + cachePages + ")");
        }
        final FileChannel ch = io.open(path, StandardOpenOption.READ);
        try {
            final ByteBuffer first = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
            RecordFile.readFully(ch, first, 0, path);
            if (first.getInt(0) != MAGIC) {
                throw new CorruptFileException(path, 0, "not an IB-tree file (bad magic)");
            }
            if (first.getInt(4) != VERSION) {
                throw new CorruptFileException(path, 4, "IB-tree format version " + first.getInt(4) + ", expected "
                        + VERSION);
            }
            final int pageSize = first.getInt(8);
            if (pageSize < UNIT || pageSize % UNIT != 0 || pageSize > 256 * UNIT) {
                throw new CorruptFileException(path, 8, "node size " + pageSize + " is not k·4 KiB");
            }
            final ByteBuffer header = readPage(ch, path, 0, pageSize);
            final int root = header.getInt(12);
            final int height = header.getInt(16);
            final long entries = header.getLong(20);
            final long pages = ch.size() / pageSize;
            if (ch.size() % pageSize != 0 || root < 1 || root >= pages || height < 1 || entries < 0) {
                throw new CorruptFileException(path, 12, "header (root " + root + ", height " + height + ", "
                        + ch.size() + " bytes) does not fit the file: truncated");
            }
            return new DiskIntervalBTree(path, ch, pageSize, root, height, entries, header.getLong(28), cachePages);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Visits every interval intersecting {@code [lo, hi]}, in ascending order of low.
     *
     * @param lo      the query's low end
     * @param hi      the query's high end (inclusive); below {@code lo}, nothing is visited
     * @param visitor receives each matching interval with its value, on the calling thread
     * @throws IOException when a node cannot be read; a {@link CorruptFileException} when a node's checksum or type
     *         is wrong
     */
    public void search(final long lo, final long hi, final IntervalBTree.Visitor visitor) throws IOException {
        if (hi >= lo && entries > 0) {
            search(rootPage, height, lo, hi, visitor);
        }
    }

    /** Returns false once the search has passed {@code hi}. */
    private boolean search(final int pageNo, final int level, final long lo, final long hi,
                           final IntervalBTree.Visitor visitor) throws IOException {
        final ByteBuffer page = node(pageNo, level == 1 ? LEAF : INTERNAL);
        final int count = page.getInt(1);
        for (int i = 0; i < count; i++) {
            if (level == 1) {
                final int at = NODE_HEADER + i * LEAF_ENTRY;
                final long low = page.getLong(at);
                if (low > hi) {
                    return false;
                }
                final long high = page.getLong(at + 8);
                if (high >= lo) {
                    visitor.visit(low, high, page.getLong(at + 16));
                }
            } else {
                final int at = NODE_HEADER + i * INTERNAL_ENTRY;
                if (page.getLong(at) > hi) {
                    return false;
                }
                if (page.getLong(at + 8) >= lo && !search(page.getInt(at + 16), level - 1, lo, hi, visitor)) {
                    return false;
                }
            }
        }
        return true;
    }

    private ByteBuffer node(final int pageNo, final byte expected) throws IOException {
        final ByteBuffer page;
        synchronized (cache) {
            nodesVisited++;
            final ByteBuffer cached = cache.get(pageNo);
            if (cached != null) {
                return cached;
            }
        }
        page = readPage(channel, path, pageNo, pageSize);
        final int capacity = (pageSize - NODE_HEADER - 4) / (expected == LEAF ? LEAF_ENTRY : INTERNAL_ENTRY);
        if (page.get(0) != expected || page.getInt(1) < 0 || page.getInt(1) > capacity) {
            throw new CorruptFileException(path, (long) pageNo * pageSize, "node " + pageNo
                    + " is not the " + (expected == LEAF ? "leaf" : "internal node") + " its parent points to");
        }
        synchronized (cache) {
            nodeReads++;
            cache.put(pageNo, page);
            if (cache.size() > cachePages) {
                cache.remove(cache.keySet().iterator().next());
            }
        }
        return page;
    }

    /**
     * Intervals stored.
     *
     * @return the number of intervals the tree was built with
     */
    public long size() {
        return entries;
    }

    /**
     * Levels, leaves included.
     *
     * @return the number of levels, at least 1
     */
    public int height() {
        return height;
    }

    /**
     * Bytes per node: k·4 KiB.
     *
     * @return the node size in bytes, a multiple of {@link #UNIT} up to 256 of them
     */
    public int nodeBytes() {
        return pageSize;
    }

    /**
     * What the owner passed to {@link #write}: identifies the directory the tree was built from.
     *
     * @return the fingerprint stored in the file's header
     */
    public long fingerprint() {
        return fingerprint;
    }

    /**
     * Nodes read from disk (cache misses).
     *
     * @return the number of node reads since the tree was opened
     */
    public long nodeReads() {
        synchronized (cache) {
            return nodeReads;
        }
    }

    /**
     * Nodes visited by searches, cached or not.
     *
     * @return the number of node visits since the tree was opened
     */
    public long nodesVisited() {
        synchronized (cache) {
            return nodesVisited;
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private static ByteBuffer newPage(final int pageSize, final byte type) {
        final ByteBuffer page = ByteBuffer.allocate(pageSize).order(ByteOrder.LITTLE_ENDIAN);
        page.put(type).putInt(0);
        return page;
    }

    private static void writePage(final FileChannel ch, final ByteBuffer page, final int pageNo, final int pageSize)
            throws IOException {
        final CRC32C crc = new CRC32C();
        crc.update(page.array(), 0, pageSize - 4);
        page.putInt(pageSize - 4, (int) crc.getValue());
        page.clear();
        RecordFile.writeFully(ch, page, (long) pageNo * pageSize);
    }

    private static ByteBuffer readPage(final FileChannel ch, final Path path, final int pageNo, final int pageSize)
            throws IOException {
        final ByteBuffer page = ByteBuffer.allocate(pageSize).order(ByteOrder.LITTLE_ENDIAN);
        RecordFile.readFully(ch, page, (long) pageNo * pageSize, path);
        final CRC32C crc = new CRC32C();
        crc.update(page.array(), 0, pageSize - 4);
        if ((int) crc.getValue() != page.getInt(pageSize - 4)) {
            throw new CorruptFileException(path, (long) pageNo * pageSize, "IB-tree node " + pageNo
                    + " checksum mismatch");
        }
        return page;
    }
}
