package io.nearsort.core.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.CopyOption;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A {@link FileIo} that can simulate a power loss, for tests of what a structure's {@code force} calls make
 * durable (the role of RocksDB's {@code FaultInjectionTestFS}, which drops the data not synced). A process kill
 * cannot show a missing {@code force}: the operating system keeps the pages written. This I/O remembers, for
 * every file reached through it, its content as of its last {@link FileChannel#force} (the <em>durable
 * image</em>) and which {@value #SECTOR}-byte sectors were written or truncated since. {@link #powerLoss(Random)}
 * then stops everything (every later call through this I/O or its channels throws, as if the machine were off)
 * and rewrites each file to what a disk might hold after the power came back.
 *
 * <p>The model:
 * <ul>
 *   <li>A file that existed when this I/O first opened it is durable as it was then.</li>
 *   <li>{@code force} (either form) makes the file's whole current content durable.</li>
 *   <li>At a power loss every sector written since the file's last {@code force} is lost: with
 *   {@link #powerLoss()} all of them (the file is its durable image), with {@link #powerLoss(Random)} any subset of
 *   them, chosen by the random source (a disk may have written some of the unforced sectors in any order, so a
 *   write larger than a sector can be torn at a sector boundary). The file's length is then either its durable or
 *   its current length (or enough to hold the last sector kept); a sector neither kept nor durable reads as
 *   zeros.</li>
 *   <li>A file created through this I/O and never forced has an empty durable image: after a power loss it is
 *   empty, or (random mode) holds some of its sectors, or has vanished.</li>
 *   <li>Directory entries are <em>not</em> modelled: a creation, {@link #move} or {@link #deleteIfExists} is
 *   durable once it returns, as if every directory were forced at once. Which of them were not followed by a
 *   {@code force} of their directory (a channel opened on the directory and forced) is recorded, and
 *   {@link #unsyncedDirectoryOperations()} lists them, so that a test can report what a file system that loses
 *   directory entries might lose.</li>
 *   <li>Not modelled either: memory-mapped files ({@link FileChannel#map} is refused), writes made around this
 *   I/O, a {@code force} that fails or lies, and corruption of sectors not written since the last {@code force}.</li>
 * </ul>
 *
 * <p>A test runs a structure over this I/O, calls {@link #powerLoss(Random)} at a moment of its choice (the
 * structure abandoned, its channels open or not; or the power went off inside a call, {@link #cutPowerAt}), may
 * then close the structure (its writes fail, as the machine is off), and reopens the files through another I/O. A
 * channel this I/O opened still says it is open after a power loss, but every call on it throws, except
 * {@code close}. Thread safe. Writes through its channels are recorded after the delegate made them;
 * {@link #powerLoss(Random)} waits for the calls in progress.
 */
public final class PowerLossFileIo implements FileIo {
    /** The sector size: the unit in which unforced writes are kept or lost. */
    public static final int SECTOR = 512;

    private final FileIo delegate;
    /** Held shared by every call through this I/O, exclusively by {@link #powerLoss(Random)}. */
    private final ReentrantReadWriteLock power = new ReentrantReadWriteLock();
    private final Map<Path, FileState> files = new HashMap<>();
    private final Set<PowerChannel> channels = new LinkedHashSet<>();
    private final List<DirectoryOperation> unsyncedDirectoryOperations = new ArrayList<>();
    private final AtomicLong changes = new AtomicLong();
    /** The value of {@link #changes} at which the power goes off. */
    private volatile long cutAt = Long.MAX_VALUE;
    /** Whether calls are refused: the power went off (at {@link #cutPowerAt}'s call, or by {@link #powerLoss}). */
    private volatile boolean off;
    /** Whether {@link #powerLoss} rewrote the files. */
    private boolean lost;

    /**
     * Records the files reached through {@code delegate}.
     *
     * @param delegate the file system calls go to: {@link FileIo#standard()}, or a {@link FaultInjectingFileIo}
     */
    public PowerLossFileIo(final FileIo delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** What is known of one file: its durable image and the sectors written since. */
    private static final class FileState {
        Path path;
        /** The content as of the last force; null for a file created here and never forced. */
        byte[] durable;
        /** Sectors written or truncated since the last force. */
        final BitSet dirty = new BitSet();
        boolean deleted;
        final boolean directory;

        FileState(final Path path, final byte[] durable, final boolean directory) {
            this.path = path;
            this.durable = durable;
            this.directory = directory;
        }

        synchronized void written(final long from, final long to) {
            if (to > from) {
                dirty.set((int) (from / SECTOR), (int) ((to - 1) / SECTOR) + 1);
            }
        }
    }

    /** A creation, rename or deletion in {@code dir}, described by {@code text}. */
    private record DirectoryOperation(Path dir, String text) {
    }

    private static Path key(final Path path) {
        return path.toAbsolutePath().normalize();
    }

    private void on() throws IOException {
        power.readLock().lock();
        if (off) {
            power.readLock().unlock();
            throw new IOException("the power is off (PowerLossFileIo.powerLoss was called)");
        }
    }

    /** Counts one call that changes a file or a directory; at {@link #cutAt} the power goes off instead. */
    private void change(final String what) throws IOException {
        final long n = changes.incrementAndGet();
        if (n >= cutAt) {
            off = true;
            throw new IOException("the power went off at change #" + n + " (" + what + ")");
        }
    }

    /**
     * Makes the power go off at the {@code nth} call from now that changes a file or a directory (a write,
     * truncation, {@code force}, {@link #move} or {@link #deleteIfExists}): that call throws an
     * {@link IOException} having done nothing, and so does every later call, as after {@link #powerLoss(Random)};
     * the files are rewritten by the next {@link #powerLoss(Random)}. So a test can cut the power in the middle of a
     * flush: count the changes of a run with {@link #changes()}, then cut at a random one.
     *
     * @param nth which change, from 1
     * @return this instance
     * @throws IllegalArgumentException when {@code nth} is below 1
     */
    public PowerLossFileIo cutPowerAt(final long nth) {
        if (nth < 1) {
            throw new IllegalArgumentException("nth must be at least 1 (got: " + nth + ")");
        }
        cutAt = changes.get() + nth;
        return this;
    }

    /**
     * The calls that changed a file or a directory so far (the one the power went off at included).
     *
     * @return writes, truncations, forces, renames and deletions made through this I/O
     */
    public long changes() {
        return changes.get();
    }

    /**
     * Whether the power is off: {@link #cutPowerAt}'s call was reached, or {@link #powerLoss(Random)} was called.
     *
     * @return whether every call now throws
     */
    public boolean isOff() {
        return off;
    }

    private void release() {
        power.readLock().unlock();
    }

    @Override
    public FileChannel open(final Path path, final OpenOption... options) throws IOException {
        on();
        try {
            final Path key = key(path);
            final boolean existed = Files.exists(key);
            final FileChannel channel = delegate.open(path, options);
            final FileState state;
            synchronized (this) {
                FileState s = files.get(key);
                if (s == null) {
                    final boolean directory = Files.isDirectory(key);
                    s = new FileState(key, existed && !directory ? Files.readAllBytes(key) : null, directory);
                    files.put(key, s);
                    if (!existed) {
                        unsyncedDirectoryOperations.add(new DirectoryOperation(key.getParent(), "create " + key));
                    }
                }
                state = s;
                final PowerChannel c = new PowerChannel(this, path, channel, state);
                channels.add(c);
                return c;
            }
        } finally {
            release();
        }
    }

    @Override
    public void move(final Path source, final Path target, final CopyOption... options) throws IOException {
        on();
        try {
            change("move " + source);
            delegate.move(source, target, options);
            synchronized (this) {
                final Path from = key(source);
                final Path to = key(target);
                final FileState replaced = files.remove(to);
                if (replaced != null) {
                    replaced.deleted = true;
                }
                final FileState moved = files.remove(from);
                if (moved != null) {
                    moved.path = to;
                    files.put(to, moved);
                }
                unsyncedDirectoryOperations.add(new DirectoryOperation(to.getParent(),
                        "move " + from + " to " + to));
            }
        } finally {
            release();
        }
    }

    @Override
    public boolean deleteIfExists(final Path path) throws IOException {
        on();
        try {
            change("delete " + path);
            final boolean deleted = delegate.deleteIfExists(path);
            synchronized (this) {
                final FileState state = files.remove(key(path));
                if (state != null) {
                    state.deleted = true;
                }
                if (deleted) {
                    unsyncedDirectoryOperations.add(new DirectoryOperation(key(path).getParent(),
                            "delete " + key(path)));
                }
            }
            return deleted;
        } finally {
            release();
        }
    }

    /** A force of {@code state}'s file: its whole content becomes durable (a directory: its entries). */
    private void forced(final FileState state) throws IOException {
        if (state.directory) {
            synchronized (this) {
                unsyncedDirectoryOperations.removeIf(op -> state.path.equals(op.dir()));
            }
            return;
        }
        synchronized (state) {
            if (state.deleted) {
                return;
            }
            try {
                state.durable = Files.readAllBytes(state.path);
            } catch (final NoSuchFileException gone) {
                return; // deleted around this I/O
            }
            state.dirty.clear();
        }
    }

    /**
     * Cuts the power (if {@link #cutPowerAt} did not already), dropping every write not forced: each file becomes
     * its durable image (a file created and never forced becomes empty). Every later call through this I/O or a
     * channel it opened throws.
     *
     * @return what was rewritten, one line per file, for test messages
     * @throws IOException when a file cannot be rewritten
     * @throws IllegalStateException when the files were rewritten already
     */
    public String powerLoss() throws IOException {
        return powerLoss(null);
    }

    /**
     * Cuts the power (if {@link #cutPowerAt} did not already): waits for the calls in progress, closes every channel
     * this I/O opened (releasing their locks), refuses every later call, and rewrites each file it recorded to what
     * a disk may hold afterwards. With a random
     * source, each file keeps a random subset of its sectors written since its last {@code force} (all, none or
     * each with probability one half, chosen per file), its length is its durable or its current one, and a file
     * created and never forced vanishes with probability one quarter; without one, every unforced write is dropped.
     *
     * @param random the random source deciding what an unforced write left behind; null to drop every one
     * @return what was rewritten, one line per file, for test messages
     * @throws IOException when a file cannot be rewritten
     * @throws IllegalStateException when the files were rewritten already
     */
    public String powerLoss(final Random random) throws IOException {
        power.writeLock().lock();
        try {
            if (lost) {
                throw new IllegalStateException("the power was lost already");
            }
            lost = true;
            off = true;
            final List<PowerChannel> open;
            synchronized (this) {
                open = new ArrayList<>(channels);
                channels.clear();
            }
            for (final PowerChannel c : open) {
                try {
                    c.delegate().close();
                } catch (final IOException ignored) {
                    // The machine is off: nothing more reaches the file.
                }
            }
            final StringBuilder report = new StringBuilder();
            final Map<Path, FileState> sorted;
            synchronized (this) {
                sorted = new TreeMap<>(files);
            }
            for (final FileState state : sorted.values()) {
                if (state.directory || state.deleted || !Files.exists(state.path)) {
                    continue;
                }
                report.append(restore(state, random)).append('\n');
            }
            return report.toString();
        } finally {
            power.writeLock().unlock();
        }
    }

    /** Rewrites one file to its state after the power loss; returns a line saying what it did. */
    private static String restore(final FileState state, final Random random) throws IOException {
        final byte[] current = Files.readAllBytes(state.path);
        final byte[] durable = state.durable == null ? new byte[0] : state.durable;
        if (random == null) {
            if (state.durable == null && state.dirty.isEmpty() && current.length == 0) {
                return state.path + ": empty, never forced";
            }
            Files.write(state.path, durable);
            return state.path + ": " + (state.durable == null ? "never forced, now empty"
                    : "durable image, " + state.dirty.cardinality() + " unforced sectors dropped");
        }
        if (state.durable == null && random.nextInt(4) == 0) {
            Files.delete(state.path);
            return state.path + ": never forced, vanished";
        }
        final int mode = random.nextInt(3); // 0: keep none, 1: keep each with p = 1/2, 2: keep all
        final BitSet kept = new BitSet();
        for (int s = state.dirty.nextSetBit(0); s >= 0; s = state.dirty.nextSetBit(s + 1)) {
            if (mode == 2 || (mode == 1 && random.nextBoolean())) {
                kept.set(s);
            }
        }
        long length = durable.length == current.length || random.nextBoolean() ? durable.length : current.length;
        if (!kept.isEmpty()) {
            length = Math.max(length, Math.min(current.length, (long) kept.length() * SECTOR));
        }
        final byte[] result = new byte[(int) length];
        for (int s = 0; (long) s * SECTOR < length; s++) {
            final byte[] from = kept.get(s) ? current : durable;
            final int start = s * SECTOR;
            final int n = Math.max(0, Math.min(Math.min(SECTOR, result.length - start), from.length - start));
            if (n > 0) {
                System.arraycopy(from, start, result, start, n);
            }
        }
        Files.write(state.path, result);
        return state.path + ": " + kept.cardinality() + " of " + state.dirty.cardinality()
                + " unforced sectors kept, length " + length + " (durable " + durable.length + ", written "
                + current.length + ")" + (state.durable == null ? ", never forced" : "");
    }

    /**
     * The creations, renames and deletions made through this I/O that no {@code force} of their directory followed,
     * in order: what a file system that does not keep directory entries until the directory is forced might lose.
     * They are applied durably all the same (see the class comment).
     *
     * @return lines such as {@code "move /tmp/s/MANIFEST.tmp to /tmp/s/MANIFEST"}
     */
    public synchronized List<String> unsyncedDirectoryOperations() {
        return unsyncedDirectoryOperations.stream().map(DirectoryOperation::text).toList();
    }

    private synchronized void closed(final PowerChannel channel) {
        channels.remove(channel);
    }

    @Override
    public String toString() {
        return "PowerLossFileIo{" + delegate + "}";
    }

    /** A channel whose writes, truncations and forces are recorded, and which stops when the power is off. */
    private static final class PowerChannel extends ForwardingFileChannel {
        private final PowerLossFileIo io;
        private final FileState state;

        PowerChannel(final PowerLossFileIo io, final Path path, final FileChannel channel, final FileState state) {
            super(path, channel);
            this.io = io;
            this.state = state;
        }

        FileChannel delegate() {
            return delegate;
        }

        @Override
        protected <T> T forward(final String verb, final IoCall<T> call) throws IOException {
            if (verb.equals("closing")) {
                io.closed(this);
                return call.run(); // closing works with the power off: it only releases the descriptor
            }
            io.on();
            try {
                if (verb.equals("writing") || verb.equals("truncating") || verb.equals("forcing")
                        || verb.equals("copying to")) {
                    io.change(verb + " " + path);
                }
                return call.run();
            } finally {
                io.release();
            }
        }

        @Override
        public int write(final ByteBuffer src) throws IOException {
            return forward("writing", () -> {
                final int n = delegate.write(src);
                final long end = delegate.position();
                state.written(end - n, end);
                return n;
            });
        }

        @Override
        public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException {
            return forward("writing", () -> {
                final long n = delegate.write(srcs, offset, length);
                final long end = delegate.position();
                state.written(end - n, end);
                return n;
            });
        }

        @Override
        public int write(final ByteBuffer src, final long position) throws IOException {
            return forward("writing", () -> {
                final int n = delegate.write(src, position);
                state.written(position, position + Math.max(0, n));
                return n;
            });
        }

        @Override
        public FileChannel truncate(final long size) throws IOException {
            forward("truncating", () -> {
                final long before = delegate.size();
                delegate.truncate(size);
                state.written(size, before);
                return null;
            });
            return this;
        }

        @Override
        public long transferFrom(final ReadableByteChannel src, final long position, final long count)
                throws IOException {
            return forward("copying to", () -> {
                final long n = delegate.transferFrom(src, position, count);
                state.written(position, position + n);
                return n;
            });
        }

        @Override
        public long transferTo(final long position, final long count, final WritableByteChannel target)
                throws IOException {
            return forward("copying from", () -> delegate.transferTo(position, count, target));
        }

        @Override
        public void force(final boolean metaData) throws IOException {
            forward("forcing", () -> {
                delegate.force(metaData);
                io.forced(state);
                return null;
            });
        }

        @Override
        public MappedByteBuffer map(final MapMode mode, final long position, final long size) {
            throw new UnsupportedOperationException("PowerLossFileIo cannot see writes to mapped memory (" + path
                    + ")");
        }

        @Override
        public FileLock lock(final long position, final long size, final boolean shared) throws IOException {
            return forward("locking", () -> delegate.lock(position, size, shared));
        }
    }
}
