package io.nearsort.ldi.io;

import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FileIo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The bucket file of one projection, cut into numbered segment files {@code <name>.<number>.seg} (each a
 * {@link RecordFile}) so that the space of retired buckets can be given back by deleting whole files (space
 * reclamation: live buckets of a mostly dead segment are copied forward, then the segment is deleted).
 *
 * <p>Records are appended to the <em>active</em> segment only; once it holds at least {@code segmentBytes} the next
 * append starts a new one, so the other segments are sealed and never written again. A record is addressed by a
 * {@link BucketPointer} (segment, offset).
 *
 * <p>Thread safe: one thread appends (a projection's writer), others read, force and delete concurrently. Memory:
 * one open {@link java.nio.channels.FileChannel} per segment; no buffers are kept.
 */
public final class Segments implements AutoCloseable {
    /** The largest segment size: offsets must fit a {@link BucketPointer}. */
    public static final long MAX_SEGMENT_BYTES = 1L << BucketPointer.OFFSET_BITS;
    private static final String SUFFIX = ".seg";

    private final FileIo io;
    private final Path dir;
    private final String name;
    private final String identity;
    private final long segmentBytes;
    private final Map<Integer, RecordFile> files = new ConcurrentHashMap<>();
    private final Set<Integer> unforced = new TreeSet<>();
    private int active;
    private int nextSegment;
    private boolean created;

    private Segments(final FileIo io, final Path dir, final String name, final String identity,
                     final long segmentBytes) {
        this.io = io;
        this.dir = dir;
        this.name = name;
        this.identity = identity;
        this.segmentBytes = segmentBytes;
    }

    /**
     * The file of segment {@code number} of projection {@code name}.
     *
     * @param dir    the store directory
     * @param name   the projection's name, the file name's prefix
     * @param number the segment number, not negative
     * @return {@code dir/<name>.<number>.seg}, the number zero-padded to at least six digits
     */
    public static Path path(final Path dir, final String name, final int number) {
        return dir.resolve(String.format(java.util.Locale.ROOT, "%s.%06d%s", name, number, SUFFIX));
    }

    /**
     * The segment numbers of projection {@code name}'s files in {@code dir}.
     *
     * @param dir  the store directory
     * @param name the projection's name
     * @return the numbers, ascending; empty when there is no segment file
     * @throws IOException when the directory cannot be listed
     */
    public static List<Integer> list(final Path dir, final String name) throws IOException {
        final Pattern p = Pattern.compile(Pattern.quote(name) + "\\.(\\d{6,})" + Pattern.quote(SUFFIX));
        final List<Integer> numbers = new ArrayList<>();
        try (Stream<Path> all = Files.list(dir)) {
            for (Path f : (Iterable<Path>) all::iterator) {
                final Matcher m = p.matcher(f.getFileName().toString());
                if (m.matches()) {
                    numbers.add(Integer.parseInt(m.group(1)));
                }
            }
        }
        numbers.sort(null);
        return numbers;
    }

    /**
     * Opens the segments of a committed state: every segment in {@code referenced} must exist; the active one is cut
     * back to {@code activeEnd} (bytes after it were written after the commit); files of other numbers are deleted
     * (segments created after the commit, or reclaimed ones whose deletion a crash interrupted).
     *
     * @param io           how the segment files are opened and deleted
     * @param dir          the store directory
     * @param name         the projection's name, the segment files' prefix
     * @param identity     the identity each segment's {@link RecordFile} header holds (must match existing files)
     * @param segmentBytes size at which the active segment is sealed and a new one started
     * @param active       the active segment at the commit
     * @param activeEnd    its committed length, or 0 when it was not created yet
     * @param nextSegment  the number the next new segment gets
     * @param referenced   segments the committed state or a retained commit point refers to
     * @return the open segments, the active one cut back to {@code activeEnd}
     * @throws IOException when a file cannot be opened, cut or deleted; a {@link CorruptFileException} when a
     *         referenced segment is missing or the active one is shorter than {@code activeEnd}
     * @throws IllegalArgumentException when {@code segmentBytes} is not from 1 to {@link #MAX_SEGMENT_BYTES}, or a
     *         file was written for another identity
     */
    public static Segments open(final FileIo io, final Path dir, final String name, final String identity,
                                final long segmentBytes, final int active, final long activeEnd,
                                final int nextSegment, final Set<Integer> referenced) throws IOException {
        if (segmentBytes < 1 || segmentBytes > MAX_SEGMENT_BYTES) {
            throw new IllegalArgumentException("segmentBytes must be in [1, 2^" + BucketPointer.OFFSET_BITS
                    + "] (got: " + segmentBytes + ")");
        }
        final Segments s = new Segments(io, dir, name, identity, segmentBytes);
        s.active = active;
        s.nextSegment = nextSegment;
        try {
            final List<Integer> present = list(dir, name);
            for (int number : present) {
                if (number == active && activeEnd == 0) {
                    io.deleteIfExists(path(dir, name, number)); // created, never committed: starts again empty
                } else if (!referenced.contains(number) && number != active) {
                    io.deleteIfExists(path(dir, name, number));
                }
            }
            for (int number : referenced) {
                final Path f = path(dir, name, number);
                if (!Files.exists(f) && !(number == active && activeEnd == 0)) {
                    throw new CorruptFileException(f, 0, "segment " + number + " of projection " + name
                            + " is referenced by a commit point but missing");
                }
            }
            if (activeEnd > 0) {
                final Path f = path(dir, name, active);
                if (!Files.exists(f)) {
                    throw new CorruptFileException(f, 0, "the active segment of projection " + name + " is missing");
                }
                final RecordFile file = RecordFile.open(io, f, identity);
                s.files.put(active, file);
                if (file.size() < activeEnd) {
                    throw new CorruptFileException(f, file.size(), "segment is " + file.size() + " bytes, shorter"
                            + " than its committed " + activeEnd + ": truncated");
                }
                if (file.size() > activeEnd) {
                    file.truncate(activeEnd);
                }
            }
            for (int number : referenced) {
                if (!s.files.containsKey(number) && Files.exists(path(dir, name, number))) {
                    s.files.put(number, RecordFile.open(io, path(dir, name, number), identity));
                }
            }
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    /**
     * Appends a record to the active segment (starting a new one when it is full); returns its pointer.
     *
     * @param payload the record's payload, from its position to its limit; its position ends at its limit
     * @return the {@link BucketPointer} of the record
     * @throws IOException when a new segment cannot be created or the write fails
     */
    public long append(final ByteBuffer payload) throws IOException {
        final RecordFile file;
        final int segment;
        synchronized (this) {
            RecordFile current = files.get(active);
            if (current == null || current.size() >= segmentBytes) {
                if (current != null) {
                    active = nextSegment;
                }
                if (active >= nextSegment) {
                    nextSegment = active + 1;
                }
                current = RecordFile.open(io, path(dir, name, active), identity);
                files.put(active, current);
                created = true;
            }
            file = current;
            segment = active;
            unforced.add(segment);
        }
        return BucketPointer.of(segment, file.append(payload));
    }

    /**
     * Reads and verifies the record {@code pointer} points to, whose payload is {@code length} bytes.
     *
     * @param pointer the record's {@link BucketPointer}, as {@link #append} returned it
     * @param length  the record's payload bytes
     * @return the verified payload
     * @throws IOException when the read fails; a {@link CorruptFileException} when the record is corrupt
     * @throws UncheckedIOException when the pointer's segment is not open
     */
    public ByteBuffer read(final long pointer, final int length) throws IOException {
        return file(BucketPointer.segment(pointer)).read(BucketPointer.offset(pointer), length);
    }

    /**
     * The file of segment {@code number}; throws naming it when it is not open (deleted or never created).
     *
     * @param number the segment number
     * @return the segment's open file
     * @throws UncheckedIOException wrapping a {@link CorruptFileException} when the segment is not open
     */
    public RecordFile file(final int number) {
        final RecordFile f = files.get(number);
        if (f == null) {
            throw new UncheckedIOException(new CorruptFileException(path(dir, name, number), 0, "segment " + number
                    + " is not part of the store (deleted or never written)"));
        }
        return f;
    }

    /**
     * Whether segment {@code number} exists.
     *
     * @param number the segment number
     * @return whether the segment's file is open here
     */
    public boolean has(final int number) {
        return files.containsKey(number);
    }

    /**
     * Makes every append so far durable; returns whether a segment file was created since the last call (its
     * directory entry must then be made durable too).
     *
     * @return whether a segment file was created since the last call
     * @throws IOException when forcing a segment fails
     */
    public boolean force() throws IOException {
        final List<RecordFile> toForce = new ArrayList<>();
        final boolean newFiles;
        synchronized (this) {
            for (int s : unforced) {
                final RecordFile f = files.get(s);
                if (f != null) {
                    toForce.add(f);
                }
            }
            unforced.clear();
            newFiles = created;
            created = false;
        }
        for (RecordFile f : toForce) {
            f.force();
        }
        return newFiles;
    }

    /**
     * The state a commit records: the active segment, its length and the next segment number, read together.
     *
     * @return {@code {active, its length in bytes (0 when not created yet), next segment number}}
     */
    public synchronized long[] activeState() {
        final RecordFile f = files.get(active);
        return new long[] {active, f == null ? 0 : f.size(), nextSegment};
    }

    /**
     * The segment being appended to.
     *
     * @return the active segment's number
     */
    public synchronized int active() {
        return active;
    }

    /**
     * Numbers of the segments open.
     *
     * @return the numbers, ascending, in a new list
     */
    public List<Integer> numbers() {
        final List<Integer> n = new ArrayList<>(files.keySet());
        n.sort(null);
        return n;
    }

    /**
     * Bytes of records (headers excluded) segment {@code number} holds, 0 when it does not exist.
     *
     * @param number the segment number
     * @return the bytes after the segment file's header (record headers included), 0 when it is not open
     */
    public long recordBytes(final int number) {
        final RecordFile f = files.get(number);
        return f == null ? 0 : f.size() - f.dataStart();
    }

    /**
     * Bytes of every segment file.
     *
     * @return the open segment files' sizes summed, their headers included
     */
    public long bytes() {
        long sum = 0;
        for (RecordFile f : files.values()) {
            sum += f.size();
        }
        return sum;
    }

    /**
     * Deletes a sealed segment.
     *
     * @param number the segment number; nothing happens when it is not open
     * @throws IOException when the file cannot be closed or deleted
     * @throws IllegalStateException when {@code number} is the active segment
     */
    public void delete(final int number) throws IOException {
        synchronized (this) {
            if (number == active) {
                throw new IllegalStateException("segment " + number + " of " + name + " is active: not deleted");
            }
        }
        final RecordFile f = files.remove(number);
        if (f != null) {
            f.close();
            io.deleteIfExists(f.path());
        }
    }

    /**
     * The store directory.
     *
     * @return the directory holding the segment files
     */
    public Path directory() {
        return dir;
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (RecordFile f : files.values()) {
            try {
                f.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        files.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
