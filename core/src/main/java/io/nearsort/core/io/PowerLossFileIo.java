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
 * durable (the role of RocksDB's {@code FaultInjectionTestFS}, which drops the data not synced and the directory
 * entries not synced). A process kill cannot show a missing {@code force}: the operating system keeps the pages
 * written and the directory entries made. This I/O remembers, for every file reached through it, its content as of
 * its last {@link FileChannel#force} (the <em>durable image</em>) and which {@value #SECTOR}-byte sectors were
 * written or truncated since; and, for every directory, the creations, renames and deletions made in it since its
 * last force ({@link FileIo#forceDirectory}). {@link #powerLoss(Random)} then stops everything (every later call
 * through this I/O or its channels throws, as if the machine were off) and rewrites the files to what a disk might
 * hold after the power came back.
 *
 * <p>The model of a file's content:
 * <ul>
 *   <li>A file that existed when this I/O first reached it (opened, renamed or deleted it) is durable as it was
 *   then, and so is its directory entry.</li>
 *   <li>{@code force} (either form) makes the file's whole current content durable, not its directory entry.</li>
 *   <li>At a power loss every sector written since the file's last {@code force} is lost: with
 *   {@link #powerLoss()} all of them (the file is its durable image), with {@link #powerLoss(Random)} any subset of
 *   them, chosen by the random source (a disk may have written some of the unforced sectors in any order, so a
 *   write larger than a sector can be torn at a sector boundary). The file's length is then either its durable or
 *   its current length (or enough to hold the last sector kept); a sector neither kept nor durable reads as
 *   zeros. A file never forced has an empty durable image.</li>
 * </ul>
 *
 * <p>The model of directory entries (as ext4 and XFS behave, without relying on the implicit commits of their
 * journals): a creation (an {@link #open} that created the file), a {@link #move} and a {@link #deleteIfExists} are
 * durable only once their directory is forced (a channel opened on the directory through this I/O and forced, as
 * {@link FileIo#forceDirectory} does). At a power loss each directory's entries revert to their state at its last
 * force: the operations made in it since are undone, newest first.
 * <ul>
 *   <li>A file created since disappears, whatever was forced of its content.</li>
 *   <li>A file deleted since reappears, restored as any file is: its durable image (empty if its content was never
 *   forced), plus with a random source some of the sectors written before its deletion. Of the two things a real
 *   file system may show for an unlinked file whose content was never forced, an empty file or the data it held,
 *   this takes both: {@link #powerLoss()} the empty one, a random source either.</li>
 *   <li>A rename since is undone: the file is back under its old name, and a file the rename replaced is back under
 *   the new one, each with its own durable image.</li>
 *   <li>With a random source, each directory may instead keep the oldest of its operations since its force (a
 *   prefix, of random length in half the cases, none in the other half): a journaling file system commits its
 *   metadata in order, now and then without being asked (ext4's periodic commit, a {@code fsync} of another file
 *   that commits the running transaction), so a later operation is never durable without the earlier ones of its
 *   directory. {@link #powerLoss()} undoes them all.</li>
 * </ul>
 *
 * <p>Not modelled: directories themselves (created or deleted around this I/O, their own entries are taken as
 * durable), renames from one directory to another (refused), memory-mapped files ({@link FileChannel#map} is
 * refused), writes made around this I/O, writes and forces through a channel after its file was deleted or replaced
 * (a file that reappears holds what it held when it was unlinked), a {@code force} that fails or lies, and
 * corruption of sectors not written since the last {@code force}.
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
    /** The creations, renames and deletions no force of their directory followed yet, in order. */
    private final List<DirectoryOperation> unsynced = new ArrayList<>();
    /** Every creation, rename and deletion made, in order. */
    private final List<String> directoryOperations = new ArrayList<>();
    /** The number of {@link #directoryOperations} after which the power goes off. */
    private long cutAfterOperation = Long.MAX_VALUE;
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

    /** What is known of one file (an inode): its durable image and the sectors written since. */
    private static final class FileState {
        /** Its name while it is linked; its last name once unlinked. */
        Path path;
        /** The content as of the last force; null for a file never forced. */
        byte[] durable;
        /** Sectors written or truncated since the last force. */
        final BitSet dirty = new BitSet();
        /** Its content when it was deleted or replaced by a rename; null while it is linked. */
        byte[] unlinked;
        final boolean directory;

        FileState(final Path path, final byte[] durable, final boolean directory) {
            this.path = path;
            this.durable = durable;
            this.directory = directory;
        }

        synchronized void unlinked(final byte[] content) {
            unlinked = content;
        }

        synchronized void written(final long from, final long to) {
            if (to > from) {
                dirty.set((int) (from / SECTOR), (int) ((to - 1) / SECTOR) + 1);
            }
        }
    }

    /**
     * A creation ({@code from} null), deletion ({@code to} null) or rename in {@code dir} not yet made durable by a
     * force of {@code dir}: {@code file} left {@code from} and took {@code to}, replacing {@code replaced} (or
     * nothing).
     */
    private record DirectoryOperation(Path dir, Path from, Path to, FileState file, FileState replaced) {
        /** Undoes the operation in {@code entries}, a directory's names and files. */
        void undo(final Map<Path, FileState> entries) {
            if (to != null) {
                if (replaced != null) {
                    entries.put(to, replaced);
                } else {
                    entries.remove(to);
                }
            }
            if (from != null) {
                entries.put(from, file);
            }
        }

        String text() {
            return from == null ? "create " + to : to == null ? "delete " + from : "move " + from + " to " + to;
        }
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
     * Makes the power go off right after the {@code nth} creation, rename or deletion from now: that operation is
     * made, and the next change (a write, truncation, {@code force}, rename or deletion of any file) finds the power
     * off, as if {@link #cutPowerAt cutPowerAt(1)} were called when the operation returned. So a test can lose the
     * power at the moment a directory entry changed, before anything else reached the disk; when nothing follows,
     * its {@link #powerLoss(Random)} comes at that moment anyway.
     *
     * @param nth which operation, from 1, as {@link #directoryOperations()} would list it
     * @return this instance
     * @throws IllegalArgumentException when {@code nth} is below 1
     */
    public synchronized PowerLossFileIo cutPowerAfterDirectoryOperation(final long nth) {
        if (nth < 1) {
            throw new IllegalArgumentException("nth must be at least 1 (got: " + nth + ")");
        }
        cutAfterOperation = directoryOperations.size() + nth;
        return this;
    }

    /**
     * Every creation, rename and deletion made through this I/O so far, in order, forced or not.
     *
     * @return lines such as {@code "delete /tmp/a.lab.journal"}, in a new list
     */
    public synchronized List<String> directoryOperations() {
        return new ArrayList<>(directoryOperations);
    }

    /** Records {@code op}, not durable until its directory is forced. Called holding this I/O's lock. */
    private void record(final DirectoryOperation op) {
        unsynced.add(op);
        directoryOperations.add(op.text());
        if (directoryOperations.size() == cutAfterOperation) {
            cutAt = Math.min(cutAt, changes.get() + 1);
        }
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
            synchronized (this) {
                FileState state = files.get(key);
                if (state == null || !existed) { // not seen yet, or deleted around this I/O and created again
                    final boolean directory = Files.isDirectory(key);
                    state = new FileState(key, existed && !directory ? Files.readAllBytes(key) : null, directory);
                    files.put(key, state);
                    if (!existed) {
                        record(new DirectoryOperation(key.getParent(), null, key, state, null));
                    }
                }
                final PowerChannel c = new PowerChannel(this, path, channel, state);
                channels.add(c);
                return c;
            }
        } finally {
            release();
        }
    }

    /**
     * The state of the file {@code key} names now, recording one this I/O has not reached yet (durable as it is);
     * null when there is none. Called before the file is renamed or deleted, so that the operation can be undone.
     */
    private FileState linked(final Path key) throws IOException {
        final FileState known = files.get(key);
        if (known != null || !Files.isRegularFile(key)) {
            return known;
        }
        final FileState state = new FileState(key, Files.readAllBytes(key), false);
        files.put(key, state);
        return state;
    }

    /** What {@code state}'s file holds now, read before it is deleted or replaced: what may reappear. */
    private static byte[] content(final FileState state) throws IOException {
        if (state == null || state.directory) {
            return null;
        }
        try {
            return Files.readAllBytes(state.path);
        } catch (final NoSuchFileException gone) {
            return new byte[0]; // deleted around this I/O
        }
    }

    @Override
    public void move(final Path source, final Path target, final CopyOption... options) throws IOException {
        on();
        try {
            change("move " + source);
            final Path from = key(source);
            final Path to = key(target);
            if (!Objects.equals(from.getParent(), to.getParent())) {
                throw new UnsupportedOperationException("PowerLossFileIo does not model a rename from one directory"
                        + " to another (" + from + " to " + to + ")");
            }
            synchronized (this) {
                final FileState moved = linked(from);
                final FileState replaced = linked(to);
                final byte[] replacedContent = content(replaced);
                delegate.move(source, target, options);
                files.remove(to);
                if (replacedContent != null) {
                    replaced.unlinked(replacedContent);
                }
                if (moved != null) {
                    files.remove(from);
                    moved.path = to;
                    files.put(to, moved);
                    record(new DirectoryOperation(to.getParent(), from, to, moved, replaced));
                }
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
            final Path key = key(path);
            synchronized (this) {
                final FileState state = linked(key);
                final byte[] content = content(state);
                final boolean deleted = delegate.deleteIfExists(path);
                files.remove(key);
                if (deleted && content != null) {
                    state.unlinked(content);
                    record(new DirectoryOperation(key.getParent(), key, null, state, null));
                }
                return deleted;
            }
        } finally {
            release();
        }
    }

    /** A force of {@code state}'s file: its whole content becomes durable (a directory: its entries). */
    private void forced(final FileState state) throws IOException {
        if (state.directory) {
            synchronized (this) {
                unsynced.removeIf(op -> state.path.equals(op.dir()));
            }
            return;
        }
        synchronized (state) {
            if (state.unlinked != null) {
                return; // not modelled: a file that reappears holds what it held when it was unlinked
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
     * Cuts the power (if {@link #cutPowerAt} did not already), dropping every write and every directory operation
     * not forced: each directory's entries are as of its last force, each file is its durable image (a file never
     * forced is empty). Every later call through this I/O or a channel it opened throws.
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
     * this I/O opened (releasing their locks), refuses every later call, and rewrites the files it recorded to what
     * a disk may hold afterwards (see the class comment). Without a random source, every directory operation and
     * every write not forced is dropped. With one, each directory keeps the oldest of its operations since its last
     * force (none in half the cases, otherwise a prefix of random length), and each file keeps a random subset of
     * its sectors written since its last {@code force} (all, none or each with probability one half, chosen per
     * file), its length its durable or its current one.
     *
     * @param random the random source deciding what an unforced operation left behind; null to drop every one
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
            final Map<Path, FileState> linked = new TreeMap<>();
            final Map<Path, List<DirectoryOperation>> byDirectory = new TreeMap<>();
            synchronized (this) {
                open = new ArrayList<>(channels);
                channels.clear();
                files.forEach((path, state) -> {
                    if (!state.directory) {
                        linked.put(path, state);
                    }
                });
                for (final DirectoryOperation op : unsynced) {
                    byDirectory.computeIfAbsent(op.dir(), d -> new ArrayList<>()).add(op);
                }
            }
            for (final PowerChannel c : open) {
                try {
                    c.delegate().close();
                } catch (final IOException ignored) {
                    // The machine is off: nothing more reaches the file.
                }
            }
            // The entries after the power loss: each directory's operations since its force undone, newest first.
            final Map<Path, FileState> entries = new TreeMap<>(linked);
            final Map<Path, String> undone = new TreeMap<>();
            for (final List<DirectoryOperation> ops : byDirectory.values()) {
                final int kept = random == null || random.nextBoolean() ? 0 : random.nextInt(ops.size() + 1);
                for (int k = ops.size() - 1; k >= kept; k--) {
                    ops.get(k).undo(entries);
                    final Path name = ops.get(k).to() != null ? ops.get(k).to() : ops.get(k).from();
                    undone.merge(name, "undone: " + ops.get(k).text(), (a, b) -> b + ", " + a);
                }
            }
            // What every file to restore holds now, read before any is removed or rewritten.
            final Map<FileState, byte[]> current = new HashMap<>();
            for (final FileState state : entries.values()) {
                final byte[] held = state.unlinked != null ? state.unlinked : read(state.path);
                if (held != null) {
                    current.put(state, held);
                }
            }
            final StringBuilder report = new StringBuilder();
            for (final Path path : linked.keySet()) {
                if (entries.get(path) != linked.get(path)) {
                    Files.deleteIfExists(path);
                }
            }
            for (final Map.Entry<Path, FileState> e : entries.entrySet()) {
                final byte[] held = current.get(e.getValue());
                if (held != null) {
                    report.append(restore(e.getKey(), e.getValue(), held, random)).append('\n');
                }
            }
            for (final Map.Entry<Path, String> u : undone.entrySet()) {
                report.append(u.getKey()).append(": ").append(u.getValue())
                        .append(entries.containsKey(u.getKey()) ? "" : ", gone").append('\n');
            }
            return report.toString();
        } finally {
            power.writeLock().unlock();
        }
    }

    /** The content of {@code path}, or null when it is gone (deleted around this I/O). */
    private static byte[] read(final Path path) throws IOException {
        try {
            return Files.readAllBytes(path);
        } catch (final NoSuchFileException gone) {
            return null;
        }
    }

    /** Writes {@code path} as {@code state}'s file after the power loss, {@code current} what it held; says what. */
    private static String restore(final Path path, final FileState state, final byte[] current, final Random random)
            throws IOException {
        final byte[] durable = state.durable == null ? new byte[0] : state.durable;
        if (random == null) {
            Files.write(path, durable);
            return path + ": " + (state.durable == null ? "never forced, now empty"
                    : "durable image, " + state.dirty.cardinality() + " unforced sectors dropped");
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
        Files.write(path, result);
        return path + ": " + kept.cardinality() + " of " + state.dirty.cardinality()
                + " unforced sectors kept, length " + length + " (durable " + durable.length + ", written "
                + current.length + ")" + (state.durable == null ? ", never forced" : "");
    }

    /**
     * The creations, renames and deletions made through this I/O that no {@code force} of their directory followed,
     * in order: what a power loss now would undo.
     *
     * @return lines such as {@code "move /tmp/s/MANIFEST.tmp to /tmp/s/MANIFEST"}
     */
    public synchronized List<String> unsyncedDirectoryOperations() {
        return unsynced.stream().map(DirectoryOperation::text).toList();
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
