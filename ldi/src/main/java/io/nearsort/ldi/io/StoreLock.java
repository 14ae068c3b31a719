package io.nearsort.ldi.io;

import io.nearsort.core.io.FileIo;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive lock a column store takes on {@value #FILE} in its directory while it is open for writing, so that
 * two processes (or two opens in one process) never write one store. The file holds the owner's process id, which
 * the error names; the lock itself is the operating system's ({@link FileChannel#tryLock()}), released when the
 * owner closes the store or dies.
 */
public final class StoreLock implements AutoCloseable {
    /** The lock file's name in the store directory. */
    public static final String FILE = "store.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private StoreLock(final FileChannel channel, final FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Locks the store in {@code dir}.
     *
     * @param dir the store directory; {@value #FILE} is created in it when absent
     * @return the held lock, released by {@link #close()}
     * @throws IOException when the lock file cannot be opened, locked or written
     * @throws StoreLockedException if another process, or another open store of this process, holds the lock
     */
    public static StoreLock acquire(final Path dir) throws IOException {
        return acquire(FileIo.standard(), dir);
    }

    /**
     * Locks the store in {@code dir}, opening the lock file through {@code io}.
     *
     * @param io  how the lock file is opened and written
     * @param dir the store directory; {@value #FILE} is created in it when absent
     * @return the held lock, released by {@link #close()}
     * @throws IOException when the lock file cannot be opened, locked or written
     * @throws StoreLockedException if another process, or another open store of this process, holds the lock
     */
    public static StoreLock acquire(final FileIo io, final Path dir) throws IOException {
        final Path file = dir.resolve(FILE);
        final FileChannel ch = io.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException sameProcess) {
            ch.close();
            throw new StoreLockedException(dir, file, "another open ColumnStore of this process");
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        if (lock == null) {
            String owner = "another process";
            try {
                final String pid = Files.readString(file, StandardCharsets.UTF_8).strip();
                if (!pid.isEmpty()) {
                    owner = "process " + pid;
                }
            } catch (IOException unreadable) {
                // The message then names no process id.
            }
            ch.close();
            throw new StoreLockedException(dir, file, owner);
        }
        try {
            ch.truncate(0);
            RecordFile.writeFully(ch, ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid())
                    .getBytes(StandardCharsets.UTF_8)), 0);
        } catch (IOException e) {
            lock.release();
            ch.close();
            throw e;
        }
        return new StoreLock(ch, lock);
    }

    /** The store is open for writing elsewhere. */
    public static final class StoreLockedException extends IOException {
        private static final long serialVersionUID = 1L;

        StoreLockedException(final Path dir, final Path file, final String owner) {
            super("column store " + dir + " is open for writing by " + owner + " (" + file + " is locked);"
                    + " close it there first");
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
