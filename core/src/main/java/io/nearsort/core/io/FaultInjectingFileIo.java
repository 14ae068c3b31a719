package io.nearsort.core.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.CopyOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * A {@link FileIo} that puts one chosen fault between a structure and its files, for tests of what the structure
 * does under I/O errors (the role of SQLite's I/O-error VFS and RocksDB's {@code FaultInjectionTestFS}).
 *
 * <p>It counts the calls of each {@link Operation} on the files a rule selects and injects its {@link Fault} at the
 * n-th one, so a test can fail each I/O call of a workload in turn: run it once to count the calls
 * ({@link #calls}), then once per n. The faults:
 * <ul>
 *   <li>{@link Fault#FAIL}: the call throws an {@link IOException} naming the file and the call, having read or
 *   written nothing (with {@code sticky}, so does every later call of that operation on those files: a dead
 *   device);</li>
 *   <li>{@link Fault#SHORT_WRITE}: a write writes half its bytes (at least one) and returns that count, which
 *   {@link FileChannel} allows and callers must loop on;</li>
 *   <li>{@link Fault#FLIP_BIT}: a read returns its bytes with one bit flipped (a silent media error, which
 *   checksums must catch);</li>
 *   <li>{@link #diskFullAfter}: writes go on until a number of bytes, the write that crosses it writes the part
 *   that fits and throws "No space left on device", and every later write throws, until {@link #clear()}.</li>
 * </ul>
 * Calls of the other operations, and of other files, pass through to the delegate unchanged. Thread safe; every
 * channel opened through it keeps consulting it, so a rule armed after a file was opened still applies.
 */
public final class FaultInjectingFileIo implements FileIo {
    /** The I/O calls a rule counts and can fault. */
    public enum Operation {
        /** {@link FileIo#open}. */
        OPEN,
        /** A channel read: {@code read} in every form, and the reading side of {@code transferTo}. */
        READ,
        /** A channel write: {@code write} in every form, {@code truncate}, and the writing side of
         *  {@code transferFrom}. */
        WRITE,
        /** {@link FileChannel#force}. */
        FORCE,
        /** {@link FileIo#move}. */
        MOVE,
        /** {@link FileIo#deleteIfExists}. */
        DELETE
    }

    /** What happens at the call a rule selects. */
    public enum Fault {
        /** The call throws an {@link IOException}; nothing is read or written. */
        FAIL,
        /**
         * A write writes half its bytes, at least one, and returns that count (writes only). On a channel opened for
         * direct I/O the half need not be a multiple of the device's block size, and the operating system then
         * refuses it ({@code EINVAL}): test short writes on buffered channels.
         */
        SHORT_WRITE,
        /** A read returns its bytes with one bit flipped (reads only). */
        FLIP_BIT
    }

    private final FileIo delegate;
    private final Map<Operation, Long> calls = new EnumMap<>(Operation.class);
    private Predicate<Path> files = path -> true;
    private Operation operation;
    private long nth;
    private Fault fault;
    private boolean sticky;
    private long diskBytesLeft = -1; // -1: no disk-full rule
    private int injected;
    private String lastInjected;

    /**
     * Injects faults in front of {@code delegate}.
     *
     * @param delegate the file system calls go to, usually {@link FileIo#standard()}
     */
    public FaultInjectingFileIo(final FileIo delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * Arms one rule, replacing any earlier one, and restarts the call counts.
     *
     * @param operation the calls to count
     * @param nth       which of them to fault, from 1
     * @param fault     what happens there; {@link Fault#SHORT_WRITE} needs {@link Operation#WRITE},
     *                  {@link Fault#FLIP_BIT} needs {@link Operation#READ}
     * @param sticky    whether every later call of {@code operation} on the selected files fails too (only with
     *                  {@link Fault#FAIL})
     * @param files     which files the rule counts and faults
     * @return this instance
     * @throws IllegalArgumentException when {@code nth} is below 1 or the fault does not fit the operation
     */
    public synchronized FaultInjectingFileIo inject(final Operation operation, final long nth, final Fault fault,
                                                    final boolean sticky, final Predicate<Path> files) {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(fault, "fault");
        if (nth < 1) {
            throw new IllegalArgumentException("nth must be at least 1 (got: " + nth + ")");
        }
        if ((fault == Fault.SHORT_WRITE && operation != Operation.WRITE)
                || (fault == Fault.FLIP_BIT && operation != Operation.READ)
                || (sticky && fault != Fault.FAIL)) {
            throw new IllegalArgumentException("fault " + fault + (sticky ? " (sticky)" : "") + " does not apply to "
                    + operation);
        }
        clear();
        this.files = Objects.requireNonNull(files, "files");
        this.operation = operation;
        this.nth = nth;
        this.fault = fault;
        this.sticky = sticky;
        return this;
    }

    /**
     * Arms a full disk, replacing any earlier rule, and restarts the call counts: writes to the selected files
     * succeed until {@code bytes} more bytes were written; the write that crosses the limit writes the part that
     * fits and throws, and every later write throws.
     *
     * @param bytes the bytes that still fit, at least 0
     * @param files which files fill the disk
     * @return this instance
     * @throws IllegalArgumentException when {@code bytes} is negative
     */
    public synchronized FaultInjectingFileIo diskFullAfter(final long bytes, final Predicate<Path> files) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be at least 0 (got: " + bytes + ")");
        }
        clear();
        this.files = Objects.requireNonNull(files, "files");
        this.diskBytesLeft = bytes;
        return this;
    }

    /**
     * Only counts calls, on the selected files, from now on: no fault.
     *
     * @param files which files to count
     * @return this instance
     */
    public synchronized FaultInjectingFileIo countOnly(final Predicate<Path> files) {
        clear();
        this.files = Objects.requireNonNull(files, "files");
        return this;
    }

    /**
     * The fault matrix the structures' fault tests run: each kind of injected fault with the call it hits.
     */
    public enum Injection {
        /** A write fails once. */
        FAIL_WRITE(Operation.WRITE, Fault.FAIL, false),
        /** A write fails, and so does every later one. */
        FAIL_WRITE_STICKY(Operation.WRITE, Fault.FAIL, true),
        /** A write writes half its bytes. */
        SHORT_WRITE(Operation.WRITE, Fault.SHORT_WRITE, false),
        /** A {@code force} fails once. */
        FAIL_FORCE(Operation.FORCE, Fault.FAIL, false),
        /** A {@code force} fails, and so does every later one. */
        FAIL_FORCE_STICKY(Operation.FORCE, Fault.FAIL, true),
        /** A read fails once. */
        FAIL_READ(Operation.READ, Fault.FAIL, false),
        /** A read returns one bit flipped. */
        FLIP_BIT_READ(Operation.READ, Fault.FLIP_BIT, false),
        /** An open fails. */
        FAIL_OPEN(Operation.OPEN, Fault.FAIL, false),
        /** A rename fails. */
        FAIL_MOVE(Operation.MOVE, Fault.FAIL, false),
        /** A delete fails. */
        FAIL_DELETE(Operation.DELETE, Fault.FAIL, false);

        /** The calls counted and faulted. */
        public final Operation operation;
        /** What happens at the chosen call. */
        public final Fault fault;
        /** Whether every later call of the operation fails too. */
        public final boolean sticky;

        Injection(final Operation operation, final Fault fault, final boolean sticky) {
            this.operation = operation;
            this.fault = fault;
            this.sticky = sticky;
        }

        /**
         * A fault-injecting I/O over {@link FileIo#standard()} armed with this injection at call {@code nth} of
         * the files {@code files} selects.
         *
         * @param nth   which call, from 1
         * @param files the files whose calls count
         * @return the armed I/O
         */
        public FaultInjectingFileIo arm(final long nth, final Predicate<Path> files) {
            return new FaultInjectingFileIo(FileIo.standard()).inject(operation, nth, fault, sticky, files);
        }
    }

    /**
     * The calls to fault when faulting every one would take too long: every call of {@code 1..total} when there are
     * at most {@code sample}, else the first, the last and one seeded call in each of the {@code sample - 2} equal
     * stretches between them.
     *
     * @param total  the calls counted, at least 0
     * @param sample how many calls to pick at most, at least 3
     * @param seed   the seed of the picks within the stretches
     * @return the calls, ascending, from 1
     * @throws IllegalArgumentException when {@code total} is negative or {@code sample} below 3
     */
    public static List<Long> samplePoints(final long total, final int sample, final long seed) {
        if (total < 0 || sample < 3) {
            throw new IllegalArgumentException("samplePoints needs total >= 0 and sample >= 3 (got: " + total + ", "
                    + sample + ")");
        }
        final TreeSet<Long> out = new TreeSet<>();
        if (total <= sample) {
            for (long n = 1; n <= total; n++) {
                out.add(n);
            }
            return new ArrayList<>(out);
        }
        final SplittableRandom rnd = new SplittableRandom(seed);
        out.add(1L);
        out.add(total);
        final int strata = sample - 2;
        for (int s = 0; s < strata; s++) {
            final long from = 2 + (total - 2) * s / strata;
            final long to = Math.max(from + 1, 2 + (total - 2) * (s + 1) / strata);
            out.add(from + rnd.nextLong(to - from));
        }
        return new ArrayList<>(out);
    }

    /** Disarms every rule (the disk is no longer full) and restarts the call counts; the files selected stay. */
    public synchronized void clear() {
        operation = null;
        fault = null;
        sticky = false;
        diskBytesLeft = -1;
        calls.clear();
        injected = 0;
        lastInjected = null;
    }

    /**
     * The calls of {@code operation} on the selected files since the rule was armed.
     *
     * @param operation the operation
     * @return how many calls were made, faulted ones included
     */
    public synchronized long calls(final Operation operation) {
        return calls.getOrDefault(operation, 0L);
    }

    /**
     * How many faults were injected since the rule was armed.
     *
     * @return the count; 0 when the workload ended before the selected call
     */
    public synchronized int injected() {
        return injected;
    }

    /**
     * The last fault injected, for test messages.
     *
     * @return e.g. {@code "FAIL at WRITE #3 on /tmp/x/store.seg"}, or null when none was
     */
    public synchronized String lastInjected() {
        return lastInjected;
    }

    @Override
    public FileChannel open(final Path path, final OpenOption... options) throws IOException {
        check(Operation.OPEN, path);
        return new FaultyChannel(this, path, delegate.open(path, options));
    }

    @Override
    public void move(final Path source, final Path target, final CopyOption... options) throws IOException {
        check(Operation.MOVE, source);
        delegate.move(source, target, options);
    }

    @Override
    public boolean deleteIfExists(final Path path) throws IOException {
        check(Operation.DELETE, path);
        return delegate.deleteIfExists(path);
    }

    /**
     * Counts one call and decides its fate: throws for {@link Fault#FAIL}, returns the fault to apply otherwise
     * (null for none).
     */
    private synchronized Fault check(final Operation op, final Path path) throws IOException {
        if (!files.test(path)) {
            return null;
        }
        final long call = calls.merge(op, 1L, Long::sum);
        if (op != operation) {
            return null;
        }
        if (call == nth || (sticky && call > nth)) {
            injected++;
            lastInjected = fault + " at " + op + " #" + call + " on " + path;
            if (fault == Fault.FAIL) {
                throw new IOException("injected fault: " + op + " #" + call + " of " + path + " failed");
            }
            return fault;
        }
        return null;
    }

    /**
     * The bytes a write of {@code wanted} bytes to {@code path} may write under the disk-full rule: all of them,
     * fewer (the disk fills in this write, which then throws after writing them), or none (it is full).
     */
    private synchronized long diskRoom(final Path path, final long wanted) {
        if (diskBytesLeft < 0 || !files.test(path)) {
            return wanted;
        }
        final long room = Math.min(wanted, diskBytesLeft);
        diskBytesLeft -= room;
        if (room < wanted) {
            injected++;
            lastInjected = "disk full at a write of " + wanted + " bytes on " + path;
        }
        return room;
    }

    @Override
    public String toString() {
        return "FaultInjectingFileIo{" + delegate + "}";
    }

    /** A channel whose reads, writes and forces go through the rules of its {@link FaultInjectingFileIo}. */
    private static final class FaultyChannel extends ForwardingFileChannel {
        private final FaultInjectingFileIo io;

        FaultyChannel(final FaultInjectingFileIo io, final Path path, final FileChannel channel) {
            super(path, channel);
            this.io = io;
        }

        @Override
        public int read(final ByteBuffer dst) throws IOException {
            final Fault f = io.check(Operation.READ, path);
            final int start = dst.position();
            return flipIf(f, dst, start, delegate.read(dst));
        }

        @Override
        public int read(final ByteBuffer dst, final long position) throws IOException {
            final Fault f = io.check(Operation.READ, path);
            final int start = dst.position();
            return flipIf(f, dst, start, delegate.read(dst, position));
        }

        @Override
        public long read(final ByteBuffer[] dsts, final int offset, final int length) throws IOException {
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                if (!dsts[i].hasRemaining()) {
                    continue;
                }
                final int n = read(dsts[i]);
                if (n < 0) {
                    return total == 0 ? -1 : total;
                }
                total += n;
                if (dsts[i].hasRemaining()) {
                    break;
                }
            }
            return total;
        }

        /** Flips the lowest bit of the middle byte read, for {@link Fault#FLIP_BIT}. */
        private static int flipIf(final Fault f, final ByteBuffer dst, final int start, final int n) {
            if (f == Fault.FLIP_BIT && n > 0) {
                final int at = start + n / 2;
                dst.put(at, (byte) (dst.get(at) ^ 1));
            }
            return n;
        }

        @Override
        public int write(final ByteBuffer src) throws IOException {
            return write(src, -1);
        }

        @Override
        public int write(final ByteBuffer src, final long position) throws IOException {
            final Fault f = io.check(Operation.WRITE, path);
            final int wanted = src.remaining();
            int allowed = (int) io.diskRoom(path, wanted);
            if (f == Fault.SHORT_WRITE && wanted > 1) {
                allowed = Math.min(allowed, wanted / 2);
            }
            final int limit = src.limit();
            src.limit(src.position() + allowed);
            int written = 0;
            try {
                while (src.hasRemaining()) {
                    final int n = position < 0 ? delegate.write(src) : delegate.write(src, position + written);
                    written += n;
                    if (f == Fault.SHORT_WRITE) {
                        break; // one short write is the fault
                    }
                }
            } finally {
                src.limit(limit);
            }
            if (allowed < wanted && f != Fault.SHORT_WRITE) {
                throw new IOException("No space left on device (injected: " + path + " wrote " + written + " of "
                        + wanted + " bytes)");
            }
            return written;
        }

        @Override
        public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException {
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                if (!srcs[i].hasRemaining()) {
                    continue;
                }
                total += write(srcs[i]);
                if (srcs[i].hasRemaining()) {
                    break; // a short write ends a gathering write
                }
            }
            return total;
        }

        @Override
        public FileChannel truncate(final long size) throws IOException {
            io.check(Operation.WRITE, path);
            return super.truncate(size);
        }

        @Override
        public void force(final boolean metaData) throws IOException {
            io.check(Operation.FORCE, path);
            super.force(metaData);
        }

        @Override
        public long transferTo(final long position, final long count, final WritableByteChannel target)
                throws IOException {
            // Through a buffer, so that the reads and (when the target is one of ours) the writes meet the rules.
            final ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(count, 1 << 16));
            long done = 0;
            while (done < count) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), count - done));
                final int n = read(buffer, position + done);
                if (n <= 0) {
                    break;
                }
                buffer.flip();
                while (buffer.hasRemaining()) {
                    target.write(buffer);
                }
                done += n;
            }
            return done;
        }

        @Override
        public long transferFrom(final ReadableByteChannel src, final long position, final long count)
                throws IOException {
            final ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(count, 1 << 16));
            long done = 0;
            while (done < count) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), count - done));
                final int n = src.read(buffer);
                if (n <= 0) {
                    break;
                }
                buffer.flip();
                while (buffer.hasRemaining()) {
                    done += write(buffer, position + done);
                }
            }
            return done;
        }

        @Override
        public MappedByteBuffer map(final MapMode mode, final long position, final long size) {
            throw new UnsupportedOperationException("FaultInjectingFileIo cannot see accesses to mapped memory ("
                    + path + ")");
        }
    }
}
