package io.nearsort.ldi.io;

import io.nearsort.core.io.FileIo;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.CopyOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A {@link FileIo} whose errors name their file: the JDK reports a failed write, read or {@code force} of a
 * {@link FileChannel} as "No space left on device" or "Input/output error", naming nothing, and issue 22 asks that
 * every I/O error of a store name the file it happened to. The column store reaches its files through one of these
 * around the {@link FileIo} of its options. An {@link IOException} of exactly that class whose message does not
 * hold the file's path is replaced by one that does, with the original as its cause; its subclasses (a
 * {@link java.nio.file.FileSystemException} names its file already; a
 * {@link java.nio.channels.ClosedChannelException} or {@link java.nio.channels.ClosedByInterruptException} is
 * about the channel, and callers test for its type) pass unchanged. Thread safe when the delegate is.
 */
public final class NamingFileIo implements FileIo {
    private final FileIo delegate;

    private NamingFileIo(final FileIo delegate) {
        this.delegate = delegate;
    }

    /**
     * Wraps {@code io} so that its errors name their file.
     *
     * @param io the file system to reach the files through
     * @return {@code io} itself when it is a {@code NamingFileIo} already, else a new one around it
     */
    public static FileIo of(final FileIo io) {
        Objects.requireNonNull(io, "io");
        return io instanceof NamingFileIo ? io : new NamingFileIo(io);
    }

    /**
     * {@code e}, or an {@link IOException} naming {@code path} with {@code e} as its cause when {@code e} is a plain
     * {@link IOException} whose message does not hold the path.
     *
     * @param e    the error
     * @param path the file the failed call was made on
     * @param what the call, for the message: "writing", "forcing", …
     * @return the exception to throw
     */
    static IOException named(final IOException e, final Path path, final String what) {
        if (e.getClass() != IOException.class || String.valueOf(e.getMessage()).contains(path.toString())) {
            return e;
        }
        return new IOException(what + " " + path + " failed: " + e.getMessage(), e);
    }

    @Override
    public FileChannel open(final Path path, final OpenOption... options) throws IOException {
        try {
            return new NamedChannel(path, delegate.open(path, options));
        } catch (IOException e) {
            throw named(e, path, "opening");
        }
    }

    @Override
    public void move(final Path source, final Path target, final CopyOption... options) throws IOException {
        try {
            delegate.move(source, target, options);
        } catch (IOException e) {
            if (e.getClass() != IOException.class || String.valueOf(e.getMessage()).contains(source.toString())) {
                throw e;
            }
            throw new IOException("renaming " + source + " to " + target + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean deleteIfExists(final Path path) throws IOException {
        try {
            return delegate.deleteIfExists(path);
        } catch (IOException e) {
            throw named(e, path, "deleting");
        }
    }

    @Override
    public String toString() {
        return "NamingFileIo{" + delegate + "}";
    }

    /** A channel whose errors name its file. */
    private static final class NamedChannel extends FileChannel {
        private final Path path;
        private final FileChannel channel;

        NamedChannel(final Path path, final FileChannel channel) {
            this.path = path;
            this.channel = channel;
        }

        @Override
        public int read(final ByteBuffer dst) throws IOException {
            try {
                return channel.read(dst);
            } catch (IOException e) {
                throw named(e, path, "reading");
            }
        }

        @Override
        public long read(final ByteBuffer[] dsts, final int offset, final int length) throws IOException {
            try {
                return channel.read(dsts, offset, length);
            } catch (IOException e) {
                throw named(e, path, "reading");
            }
        }

        @Override
        public int read(final ByteBuffer dst, final long position) throws IOException {
            try {
                return channel.read(dst, position);
            } catch (IOException e) {
                throw named(e, path, "reading");
            }
        }

        @Override
        public int write(final ByteBuffer src) throws IOException {
            try {
                return channel.write(src);
            } catch (IOException e) {
                throw named(e, path, "writing");
            }
        }

        @Override
        public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException {
            try {
                return channel.write(srcs, offset, length);
            } catch (IOException e) {
                throw named(e, path, "writing");
            }
        }

        @Override
        public int write(final ByteBuffer src, final long position) throws IOException {
            try {
                return channel.write(src, position);
            } catch (IOException e) {
                throw named(e, path, "writing");
            }
        }

        @Override
        public long position() throws IOException {
            return channel.position();
        }

        @Override
        public FileChannel position(final long newPosition) throws IOException {
            channel.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            try {
                return channel.size();
            } catch (IOException e) {
                throw named(e, path, "sizing");
            }
        }

        @Override
        public FileChannel truncate(final long size) throws IOException {
            try {
                channel.truncate(size);
                return this;
            } catch (IOException e) {
                throw named(e, path, "truncating");
            }
        }

        @Override
        public void force(final boolean metaData) throws IOException {
            try {
                channel.force(metaData);
            } catch (IOException e) {
                throw named(e, path, "forcing");
            }
        }

        @Override
        public long transferTo(final long position, final long count, final WritableByteChannel target)
                throws IOException {
            try {
                return channel.transferTo(position, count, target);
            } catch (IOException e) {
                throw named(e, path, "copying from");
            }
        }

        @Override
        public long transferFrom(final ReadableByteChannel src, final long position, final long count)
                throws IOException {
            try {
                return channel.transferFrom(src, position, count);
            } catch (IOException e) {
                throw named(e, path, "copying to");
            }
        }

        @Override
        public MappedByteBuffer map(final MapMode mode, final long position, final long size) throws IOException {
            try {
                return channel.map(mode, position, size);
            } catch (IOException e) {
                throw named(e, path, "mapping");
            }
        }

        @Override
        public FileLock lock(final long position, final long size, final boolean shared) throws IOException {
            try {
                return channel.lock(position, size, shared);
            } catch (IOException e) {
                throw named(e, path, "locking");
            }
        }

        @Override
        public FileLock tryLock(final long position, final long size, final boolean shared) throws IOException {
            try {
                return channel.tryLock(position, size, shared);
            } catch (IOException e) {
                throw named(e, path, "locking");
            }
        }

        @Override
        protected void implCloseChannel() throws IOException {
            try {
                channel.close();
            } catch (IOException e) {
                throw named(e, path, "closing");
            }
        }
    }
}
