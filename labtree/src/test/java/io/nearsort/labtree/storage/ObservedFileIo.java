package io.nearsort.labtree.storage;

import io.nearsort.core.io.FileIo;
import io.nearsort.core.io.ForwardingFileChannel;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.CopyOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * A {@link FileIo} that tells a hook after every call of a channel it opened (the verb of
 * {@link ForwardingFileChannel#forward} and the file): how a test acts at an exact moment of a commit, to copy the
 * files a kill would leave there or to arm a fault for the next call.
 */
public final class ObservedFileIo implements FileIo {
    /** What is told after each call. */
    @FunctionalInterface
    public interface Hook {
        /**
         * Called after a call of a channel returned.
         *
         * @param verb what the call did: {@code "reading"}, {@code "writing"}, {@code "forcing"}, …
         * @param file the channel's file
         * @throws IOException to fail the call
         */
        void after(String verb, Path file) throws IOException;
    }

    private final FileIo delegate;
    private volatile Hook hook = (verb, file) -> {
    };

    /**
     * Observes the calls that go to {@code delegate}.
     *
     * @param delegate the I/O the calls go to
     */
    public ObservedFileIo(final FileIo delegate) {
        this.delegate = delegate;
    }

    /**
     * Sets the hook, replacing the one before.
     *
     * @param hook told after every call from now on; null for none
     */
    public void hook(final Hook hook) {
        this.hook = hook != null ? hook : (verb, file) -> {
        };
    }

    @Override
    public FileChannel open(final Path path, final OpenOption... options) throws IOException {
        return new ForwardingFileChannel(path, delegate.open(path, options)) {
            @Override
            protected <T> T forward(final String verb, final IoCall<T> call) throws IOException {
                final T result = call.run();
                hook.after(verb, path);
                return result;
            }
        };
    }

    @Override
    public void move(final Path source, final Path target, final CopyOption... options) throws IOException {
        delegate.move(source, target, options);
    }

    @Override
    public boolean deleteIfExists(final Path path) throws IOException {
        return delegate.deleteIfExists(path);
    }
}
