package io.nearsort.core.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.CopyOption;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The one way nearsort's on-disk structures reach their files: every file of a LAB-tree array or an LDI column
 * store is opened, renamed and deleted through the {@code FileIo} its builder was given
 * ({@code LabArray.Builder.fileIo}, {@code ColumnStoreOptions.Builder.fileIo}), and every run file of the LDI
 * baselines through the one their constructor was given, {@link #standard()} by default.
 * It exists so that tests can put a fault between a structure and its disk, as SQLite's VFS and RocksDB's
 * {@code FileSystem} let theirs: a write or {@code force} that fails, a short write, a read returning a flipped
 * bit, a full disk, a rename that fails ({@link FaultInjectingFileIo}). An implementation may also count or
 * throttle I/O. It must behave like {@link FileChannel#open} and {@link Files}: the structures rely on
 * {@link java.nio.file.StandardCopyOption#ATOMIC_MOVE} being atomic and on {@link FileChannel#force} being durable.
 *
 * <p>Implementations are used from several threads at once (an LDI store's parallel readers) and must be thread
 * safe.
 */
public interface FileIo {
    /**
     * The file system as the JDK sees it: {@link FileChannel#open}, {@link Files#move}, {@link Files#delete}.
     *
     * @return the shared standard instance
     */
    static FileIo standard() {
        return StandardFileIo.INSTANCE;
    }

    /**
     * Opens or creates a file, as {@link FileChannel#open(Path, OpenOption...)} does.
     *
     * @param path    the file
     * @param options how to open it ({@link java.nio.file.StandardOpenOption}, or an extended option such as
     *                direct I/O)
     * @return a new channel, which the caller closes
     * @throws IOException when the file cannot be opened
     */
    FileChannel open(Path path, OpenOption... options) throws IOException;

    /**
     * Renames a file, as {@link Files#move(Path, Path, CopyOption...)} does.
     *
     * @param source  the file to rename
     * @param target  its new name
     * @param options how ({@link java.nio.file.StandardCopyOption#ATOMIC_MOVE},
     *                {@link java.nio.file.StandardCopyOption#REPLACE_EXISTING})
     * @throws IOException when the file cannot be renamed
     */
    void move(Path source, Path target, CopyOption... options) throws IOException;

    /**
     * Deletes a file if it exists, as {@link Files#deleteIfExists(Path)} does.
     *
     * @param path the file
     * @return whether it existed and was deleted
     * @throws IOException when it exists and cannot be deleted
     */
    boolean deleteIfExists(Path path) throws IOException;

    /**
     * Makes the entries of {@code directory} durable (files created, renamed into it or deleted from it), where the
     * platform allows: a channel opened on the directory through {@link #open} and forced. A file whose content
     * was forced can still vanish with the power if its directory entry was not.
     *
     * @param directory the directory whose entries to make durable
     * @throws IOException when the directory cannot be opened or forced (ignored on Windows, which cannot open a
     *                     directory as a channel and makes its renames durable once they return)
     */
    default void forceDirectory(final Path directory) throws IOException {
        try (FileChannel d = open(directory, StandardOpenOption.READ)) {
            d.force(true);
        } catch (final IOException e) {
            if (!System.getProperty("os.name", "").startsWith("Windows")) {
                throw e;
            }
        }
    }
}
