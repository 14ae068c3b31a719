package io.nearsort.ldi.io;

import io.nearsort.core.io.FileIo;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * Write_MAX of §5 (Figures 7–8): the time the device takes to write a number of bytes sequentially, in 1 MiB
 * requests, and force them — the floor a load of that many bytes is compared with. Measured with a temporary file
 * in the directory given (so on the store's device), deleted afterwards. The file is opened, written, forced and
 * deleted through a {@link FileIo} ({@link FileIo#standard()} unless one is given), and an I/O error names it.
 */
public final class WriteMax {
    private static final int CHUNK = 1 << 20;
    /** Writes shorter than this measure the final force's latency more than the device's bandwidth. */
    public static final long MIN_PROBE_BYTES = 64L << 20;
    /** The most {@link #estimate} writes. */
    public static final long MAX_PROBE_BYTES = 1L << 30;

    private WriteMax() {
    }

    /**
     * Write_MAX for {@code bytes}, estimated from the device's sequential speed measured on at least
     * {@link #MIN_PROBE_BYTES} and at most {@link #MAX_PROBE_BYTES}: {@code bytes / speed}.
     *
     * @param dir   a directory on the device to measure; the temporary file is made there and deleted
     * @param bytes the size of the load to estimate, in bytes
     * @return the estimated seconds to write {@code bytes} sequentially and force them
     * @throws IOException when the temporary file cannot be created, written, forced or deleted
     */
    public static double estimate(final Path dir, final long bytes) throws IOException {
        return estimate(FileIo.standard(), dir, bytes);
    }

    /**
     * {@link #estimate(Path, long)} with the temporary file reached through {@code io}.
     *
     * @param io    how the temporary file is opened and deleted
     * @param dir   a directory on the device to measure; the temporary file is made there and deleted
     * @param bytes the size of the load to estimate, in bytes
     * @return the estimated seconds to write {@code bytes} sequentially and force them
     * @throws IOException when the temporary file cannot be created, written, forced or deleted (naming it)
     */
    public static double estimate(final FileIo io, final Path dir, final long bytes) throws IOException {
        final long probe = Math.min(MAX_PROBE_BYTES, Math.max(MIN_PROBE_BYTES, bytes));
        return bytes * seconds(io, dir, probe) / probe;
    }

    /**
     * Seconds to write {@code bytes} sequentially into a new file in {@code dir} and force them.
     *
     * @param dir   the directory to write the temporary file in (deleted afterwards)
     * @param bytes bytes to write, not negative
     * @return the elapsed wall-clock seconds, the final force included
     * @throws IOException when the temporary file cannot be created, written, forced or deleted
     * @throws IllegalArgumentException when {@code bytes} is negative
     */
    public static double seconds(final Path dir, final long bytes) throws IOException {
        return seconds(FileIo.standard(), dir, bytes);
    }

    /**
     * {@link #seconds(Path, long)} with the temporary file reached through {@code io}.
     *
     * @param io    how the temporary file is opened and deleted (its I/O errors are reported naming the file)
     * @param dir   the directory to write the temporary file in (deleted afterwards)
     * @param bytes bytes to write, not negative
     * @return the elapsed wall-clock seconds, the final force included
     * @throws IOException when the temporary file cannot be created, written, forced or deleted
     * @throws IllegalArgumentException when {@code bytes} is negative
     * @throws NullPointerException when {@code io} is null
     */
    public static double seconds(final FileIo io, final Path dir, final long bytes) throws IOException {
        final FileIo named = NamingFileIo.of(java.util.Objects.requireNonNull(io, "io"));
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative (got: " + bytes + ")");
        }
        final Path file = Files.createTempFile(dir, "write-max", ".bin");
        final ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
        final SplittableRandom rnd = new SplittableRandom(1);
        while (chunk.hasRemaining()) {
            chunk.putLong(rnd.nextLong());
        }
        Throwable failure = null;
        try {
            final long start = System.nanoTime();
            try (FileChannel ch = named.open(file, StandardOpenOption.WRITE)) {
                long written = 0;
                while (written < bytes) {
                    chunk.clear().limit((int) Math.min(CHUNK, bytes - written));
                    while (chunk.hasRemaining()) {
                        written += ch.write(chunk);
                    }
                }
                ch.force(true);
            }
            return (System.nanoTime() - start) / 1e9;
        } catch (final IOException | RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            deleteScratch(named, file, failure);
        }
    }

    /**
     * Deletes a measurement's scratch file through {@code io}; when the measurement failed ({@code failure} not
     * null), a failed deletion is added to it rather than hiding it.
     */
    static void deleteScratch(final FileIo io, final Path file, final Throwable failure) throws IOException {
        try {
            io.deleteIfExists(file);
        } catch (final IOException | RuntimeException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }
}
