package io.nearsort.labtree;

import io.nearsort.core.io.FileIo;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The child process of {@link CrashTest}: opens the array, reads which flush it holds from element 0, and runs the
 * deterministic epochs after it — each a burst of random element and row writes followed by a flush (every
 * eighth by close and reopen) — until it is killed. Epoch {@code e}'s writes depend only on the lane's seed and
 * {@code e} ({@link #epoch}), so the parent can rebuild the array of any flush. Lines go to standard output (the
 * parent times its kill by them) and to the progress file, which keeps what the process wrote before it died
 * while its pipe may not.
 *
 * <pre>java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp … io.nearsort.labtree.CrashWorker
 *     ARRAY_FILE LANE_SEED PROGRESS_FILE UPDATE_BUFFER</pre>
 *
 * Lines: {@code open K} (the flush it opened at), {@code flush-begin E}, {@code flushed E} (after flush or close
 * returned), {@code error …}.
 */
public final class CrashWorker {
    static final long ROWS = 100;
    static final long COLUMNS = 100;
    /** Element 0 holds the number of the flush the array is at. */
    static final long FLUSH_NUMBER = 0;

    private static FileOutputStream progress;

    private CrashWorker() {
    }

    /** Where epoch {@code e}'s writes go: the array in the child, the oracle in the parent. */
    @FunctionalInterface
    interface Writes {
        void set(long key, double value);
    }

    /**
     * Epoch {@code e}'s writes, then element 0 := e. Mostly scattered elements (a quarter of them deletes), some
     * runs of a row, so that leaves go dense and sparse and split and empty.
     */
    static void epoch(final long seed, final long e, final Writes writes) {
        final SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + e);
        final int n = 1 + rnd.nextInt(1500);
        for (int i = 0; i < n; i++) {
            if (rnd.nextInt(16) == 0) {
                final long row = rnd.nextLong(1, ROWS);
                final double value = rnd.nextInt(3) == 0 ? 0.0 : rnd.nextInt(1, 1000);
                for (long c = 0; c < COLUMNS; c++) {
                    writes.set(row * COLUMNS + c, value);
                }
            } else {
                writes.set(rnd.nextLong(1, ROWS * COLUMNS), rnd.nextInt(4) == 0 ? 0.0 : rnd.nextInt(1, 1000));
            }
        }
        writes.set(FLUSH_NUMBER, e);
    }

    static LabArray open(final Path file, final int updateBuffer) {
        return open(file, updateBuffer, FileIo.standard());
    }

    /** The array of the crash tests, its files reached through {@code io} (the power-loss test's). */
    static LabArray open(final Path file, final int updateBuffer, final FileIo io) {
        final LabArray.Builder builder = LabArray.builder(file).shape(ROWS, COLUMNS).pageSize(512)
                .bufferPoolPages(8).fileIo(io);
        return (updateBuffer > 0 ? builder.updateBuffer(updateBuffer, FlushPolicy.LPP) : builder).build();
    }

    public static void main(final String[] args) throws IOException {
        final Path file = Path.of(args[0]);
        final long seed = Long.parseLong(args[1]);
        progress = new FileOutputStream(args[2], true);
        final int updateBuffer = Integer.parseInt(args[3]);
        LabArray a = null;
        try {
            a = open(file, updateBuffer);
            long flushed = (long) a.getLinear(FLUSH_NUMBER);
            say("open " + flushed);
            while (true) {
                final long e = flushed + 1;
                final LabArray array = a;
                epoch(seed, e, (key, value) -> array.setLinear(value, key));
                say("flush-begin " + e);
                if (e % 8 == 0) {
                    a.close();
                    a = open(file, updateBuffer);
                } else {
                    a.flush();
                }
                flushed = e;
                say("flushed " + e);
            }
        } catch (final Throwable t) {
            say("error " + t);
            t.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static void say(final String line) throws IOException {
        progress.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        System.out.println(line);
        System.out.flush();
    }
}
