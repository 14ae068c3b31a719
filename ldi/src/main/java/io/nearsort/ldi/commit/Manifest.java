package io.nearsort.ldi.commit;

import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.io.RecordFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.zip.CRC32C;

/**
 * A column store's commit log ({@link ManifestDescriptor}): one COMMIT record per {@code flush(metadata)}, holding
 * every projection's bucket changes since the previous commit, the caller's metadata and the row count, so one
 * record makes the state of all projections durable at once — a commit is atomic across projections.
 *
 * <p>Commit protocol (the caller forces the segment files first): append the COMMIT record after the last complete
 * one, force, then write the next commit slot and force. A crash before the slot is durable leaves the previous slot
 * in charge: the store reopens at the previous commit with exactly its rows.
 *
 * <p>The last {@code retain} commits are retained: the store can be reopened at any of them ({@link #open} with a
 * target), which discards the later ones by writing a slot that points at the target. When the file has grown to
 * twice its size after the last rewrite, it is rewritten: one COMMIT with the state at the oldest retained commit,
 * then the later retained commits as they were, prepared in {@link ManifestDescriptor#TEMP} and moved over the
 * manifest atomically.
 *
 * <p>Not thread-safe: the store's committing thread owns it. Memory: the retained commits' metadata and, per retained
 * commit and projection, the numbers of the segments it refers to.
 */
public final class Manifest implements AutoCloseable {
    /** The size below which a store's manifest is never rewritten. */
    public static final long DEFAULT_REWRITE_BYTES = 1 << 20;

    private final FileIo io;
    private final Path dir;
    private final Path path;
    private final int retain;
    private final int projections;
    private final long minRewriteBytes;
    private FileChannel channel;
    private byte[] layout;
    private long sequence;
    private long committedEnd;
    private long nextCommitId;
    private long oldestRetained;
    private final Deque<Retained> retained = new ArrayDeque<>();
    private List<ProjectionState> opened;
    private long rewriteAt;
    private long rewrites;

    /** A retained commit: its point, where its record lies, and the segments its state refers to per projection. */
    private record Retained(CommitPoint point, long start, long end, int[][] segments) {
    }

    private Manifest(final FileIo io, final Path dir, final int retain, final int projections,
                     final long minRewriteBytes) {
        this.io = io;
        this.dir = dir;
        this.minRewriteBytes = minRewriteBytes;
        this.path = dir.resolve(ManifestDescriptor.FILE);
        this.retain = retain;
        this.projections = projections;
    }

    /**
     * Whether {@code dir} holds a manifest.
     *
     * @param dir the store directory
     * @return whether {@value ManifestDescriptor#FILE} exists in it
     */
    public static boolean exists(final Path dir) {
        return Files.exists(dir.resolve(ManifestDescriptor.FILE));
    }

    /**
     * Creates the manifest of a new store holding {@code layout} (the table's encoding) and no commit: prepared in
     * the temporary file and moved into place, so a crash leaves either no store or an empty one.
     *
     * @param dir             the new store's directory, which must exist
     * @param layout          the table's encoding, stored as given
     * @param projections     the number of projections, which every commit must cover
     * @param retain          commits retained, at least 1
     * @param minRewriteBytes the manifest is rewritten once it has grown to twice its size after the last rewrite,
     *                        and at least to this
     * @return the new manifest, opened for writing, with no commit
     * @throws IOException when the manifest cannot be written, moved into place or made durable
     * @throws IllegalArgumentException when {@code retain} is below 1
     */
    public static Manifest create(final Path dir, final byte[] layout, final int projections, final int retain,
                                  final long minRewriteBytes) throws IOException {
        return create(FileIo.standard(), dir, layout, projections, retain, minRewriteBytes);
    }

    /**
     * {@link #create(Path, byte[], int, int, long)} through {@code io}: every file the manifest opens, renames or
     * deletes, now and later, goes through it.
     *
     * @param io              how the manifest reaches its files
     * @param dir             the new store's directory, which must exist
     * @param layout          the table's encoding, stored as given
     * @param projections     the number of projections, which every commit must cover
     * @param retain          commits retained, at least 1
     * @param minRewriteBytes the manifest is rewritten once it has grown to twice its size after the last rewrite,
     *                        and at least to this
     * @return the new manifest, opened for writing, with no commit
     * @throws IOException when the manifest cannot be written, moved into place or made durable
     * @throws IllegalArgumentException when {@code retain} is below 1
     */
    public static Manifest create(final FileIo io, final Path dir, final byte[] layout, final int projections,
                                  final int retain, final long minRewriteBytes) throws IOException {
        checkRetain(retain);
        final Path tmp = dir.resolve(ManifestDescriptor.TEMP);
        io.deleteIfExists(tmp);
        try (FileChannel ch = io.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            RecordFile.writeFully(ch, ManifestDescriptor.header(), 0);
            final ByteBuffer payload = layoutRecord(layout);
            final long end = writeRecord(ch, ManifestDescriptor.RECORDS, payload);
            RecordFile.writeFully(ch, ManifestDescriptor.slot(1, end, 0, 1, 1), ManifestDescriptor.slotOffset(1));
            ch.force(true);
        }
        io.move(tmp, dir.resolve(ManifestDescriptor.FILE), StandardCopyOption.ATOMIC_MOVE);
        io.forceDirectory(dir);
        return open(io, dir, projections, retain, -1, minRewriteBytes);
    }

    /**
     * Opens the manifest for writing at its last complete commit, or at retained commit {@code target} (discarding
     * the later ones, durably, before this returns); -1 for the last. Bytes after the chosen commit are cut off.
     *
     * @param dir             the store directory
     * @param projections     the number of projections the store has; every commit must cover that many
     * @param retain          commits retained, at least 1
     * @param target          the id of the retained commit to open at, or -1 for the last complete one
     * @param minRewriteBytes the manifest is rewritten once it has grown to twice its size after the last rewrite,
     *                        and at least to this
     * @return the manifest, opened for writing at the chosen commit
     * @throws CorruptFileException     if a record before the last complete commit does not verify
     * @throws IllegalArgumentException if {@code target} is not a retained commit, or {@code retain} is below 1
     * @throws IOException              if the manifest cannot be opened, read, written or cut
     */
    public static Manifest open(final Path dir, final int projections, final int retain, final long target,
                                final long minRewriteBytes) throws IOException {
        return open(FileIo.standard(), dir, projections, retain, target, minRewriteBytes);
    }

    /**
     * {@link #open(Path, int, int, long, long)} through {@code io}: every file the manifest opens, renames or
     * deletes goes through it.
     *
     * @param io              how the manifest reaches its files
     * @param dir             the store directory
     * @param projections     the number of projections the store has; every commit must cover that many
     * @param retain          commits retained, at least 1
     * @param target          the id of the retained commit to open at, or -1 for the last complete one
     * @param minRewriteBytes the manifest is rewritten once it has grown to twice its size after the last rewrite,
     *                        and at least to this
     * @return the manifest, opened for writing at the chosen commit
     * @throws CorruptFileException     if a record before the last complete commit does not verify
     * @throws IllegalArgumentException if {@code target} is not a retained commit, or {@code retain} is below 1
     * @throws IOException              if the manifest cannot be opened, read, written or cut
     */
    public static Manifest open(final FileIo io, final Path dir, final int projections, final int retain,
                                final long target, final long minRewriteBytes) throws IOException {
        checkRetain(retain);
        final Manifest m = new Manifest(io, dir, retain, projections, minRewriteBytes);
        m.channel = io.open(m.path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            m.load(target);
        } catch (IOException | RuntimeException e) {
            m.channel.close();
            throw e;
        }
        return m;
    }

    /**
     * The table's encoding from the manifest in {@code dir}, read without opening it for writing.
     *
     * @param io  how the manifest is opened
     * @param dir the store directory
     * @return the layout bytes, as given at creation
     * @throws IOException when the manifest cannot be read; a {@link CorruptFileException} when its header or layout
     *         record does not verify
     */
    public static byte[] readLayout(final FileIo io, final Path dir) throws IOException {
        final Path path = dir.resolve(ManifestDescriptor.FILE);
        try (FileChannel ch = io.open(path, StandardOpenOption.READ)) {
            final ByteBuffer header = ByteBuffer.allocate(ManifestDescriptor.PAGE).order(ByteOrder.LITTLE_ENDIAN);
            RecordFile.readFully(ch, header, 0, path);
            ManifestDescriptor.checkHeader(header, path);
            final ByteBuffer h = ByteBuffer.allocate(ManifestDescriptor.RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
            RecordFile.readFully(ch, h, ManifestDescriptor.RECORDS, path);
            final int length = h.getInt(0);
            if (length < 1 || ManifestDescriptor.RECORDS + ManifestDescriptor.RECORD_HEADER + length > ch.size()) {
                throw new CorruptFileException(path, ManifestDescriptor.RECORDS, "layout record length " + length
                        + " out of range");
            }
            final ByteBuffer payload = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            RecordFile.readFully(ch, payload, ManifestDescriptor.RECORDS + ManifestDescriptor.RECORD_HEADER, path);
            final CRC32C crc = new CRC32C();
            crc.update(payload.duplicate());
            if ((int) crc.getValue() != h.getInt(4) || payload.get(0) != ManifestDescriptor.LAYOUT) {
                throw new CorruptFileException(path, ManifestDescriptor.RECORDS, "layout record does not verify");
            }
            final byte[] layout = new byte[length - 1];
            payload.get(1, layout);
            return layout;
        }
    }

    private static void checkRetain(final int retain) {
        if (retain < 1) {
            throw new IllegalArgumentException("retainedCommits must be at least 1 (got: " + retain + ")");
        }
    }

    private void load(final long target) throws IOException {
        final ByteBuffer header = ByteBuffer.allocate(ManifestDescriptor.PAGE).order(ByteOrder.LITTLE_ENDIAN);
        if (channel.size() < ManifestDescriptor.RECORDS) {
            throw new CorruptFileException(path, channel.size(), "manifest of " + channel.size()
                    + " bytes: truncated");
        }
        RecordFile.readFully(channel, header, 0, path);
        ManifestDescriptor.checkHeader(header, path);
        ByteBuffer best = null;
        for (int s = 0; s < 2; s++) {
            ByteBuffer slot = ByteBuffer.allocate(ManifestDescriptor.SLOT_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            RecordFile.readFully(channel, slot, ManifestDescriptor.slotOffset(s), path);
            if (!ManifestDescriptor.slotValid(slot)) {
                // Read an invalid slot twice before falling back to the other: a transient read error (a flipped
                // bit on the way) must not roll the store back to the previous commit (issue 22, I/O faults).
                slot = ByteBuffer.allocate(ManifestDescriptor.SLOT_BYTES).order(ByteOrder.LITTLE_ENDIAN);
                RecordFile.readFully(channel, slot, ManifestDescriptor.slotOffset(s), path);
            }
            if (ManifestDescriptor.slotValid(slot) && (best == null
                    || slot.getLong(ManifestDescriptor.SLOT_SEQUENCE) > best.getLong(ManifestDescriptor.SLOT_SEQUENCE))) {
                best = slot;
            }
        }
        if (best == null) {
            throw new CorruptFileException(path, ManifestDescriptor.slotOffset(0), "neither commit slot is valid");
        }
        sequence = best.getLong(ManifestDescriptor.SLOT_SEQUENCE);
        committedEnd = best.getLong(ManifestDescriptor.SLOT_END);
        nextCommitId = best.getLong(ManifestDescriptor.SLOT_NEXT_ID);
        oldestRetained = best.getLong(ManifestDescriptor.SLOT_OLDEST);
        final long lastId = best.getLong(ManifestDescriptor.SLOT_COMMIT);
        if (committedEnd < ManifestDescriptor.RECORDS || committedEnd > channel.size()) {
            throw new CorruptFileException(path, committedEnd, "the last commit ends at byte " + committedEnd
                    + " but the manifest has " + channel.size() + " bytes: truncated");
        }
        Replay r = replay(committedEnd, -1);
        final long replayedLast = r.commits.isEmpty() ? 0 : r.commits.get(r.commits.size() - 1).point.id();
        if (replayedLast != lastId) {
            throw new CorruptFileException(path, committedEnd, "the commit slot names commit " + lastId
                    + " but the log ends with commit " + replayedLast);
        }
        layout = r.layout;
        final List<Retained> kept = retainable(r.commits);
        if (target >= 0 && target != lastId) {
            Retained at = null;
            for (Retained c : kept) {
                if (c.point.id() == target) {
                    at = c;
                }
            }
            if (at == null) {
                final List<Long> ids = new ArrayList<>();
                kept.forEach(c -> ids.add(c.point.id()));
                throw new IllegalArgumentException("commit " + target + " is not a retained commit point of "
                        + dir + " (retained: " + ids + ")");
            }
            // Roll back: one durable slot naming the target makes every later commit disappear.
            writeSlot(at.end, at.point.id(), nextCommitId, oldestRetained);
            r = replay(committedEnd, -1);
        }
        retained.addAll(retainable(r.commits));
        opened = r.states;
        if (channel.size() > committedEnd) {
            channel.truncate(committedEnd);
            channel.force(true);
        }
        // What a rewrite would leave: the layout, the live buckets, the retained commits' records.
        long compact = r.layoutEnd;
        for (ProjectionState state : r.states) {
            compact += (long) state.live().size() * BucketEntry.BYTES;
        }
        for (Retained c : retained) {
            compact += c.end - c.start;
        }
        rewriteAt = Math.max(minRewriteBytes, 2 * compact);
    }

    /** The commits of {@code all} still retained: from the oldest retained on, at most {@code retain} of them. */
    private List<Retained> retainable(final List<Retained> all) {
        final List<Retained> kept = new ArrayList<>();
        for (Retained c : all) {
            if (c.point.id() >= oldestRetained) {
                kept.add(c);
            }
        }
        return kept.subList(Math.max(0, kept.size() - retain), kept.size());
    }

    /** The result of reading the log up to some end. */
    private static final class Replay {
        byte[] layout;
        final List<Retained> commits = new ArrayList<>();
        final List<ProjectionState> states = new ArrayList<>();
        long layoutEnd;
    }

    /** Reads every record in {@code [RECORDS, end)}; stops after commit {@code stopAt} when it is not -1. */
    private Replay replay(final long end, final long stopAt) throws IOException {
        final Replay r = new Replay();
        for (int p = 0; p < projections; p++) {
            r.states.add(new ProjectionState());
        }
        long at = ManifestDescriptor.RECORDS;
        while (at < end) {
            final ByteBuffer h = ByteBuffer.allocate(ManifestDescriptor.RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
            if (end - at < ManifestDescriptor.RECORD_HEADER) {
                throw new CorruptFileException(path, at, "record header cut short before the last commit's end");
            }
            RecordFile.readFully(channel, h, at, path);
            final int length = h.getInt(0);
            if (length < 1 || at + ManifestDescriptor.RECORD_HEADER + length > end) {
                throw new CorruptFileException(path, at, "record length " + length + " out of range");
            }
            final ByteBuffer payload = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            RecordFile.readFully(channel, payload, at + ManifestDescriptor.RECORD_HEADER, path);
            final CRC32C crc = new CRC32C();
            crc.update(payload.duplicate());
            if ((int) crc.getValue() != h.getInt(4)) {
                throw new CorruptFileException(path, at, "record checksum mismatch");
            }
            final long next = at + ManifestDescriptor.RECORD_HEADER + length;
            try {
                final byte type = payload.get();
                if (r.layout == null) {
                    if (type != ManifestDescriptor.LAYOUT) {
                        throw new IllegalStateException("the first record is not the table layout");
                    }
                    r.layout = new byte[payload.remaining()];
                    payload.get(r.layout);
                    r.layoutEnd = next;
                } else if (type == ManifestDescriptor.COMMIT) {
                    final CommitPoint point = decodeCommit(payload, r.states);
                    if (!r.commits.isEmpty() && point.id() <= r.commits.get(r.commits.size() - 1).point.id()) {
                        throw new IllegalStateException("commit " + point.id() + " follows commit "
                                + r.commits.get(r.commits.size() - 1).point.id());
                    }
                    final int[][] segments = new int[projections][];
                    for (int p = 0; p < projections; p++) {
                        segments[p] = r.states.get(p).referencedSegments();
                    }
                    r.commits.add(new Retained(point, at, next, segments));
                    if (point.id() == stopAt) {
                        return r;
                    }
                } else {
                    throw new IllegalStateException("unknown record type " + type);
                }
            } catch (IllegalStateException | java.nio.BufferUnderflowException e) {
                throw new CorruptFileException(path, at, "record does not decode: " + e.getMessage());
            }
            at = next;
        }
        if (r.layout == null) {
            throw new CorruptFileException(path, ManifestDescriptor.RECORDS, "no table layout record");
        }
        return r;
    }

    private CommitPoint decodeCommit(final ByteBuffer b, final List<ProjectionState> states) {
        final long id = b.getLong();
        final long time = b.getLong();
        final long rows = b.getLong();
        final int entries = b.getInt();
        if (entries < 0 || entries > b.remaining() / 8) {
            throw new IllegalStateException("metadata of " + entries + " entries does not fit");
        }
        final Map<String, String> metadata = new LinkedHashMap<>();
        for (int i = 0; i < entries; i++) {
            metadata.put(ManifestDescriptor.getString(b), ManifestDescriptor.getString(b));
        }
        final int n = b.getInt();
        if (n != projections) {
            throw new IllegalStateException("commit " + id + " covers " + n + " projections, the store has "
                    + projections);
        }
        for (int p = 0; p < n; p++) {
            final int active = b.getInt();
            final long activeEnd = b.getLong();
            final int nextSegment = b.getInt();
            final int added = b.getInt();
            if (added < 0 || added > b.remaining() / BucketEntry.BYTES) {
                throw new IllegalStateException(added + " added buckets do not fit");
            }
            final List<BucketEntry> adds = new ArrayList<>(added);
            for (int i = 0; i < added; i++) {
                adds.add(BucketEntry.decode(b));
            }
            final int retiredCount = b.getInt();
            if (retiredCount < 0 || retiredCount > b.remaining() / 8) {
                throw new IllegalStateException(retiredCount + " retired buckets do not fit");
            }
            final long[] retired = new long[retiredCount];
            for (int i = 0; i < retiredCount; i++) {
                retired[i] = b.getLong();
            }
            states.get(p).apply(new ProjectionCommit(adds, retired, active, activeEnd, nextSegment));
        }
        if (b.hasRemaining()) {
            throw new IllegalStateException(b.remaining() + " bytes after commit " + id);
        }
        return new CommitPoint(id, time, rows, metadata);
    }

    private static ByteBuffer layoutRecord(final byte[] layout) {
        final ByteBuffer b = ByteBuffer.allocate(1 + layout.length).order(ByteOrder.LITTLE_ENDIAN);
        return b.put(ManifestDescriptor.LAYOUT).put(layout).flip();
    }

    private static ByteBuffer commitRecord(final CommitPoint point, final List<ProjectionCommit> changes) {
        final List<byte[]> strings = new ArrayList<>();
        int size = 1 + 24 + 4 + 4;
        for (Map.Entry<String, String> e : point.metadata().entrySet()) {
            strings.add(ManifestDescriptor.utf8(e.getKey()));
            strings.add(ManifestDescriptor.utf8(e.getValue()));
        }
        for (byte[] s : strings) {
            size += 4 + s.length;
        }
        for (ProjectionCommit c : changes) {
            size += c.encodedBytes();
        }
        final ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.put(ManifestDescriptor.COMMIT).putLong(point.id()).putLong(point.timeMillis()).putLong(point.rows());
        b.putInt(point.metadata().size());
        strings.forEach(s -> ManifestDescriptor.putString(b, s));
        b.putInt(changes.size());
        for (ProjectionCommit c : changes) {
            b.putInt(c.activeSegment()).putLong(c.activeEnd()).putInt(c.nextSegment()).putInt(c.added().size());
            c.added().forEach(e -> e.encode(b));
            b.putInt(c.retired().length);
            for (long p : c.retired()) {
                b.putLong(p);
            }
        }
        return b.flip();
    }

    /** Writes a framed record at {@code at}; returns its end. */
    private static long writeRecord(final FileChannel ch, final long at, final ByteBuffer payload)
            throws IOException {
        final int length = payload.remaining();
        RecordFile.writeFully(ch, ManifestDescriptor.recordHeader(payload), at);
        RecordFile.writeFully(ch, payload, at + ManifestDescriptor.RECORD_HEADER);
        return at + ManifestDescriptor.RECORD_HEADER + length;
    }

    /**
     * Makes {@code end}/{@code commitId} the last complete commit: the next slot, forced. When the write or the force
     * fails, the slot may still have reached the file (a write that failed part-way, a force that failed after the
     * operating system took the bytes), and a later reopen would find a commit the caller was told had failed: the
     * slot is overwritten with an invalid one and forced before the failure is rethrown (issue 22, I/O faults), so
     * the previous slot stays in charge. Nothing of this manifest's state changes on failure.
     */
    private void writeSlot(final long end, final long commitId, final long nextId, final long oldest)
            throws IOException {
        final long seq = sequence + 1;
        final long at = ManifestDescriptor.slotOffset((int) (seq % 2));
        try {
            RecordFile.writeFully(channel, ManifestDescriptor.slot(seq, end, commitId, nextId, oldest), at);
            channel.force(true);
        } catch (IOException e) {
            try {
                RecordFile.writeFully(channel, ByteBuffer.allocate(ManifestDescriptor.SLOT_BYTES), at);
                channel.force(true);
            } catch (IOException undo) {
                e.addSuppressed(undo);
            }
            throw e;
        }
        sequence = seq;
        committedEnd = end;
        oldestRetained = oldest;
    }

    /**
     * Records a commit: {@code changes} (one per projection, in layout order) with {@code metadata} and the row
     * count; {@code segments[p]} are the segments projection p's committed state refers to. The segment files the
     * changes refer to must be durable already. Returns once the commit is durable; {@link #rewriteIfDue} may then
     * rewrite the manifest. When it throws, the commit is not made and the manifest is as before the call.
     *
     * @param metadata the caller's map, checked by {@link CommitPoint#check}
     * @param rows     rows in the store at this commit: row ids {@code 0 .. rows - 1}
     * @param changes  one per projection, in layout order
     * @param segments per projection, in layout order, the numbers of the segments its committed state refers to
     * @return the commit point made: the next commit id, the current wall-clock time, {@code rows} and the metadata
     * @throws IOException when writing or forcing the manifest fails
     * @throws IllegalArgumentException when {@code changes} or {@code segments} do not cover every projection, or
     *         the metadata fails {@link CommitPoint#check}
     */
    public CommitPoint commit(final Map<String, String> metadata, final long rows,
                              final List<ProjectionCommit> changes, final int[][] segments) throws IOException {
        if (changes.size() != projections || segments.length != projections) {
            throw new IllegalArgumentException("a commit needs the changes of all " + projections
                    + " projections (got: " + changes.size() + ")");
        }
        CommitPoint.check(metadata);
        final CommitPoint point = new CommitPoint(nextCommitId, System.currentTimeMillis(), rows, metadata);
        final ByteBuffer payload = commitRecord(point, changes);
        final long end = writeRecord(channel, committedEnd, payload);
        channel.force(true);
        // The retained commits and the next id change only once the slot is durable: a failed commit leaves the
        // manifest as it was (issue 22, I/O faults).
        final Deque<Retained> kept = new ArrayDeque<>(retained);
        kept.addLast(new Retained(point, committedEnd, end, segments));
        while (kept.size() > retain) {
            kept.removeFirst();
        }
        writeSlot(end, point.id(), nextCommitId + 1, kept.peekFirst().point.id());
        retained.clear();
        retained.addAll(kept);
        nextCommitId++;
        return point;
    }

    /**
     * Rewrites the manifest when it has grown to twice its size after the last rewrite (see the class comment);
     * the store calls it after a commit returned. A failure leaves the commits durable (the old file stays in place
     * until the new one is moved over it), but the manifest must not be used further: it may have lost its channel.
     *
     * @return whether the manifest was rewritten
     * @throws IOException when preparing, forcing or moving the new file, or reopening it, fails
     */
    public boolean rewriteIfDue() throws IOException {
        if (committedEnd < rewriteAt || retained.isEmpty()) {
            return false;
        }
        rewrite();
        return true;
    }

    /** Rewrites the log as the state at the oldest retained commit followed by the later retained commits. */
    private void rewrite() throws IOException {
        final Retained oldest = retained.peekFirst();
        final Replay base = replay(committedEnd, oldest.point.id());
        final Path tmp = dir.resolve(ManifestDescriptor.TEMP);
        io.deleteIfExists(tmp);
        final long end;
        try (FileChannel ch = io.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            RecordFile.writeFully(ch, ManifestDescriptor.header(), 0);
            long at = writeRecord(ch, ManifestDescriptor.RECORDS, layoutRecord(layout));
            final List<ProjectionCommit> snapshot = new ArrayList<>();
            for (ProjectionState s : base.states) {
                snapshot.add(new ProjectionCommit(new ArrayList<>(s.live()), new long[0], s.activeSegment(),
                        s.activeEnd(), s.nextSegment()));
            }
            at = writeRecord(ch, at, commitRecord(oldest.point, snapshot));
            final long copyFrom = base.commits.get(base.commits.size() - 1).end;
            final long copied = committedEnd - copyFrom;
            long done = 0;
            while (done < copied) {
                done += channel.transferTo(copyFrom + done, copied - done, ch.position(at + done));
            }
            end = at + copied;
            final long lastId = retained.peekLast().point.id();
            RecordFile.writeFully(ch, ManifestDescriptor.slot(1, end, lastId, nextCommitId, oldestRetained),
                    ManifestDescriptor.slotOffset(1));
            ch.force(true);
        }
        channel.close();
        io.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        io.forceDirectory(dir);
        channel = io.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        sequence = 1;
        committedEnd = end;
        final Replay check = replay(end, -1);
        retained.clear();
        retained.addAll(retainable(check.commits));
        rewriteAt = Math.max(minRewriteBytes, 2 * end);
        rewrites++;
    }

    /**
     * The table's encoding, as given at creation.
     *
     * @return a copy of the layout bytes
     */
    public byte[] layout() {
        return layout.clone();
    }

    /**
     * The projections' states at the commit the manifest was opened at (consumed once by the store).
     *
     * @return one state per projection, in layout order, on the first call; {@code null} on later calls
     */
    public List<ProjectionState> openedState() {
        final List<ProjectionState> s = opened;
        opened = null;
        return s;
    }

    /**
     * The last complete commit, empty before the first.
     *
     * @return the last complete commit point, or empty when there is none yet
     */
    public Optional<CommitPoint> lastCommit() {
        return retained.isEmpty() ? Optional.empty() : Optional.of(retained.peekLast().point);
    }

    /**
     * The retained commit points, oldest first.
     *
     * @return a new list of at most {@code retain} commit points, empty before the first commit
     */
    public List<CommitPoint> commits() {
        final List<CommitPoint> out = new ArrayList<>();
        retained.forEach(r -> out.add(r.point));
        return out;
    }

    /**
     * Segments of projection {@code p} that a retained commit refers to: they must not be deleted.
     *
     * @param p the projection's index in layout order, 0 to the number of projections − 1
     * @return a new set of the segment numbers, ascending
     */
    public TreeSet<Integer> retainedSegments(final int p) {
        final TreeSet<Integer> s = new TreeSet<>();
        for (Retained r : retained) {
            for (int segment : r.segments[p]) {
                s.add(segment);
            }
        }
        return s;
    }

    /**
     * The manifest's length.
     *
     * @return the end of the last complete commit, in bytes from the file's start
     */
    public long bytes() {
        return committedEnd;
    }

    /**
     * Times the manifest was rewritten since open.
     *
     * @return the number of rewrites since open
     */
    public long rewrites() {
        return rewrites;
    }

    /**
     * The manifest file.
     *
     * @return {@value ManifestDescriptor#FILE} in the store directory
     */
    public Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
