package io.nearsort.core.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A {@link FileChannel} that forwards every call to another one, each through {@link #forward}: the base of the
 * channels a {@link FileIo} decorator hands out (in the manner of Guava's {@code Forwarding} classes). A decorator
 * that changes every call alike (renaming or counting its errors) overrides {@link #forward}; one that changes
 * what some calls do ({@link FaultInjectingFileIo}: short writes, flipped bits) overrides those methods.
 */
public abstract class ForwardingFileChannel extends FileChannel {
    /**
     * One call of the delegate.
     *
     * @param <T> what the call returns
     */
    @FunctionalInterface
    public interface IoCall<T> {
        /**
         * Makes the call.
         *
         * @return what the delegate returned
         * @throws IOException what the delegate threw
         */
        T run() throws IOException;
    }

    /** The file the channel is open on. */
    protected final Path path;
    /** The channel every call goes to. */
    protected final FileChannel delegate;

    /**
     * A channel forwarding to {@code delegate}.
     *
     * @param path     the file {@code delegate} is open on, for messages
     * @param delegate the channel to forward to; closed with this one
     */
    protected ForwardingFileChannel(final Path path, final FileChannel delegate) {
        this.path = Objects.requireNonNull(path, "path");
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * Makes one forwarded call; the default just makes it.
     *
     * @param verb what the call does, for messages: {@code "reading"}, {@code "writing"}, {@code "forcing"},
     *             {@code "sizing"}, {@code "positioning"}, {@code "truncating"}, {@code "copying from"},
     *             {@code "copying to"}, {@code "mapping"}, {@code "locking"} or {@code "closing"}
     * @param call the call of the delegate
     * @param <T>  what the call returns
     * @return what the call returned
     * @throws IOException what the call threw, or what a subclass makes of it
     */
    protected <T> T forward(final String verb, final IoCall<T> call) throws IOException {
        return call.run();
    }

    @Override
    public int read(final ByteBuffer dst) throws IOException {
        return forward("reading", () -> delegate.read(dst));
    }

    @Override
    public long read(final ByteBuffer[] dsts, final int offset, final int length) throws IOException {
        return forward("reading", () -> delegate.read(dsts, offset, length));
    }

    @Override
    public int read(final ByteBuffer dst, final long position) throws IOException {
        return forward("reading", () -> delegate.read(dst, position));
    }

    @Override
    public int write(final ByteBuffer src) throws IOException {
        return forward("writing", () -> delegate.write(src));
    }

    @Override
    public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException {
        return forward("writing", () -> delegate.write(srcs, offset, length));
    }

    @Override
    public int write(final ByteBuffer src, final long position) throws IOException {
        return forward("writing", () -> delegate.write(src, position));
    }

    @Override
    public long position() throws IOException {
        return forward("positioning", delegate::position);
    }

    @Override
    public FileChannel position(final long newPosition) throws IOException {
        forward("positioning", () -> delegate.position(newPosition));
        return this;
    }

    @Override
    public long size() throws IOException {
        return forward("sizing", delegate::size);
    }

    @Override
    public FileChannel truncate(final long size) throws IOException {
        forward("truncating", () -> delegate.truncate(size));
        return this;
    }

    @Override
    public void force(final boolean metaData) throws IOException {
        forward("forcing", () -> {
            delegate.force(metaData);
            return null;
        });
    }

    @Override
    public long transferTo(final long position, final long count, final WritableByteChannel target)
            throws IOException {
        return forward("copying from", () -> delegate.transferTo(position, count, target));
    }

    @Override
    public long transferFrom(final ReadableByteChannel src, final long position, final long count)
            throws IOException {
        return forward("copying to", () -> delegate.transferFrom(src, position, count));
    }

    @Override
    public MappedByteBuffer map(final MapMode mode, final long position, final long size) throws IOException {
        return forward("mapping", () -> delegate.map(mode, position, size));
    }

    @Override
    public FileLock lock(final long position, final long size, final boolean shared) throws IOException {
        return forward("locking", () -> delegate.lock(position, size, shared));
    }

    @Override
    public FileLock tryLock(final long position, final long size, final boolean shared) throws IOException {
        return forward("locking", () -> delegate.tryLock(position, size, shared));
    }

    @Override
    protected void implCloseChannel() throws IOException {
        forward("closing", () -> {
            delegate.close();
            return null;
        });
    }
}
