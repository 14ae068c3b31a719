package io.nearsort.core.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.CopyOption;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/** {@link FileIo#standard()}: the JDK's file system, unchanged. */
final class StandardFileIo implements FileIo {
    static final StandardFileIo INSTANCE = new StandardFileIo();

    private StandardFileIo() {
    }

    @Override
    public FileChannel open(final Path path, final OpenOption... options) throws IOException {
        return FileChannel.open(path, options);
    }

    @Override
    public void move(final Path source, final Path target, final CopyOption... options) throws IOException {
        Files.move(source, target, options);
    }

    @Override
    public boolean deleteIfExists(final Path path) throws IOException {
        return Files.deleteIfExists(path);
    }

    @Override
    public String toString() {
        return "FileIo.standard()";
    }
}
