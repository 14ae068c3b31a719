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
 * Eq. 8's θ = T_Read(group) / T_Read(bucket), measured on the device holding a directory: a scratch file of
 * {@code 64·g} buckets is read bucket by bucket at random and group by group at random, and the median times are
 * compared. The file is fresh, so part of it may be served from the page cache: the result is a measurement of
 * this machine as the store will see it, not of the raw device. The file is opened and deleted through a
 * {@link FileIo} ({@link FileIo#standard()} unless one is given), and an I/O error names it.
 */
public final class ThetaCalibration {
    private ThetaCalibration() {
    }

    /**
     * Measures θ for buckets of {@code bucketBytes} and groups of {@code group} buckets; at least 1.
     *
     * @param directory   a directory on the device to measure; the scratch file is made there and deleted
     * @param bucketBytes bytes of one bucket, at least 1
     * @param group       buckets of a group, at least 2
     * @return θ, the median group read time over the median single-bucket read time, at least 1.0
     * @throws IOException when the scratch file cannot be created, written or read
     * @throws IllegalArgumentException when {@code bucketBytes} is below 1 or {@code group} below 2
     */
    public static double measure(final Path directory, final int bucketBytes, final int group) throws IOException {
        return measure(FileIo.standard(), directory, bucketBytes, group);
    }

    /**
     * {@link #measure(Path, int, int)} with the scratch file reached through {@code io}.
     *
     * @param io          how the scratch file is opened and deleted (its I/O errors are reported naming the file)
     * @param directory   a directory on the device to measure; the scratch file is made there and deleted
     * @param bucketBytes bytes of one bucket, at least 1
     * @param group       buckets of a group, at least 2
     * @return θ, the median group read time over the median single-bucket read time, at least 1.0
     * @throws IOException when the scratch file cannot be created, written, read or deleted
     * @throws IllegalArgumentException when {@code bucketBytes} is below 1 or {@code group} below 2
     * @throws NullPointerException when {@code io} is null
     */
    public static double measure(final FileIo io, final Path directory, final int bucketBytes, final int group)
            throws IOException {
        final FileIo named = NamingFileIo.of(java.util.Objects.requireNonNull(io, "io"));
        if (bucketBytes < 1 || group < 2) {
            throw new IllegalArgumentException("need bucketBytes ≥ 1 and group ≥ 2 (got: " + bucketBytes + ", "
                    + group + ")");
        }
        final int buckets = 64 * group;
        final Path scratch = Files.createTempFile(directory, "theta-", ".tmp");
        Throwable failure = null;
        try (FileChannel ch = named.open(scratch, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            final ByteBuffer fill = ByteBuffer.allocate(bucketBytes);
            final SplittableRandom rnd = new SplittableRandom(42);
            for (int i = 0; i < buckets; i++) {
                fill.clear();
                while (fill.hasRemaining()) {
                    fill.put((byte) rnd.nextInt());
                }
                fill.flip();
                long at = (long) i * bucketBytes;
                while (fill.hasRemaining()) {
                    at += ch.write(fill, at); // a write may take fewer bytes than given
                }
            }
            ch.force(false);
            final long single = medianNanos(ch, scratch, rnd, bucketBytes, 1, buckets);
            final long grouped = medianNanos(ch, scratch, rnd, bucketBytes, group, buckets);
            return Math.max(1.0, (double) grouped / Math.max(1, single));
        } catch (final IOException | RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            WriteMax.deleteScratch(named, scratch, failure);
        }
    }

    private static long medianNanos(final FileChannel ch, final Path scratch, final SplittableRandom rnd,
                                    final int bucketBytes, final int span, final int buckets) throws IOException {
        final ByteBuffer buf = ByteBuffer.allocateDirect(bucketBytes * span);
        final long[] times = new long[33];
        for (int t = 0; t < times.length; t++) {
            final long at = (long) rnd.nextInt(buckets - span + 1) * bucketBytes;
            buf.clear();
            final long start = System.nanoTime();
            long pos = at;
            while (buf.hasRemaining()) {
                final int read = ch.read(buf, pos);
                if (read < 0) {
                    throw new IOException(scratch + ": the scratch file ends at " + pos + " bytes, before the "
                            + buckets + " buckets written to it");
                }
                pos += read;
            }
            times[t] = System.nanoTime() - start;
        }
        java.util.Arrays.sort(times);
        return times[times.length / 2];
    }
}
