package io.nearsort.ldi.projection;

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

/**
 * A {@link FileIo} whose errors name no file, as the JDK's own channel errors do ("No space left on device"): it
 * takes the path out of the messages of the plain {@link IOException}s of its delegate (a
 * {@link io.nearsort.core.io.FaultInjectingFileIo}, whose messages name the file), so that a test sees whether the
 * store itself names the file.
 */
final class AnonymousFileIo implements FileIo {
    private final FileIo delegate;

    AnonymousFileIo(final FileIo delegate) {
        this.delegate = delegate;
    }

    @FunctionalInterface
    private interface Call<T> {
        T call() throws IOException;
    }

    private static <T> T strip(final Path path, final Call<T> call) throws IOException {
        try {
            return call.call();
        } catch (IOException e) {
            if (e.getClass() != IOException.class) {
                throw e;
            }
            final IOException anonymous = new IOException(String.valueOf(e.getMessage())
                    .replace(path.toString(), "<a file>"));
            anonymous.setStackTrace(e.getStackTrace());
            throw anonymous;
        }
    }

    @Override
    public FileChannel open(final Path path, final OpenOption... options) throws IOException {
        return new Channel(path, strip(path, () -> delegate.open(path, options)));
    }

    @Override
    public void move(final Path source, final Path target, final CopyOption... options) throws IOException {
        strip(source, () -> strip(target, () -> {
            delegate.move(source, target, options);
            return null;
        }));
    }

    @Override
    public boolean deleteIfExists(final Path path) throws IOException {
        return strip(path, () -> delegate.deleteIfExists(path));
    }

    @Override
    public String toString() {
        return "AnonymousFileIo{" + delegate + "}";
    }

    private static final class Channel extends FileChannel {
        private final Path path;
        private final FileChannel channel;

        Channel(final Path path, final FileChannel channel) {
            this.path = path;
            this.channel = channel;
        }

        @Override
        public int read(final ByteBuffer dst) throws IOException {
            return strip(path, () -> channel.read(dst));
        }

        @Override
        public long read(final ByteBuffer[] dsts, final int offset, final int length) throws IOException {
            return strip(path, () -> channel.read(dsts, offset, length));
        }

        @Override
        public int read(final ByteBuffer dst, final long position) throws IOException {
            return strip(path, () -> channel.read(dst, position));
        }

        @Override
        public int write(final ByteBuffer src) throws IOException {
            return strip(path, () -> channel.write(src));
        }

        @Override
        public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException {
            return strip(path, () -> channel.write(srcs, offset, length));
        }

        @Override
        public int write(final ByteBuffer src, final long position) throws IOException {
            return strip(path, () -> channel.write(src, position));
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
            return strip(path, channel::size);
        }

        @Override
        public FileChannel truncate(final long size) throws IOException {
            strip(path, () -> channel.truncate(size));
            return this;
        }

        @Override
        public void force(final boolean metaData) throws IOException {
            strip(path, () -> {
                channel.force(metaData);
                return null;
            });
        }

        @Override
        public long transferTo(final long position, final long count, final WritableByteChannel target)
                throws IOException {
            return strip(path, () -> channel.transferTo(position, count, target));
        }

        @Override
        public long transferFrom(final ReadableByteChannel src, final long position, final long count)
                throws IOException {
            return strip(path, () -> channel.transferFrom(src, position, count));
        }

        @Override
        public MappedByteBuffer map(final MapMode mode, final long position, final long size) throws IOException {
            return channel.map(mode, position, size);
        }

        @Override
        public FileLock lock(final long position, final long size, final boolean shared) throws IOException {
            return channel.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(final long position, final long size, final boolean shared) throws IOException {
            return channel.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            channel.close();
        }
    }
}
