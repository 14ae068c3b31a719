package io.nearsort.ldi.projection;

import io.nearsort.core.io.FileIo;
import io.nearsort.core.io.ForwardingFileChannel;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.CopyOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * A {@link FileIo} whose errors name no file, as the JDK's own channel errors do ("No space left on device"): it
 * takes the path out of the messages of the plain {@link IOException}s of its delegate (a
 * {@link io.nearsort.core.io.FaultInjectingFileIo}, whose messages name the file), so that a test sees whether the
 * store itself names the file. Public for the baseline stores' fault test ({@code BaselineIoFaultTest}).
 */
public final class AnonymousFileIo implements FileIo {
    private final FileIo delegate;

    public AnonymousFileIo(final FileIo delegate) {
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

    private static final class Channel extends ForwardingFileChannel {
        Channel(final Path path, final FileChannel channel) {
            super(path, channel);
        }

        @Override
        protected <T> T forward(final String verb, final IoCall<T> call) throws IOException {
            return strip(path, call::run);
        }
    }
}
