package io.nearsort.ldi.io;

import io.nearsort.core.io.FileIo;
import io.nearsort.core.io.ForwardingFileChannel;

import java.io.IOException;
import java.nio.channels.FileChannel;
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
    private static final class NamedChannel extends ForwardingFileChannel {
        NamedChannel(final Path path, final FileChannel channel) {
            super(path, channel);
        }

        @Override
        protected <T> T forward(final String verb, final IoCall<T> call) throws IOException {
            try {
                return call.run();
            } catch (IOException e) {
                throw named(e, path, verb);
            }
        }
    }
}
