package io.nearsort.labtree;

import io.nearsort.core.io.FileIo;
import io.nearsort.core.io.PowerLossFileIo;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 22, power loss: {@link CrashWorker}'s epochs (random element and row writes, a flush after each, every
 * fourth by close and reopen) run in process over a {@link PowerLossFileIo}, which cuts the power at a random change
 * (a write, truncation, force, rename or deletion: inside a flush, a page eviction into the journal, a create) and
 * then rewrites every file to what a disk may hold: the directory's entries as of its last force (a file created since
 * gone, one deleted since back, a rename undone; or the oldest of those operations kept), each file's content as of
 * its last {@code force}, plus a random subset of the 512-byte sectors written since (none, all or each with
 * probability one half, per file). The abandoned array is
 * closed (nothing more reaches the disk) and the file is reopened through {@link FileIo#standard()}: it must open
 * and hold exactly the array of the last flush that returned, or of the flush in progress (which may have passed its
 * commit point); a file that lost power before its first flush opens empty or at that flush. Trials alternate
 * write-through and a 64-request update buffer, over four workload seeds; the changes of each workload are counted
 * once by a run without a cut, and the cut point is uniform over them in half the trials and uniform over the
 * changes of one flush or close (chosen at random) in the other half. In half the trials the power goes off again
 * while the file is recovered, which must then open where an undisturbed recovery does. Other trials cut the power
 * right after each creation, rename and deletion of a run.
 *
 * <p>The default run makes 200 trials at a random change and 128 after a directory operation;
 * {@code -Dgroups=slow -Dnearsort.excludedGroups=none} 2,000 at a random change.
 */
class PowerLossTest {
    private static final int EPOCHS = 10;
    private static final int N = (int) (CrashWorker.ROWS * CrashWorker.COLUMNS);

    @TempDir
    Path tmp;

    @Test
    void everyPowerLossOpensAtALastFlush() throws IOException {
        trials(200, 22);
    }

    @Test
    @Tag("slow")
    void twoThousandPowerLosses() throws IOException {
        trials(2_000, 23);
    }

    /** One run of the epochs: the flush that last returned and the one in progress when the power went off. */
    private static final class Run {
        long flushed;
        long inFlight = -1;
        boolean ended;
        /** The changes (counted by the I/O) each flush or close began and ended at. */
        final List<long[]> flushes = new ArrayList<>();
    }

    /**
     * The array's file (created aside and renamed) and its journal (created at open) have durable directory entries
     * by the time the array is built: a flush forces the journal's content before its commit point, which is worth
     * nothing on a file system that loses the journal's entry with the power. Before the directory forces, both
     * were listed here.
     */
    @Test
    void theFileAndItsJournalHaveDurableDirectoryEntriesOnceBuilt() throws IOException {
        final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
        try (LabArray a = CrashWorker.open(dir("entries").resolve("a.lab"), 0, io)) {
            a.setLinear(1.0, 7);
            a.flush();
            assertEquals(List.of(), io.unsyncedDirectoryOperations());
        }
    }

    private void trials(final int count, final long seed) throws IOException {
        final Random rnd = new Random(seed);
        final Map<String, Run> counted = new HashMap<>();
        final Set<String> unsynced = new TreeSet<>();
        final Map<String, Integer> tally = new TreeMap<>();
        for (int t = 0; t < count; t++) {
            final long workload = t % 4;
            final int buffer = (t / 4) % 2 == 0 ? 0 : 64;
            final String config = "seed " + workload + ", update buffer " + buffer;
            final Run uncut = counted.computeIfAbsent(config, c -> {
                final Path dir = dir("count-" + workload + "-" + buffer);
                final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
                final Run run = run(dir.resolve("a.lab"), workload, buffer, io);
                assertTrue(run.ended, "the uncut run ends");
                run.flushes.add(new long[] {0, io.changes()}); // the whole run, last
                for (final String op : io.unsyncedDirectoryOperations()) {
                    unsynced.add(op.replace(dir.toAbsolutePath().toString(), "DIR"));
                }
                return run;
            });
            final long total = uncut.flushes.get(uncut.flushes.size() - 1)[1];
            // Half the cuts anywhere, half inside a flush or close (where the commit protocol runs).
            final long[] range = t % 2 == 0 ? uncut.flushes.get(uncut.flushes.size() - 1)
                    : uncut.flushes.get(rnd.nextInt(uncut.flushes.size() - 1));
            final long cut = range[0] + 1 + (long) rnd.nextInt((int) (range[1] - range[0]));
            final Path file = dir("t" + t).resolve("a.lab");
            final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard()).cutPowerAt(cut);
            final String where = config + ", power cut at change " + cut + " of " + total;
            final long powerSeed = rnd.nextLong();
            final Random recovery = (t / 8) % 2 == 0 ? new Random(rnd.nextLong()) : null;
            tally.merge(trial(file, workload, buffer, io, powerSeed, where, recovery), 1, Integer::sum);
        }
        System.out.println("[power-loss] LabArray: " + count + " power losses, all opened at a last flush: " + tally);
        System.out.println("[power-loss] LabArray: directory operations no directory force followed: " + unsynced);
    }

    /**
     * Runs the epochs over {@code io} until its power goes off (or to their end), loses the power (every unforced
     * write and directory operation dropped when {@code powerSeed} is null, some of them kept otherwise), reopens the
     * file and checks it; returns where the power went off, for the tally. With {@code recovery}, the power goes off
     * again while the file is recovered ({@link #powerLossInRecovery}).
     */
    private String trial(final Path file, final long workload, final int buffer, final PowerLossFileIo io,
                         final Long powerSeed, final String cut, final Random recovery) throws IOException {
        final Run run = run(file, workload, buffer, io);
        final String lost = powerSeed == null ? io.powerLoss() : io.powerLoss(new Random(powerSeed));
        String where = cut + ", power-loss seed " + powerSeed + ", last flush returned " + run.flushed
                + (run.inFlight >= 0 ? ", flush " + run.inFlight + " in progress" : "") + ":\n" + lost;
        final long undisturbed = recovery == null ? -1 : verify(copyOf(file, "-undisturbed"), workload, run, where);
        if (recovery != null) {
            where = powerLossInRecovery(file, recovery, where);
        }
        final long opened = verify(file, workload, run, where);
        if (recovery != null) {
            assertEquals(undisturbed, opened, "the flush an undisturbed recovery opens at, " + where);
        }
        return (run.inFlight < 0 ? "between flushes" : opened == run.inFlight ? "in a flush, opened at it"
                : "in a flush, opened at the one before") + (recovery == null ? "" : ", then in its recovery");
    }

    /** A copy of {@code file} and its journal in a new directory named with {@code suffix}; returns the file's copy. */
    private Path copyOf(final Path file, final String suffix) throws IOException {
        final Path copy = dir(file.getParent().getFileName() + suffix);
        try (Stream<Path> files = Files.list(file.getParent())) {
            for (final Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        return copy.resolve(file.getFileName());
    }

    /**
     * Recovers {@code file} over a {@link PowerLossFileIo} whose power goes off right after the recovery or at a
     * random change of it (replaying the journal, forcing the file, deleting the journal, cutting the file back,
     * creating the next journal), counted on a copy; returns {@code where} with what happened.
     */
    private String powerLossInRecovery(final Path file, final Random rnd, final String where) throws IOException {
        final PowerLossFileIo counting = new PowerLossFileIo(FileIo.standard());
        final LabArray counted = CrashWorker.open(copyOf(file, "-counted"), 0, counting);
        final long changes = counting.changes();
        counted.close();
        // Half the cuts right after the recovery (what it left must be durable by then), half at one of its changes.
        final long cut = rnd.nextBoolean() ? changes + 1 : 1 + rnd.nextInt((int) changes);
        final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard()).cutPowerAt(cut);
        LabArray a = null;
        try {
            a = CrashWorker.open(file, 0, io);
        } catch (final RuntimeException failure) {
            if (!io.isOff()) {
                throw failure;
            }
        }
        final long seed = rnd.nextLong();
        final String lost = io.powerLoss(new Random(seed));
        if (a != null) {
            try {
                a.close(); // the power is off: it only lets go
            } catch (final RuntimeException afterPowerLoss) {
                // expected
            }
        }
        return where + "then the power cut again at change " + cut + " of the " + changes + " of the recovery,"
                + " power-loss seed " + seed + ":\n" + lost;
    }

    /**
     * The power goes off right after each creation, rename and deletion of a run, before anything else reaches the
     * disk (the moments a cut at a random change seldom hits: the journal deleted by a close, the file renamed into
     * place), in every configuration; once with every unforced write and directory operation lost, once with a
     * random part of them kept. A journal deleted by a close comes back: it holds the commit the file's header
     * already has, which recovery replays again.
     */
    @Test
    void aPowerLossRightAfterEachDirectoryOperation() throws IOException {
        final Random rnd = new Random(24);
        final Map<String, Integer> tally = new TreeMap<>();
        int count = 0;
        for (int config = 0; config < 8; config++) {
            final long workload = config % 4;
            final int buffer = config < 4 ? 0 : 64;
            final Path counted = dir("ops-" + config);
            final PowerLossFileIo uncut = new PowerLossFileIo(FileIo.standard());
            assertTrue(run(counted.resolve("a.lab"), workload, buffer, uncut).ended, "the uncut run ends");
            final List<String> ops = uncut.directoryOperations();
            for (int k = 1; k <= ops.size(); k++) {
                for (final Long powerSeed : Arrays.asList(null, rnd.nextLong())) {
                    final Path file = dir("op-" + config + "-" + k + (powerSeed == null ? "" : "-random"))
                            .resolve("a.lab");
                    final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard())
                            .cutPowerAfterDirectoryOperation(k);
                    final String op = ops.get(k - 1).replace(counted.toAbsolutePath().toString(), "DIR");
                    trial(file, workload, buffer, io, powerSeed, "seed " + workload + ", update buffer " + buffer
                            + ", power cut after directory operation " + k + " of " + ops.size() + " (" + op + ")",
                            powerSeed == null ? null : new Random(powerSeed + 1));
                    tally.merge(op, 1, Integer::sum);
                    count++;
                }
            }
        }
        System.out.println("[power-loss] LabArray: " + count + " power losses right after a directory operation,"
                + " all opened at a last flush: " + tally);
    }

    private Path dir(final String name) {
        try {
            return Files.createDirectories(tmp.resolve(name));
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The epochs until the power goes off (or all {@link #EPOCHS} of them); the array is then abandoned. */
    private static Run run(final Path file, final long seed, final int buffer, final PowerLossFileIo io) {
        final Run run = new Run();
        LabArray a = null;
        try {
            a = CrashWorker.open(file, buffer, io);
            for (long e = 1; e <= EPOCHS; e++) {
                final LabArray array = a;
                CrashWorker.epoch(seed, e, (key, value) -> array.setLinear(value, key));
                run.inFlight = e;
                final long begin = io.changes();
                if (e % 4 == 0) {
                    a.close();
                    a = null;
                    a = CrashWorker.open(file, buffer, io);
                } else {
                    a.flush();
                }
                run.flushes.add(new long[] {begin, io.changes()});
                run.flushed = e;
                run.inFlight = -1;
            }
            a.close(); // commits nothing new: the array is as of the last flush
            a = null;
            run.ended = true;
        } catch (final RuntimeException failure) {
            if (!io.isOff()) {
                throw failure;
            }
        } finally {
            if (a != null) {
                try {
                    a.close(); // the power is off: its I/O fails, it only lets go
                } catch (final RuntimeException afterPowerLoss) {
                    // expected
                }
            }
        }
        return run;
    }

    /** Reopens the file: exactly the array of the last flush, or of the one in progress; returns which. */
    private static long verify(final Path file, final long seed, final Run run, final String where) {
        try (LabArray a = CrashWorker.open(file, 0)) {
            final long flush = (long) a.getLinear(CrashWorker.FLUSH_NUMBER);
            if (flush != run.flushed && flush != run.inFlight) {
                fail("opened at flush " + flush + " after " + where);
            }
            final double[] oracle = new double[N];
            for (long e = 1; e <= flush; e++) {
                CrashWorker.epoch(seed, e, (key, value) -> oracle[(int) key] = value);
            }
            final double[] stored = new double[N];
            a.readRectangle(new long[] {0, 0}, new long[] {CrashWorker.ROWS - 1, CrashWorker.COLUMNS - 1}, stored);
            if (!Arrays.equals(oracle, stored)) {
                assertArrayEquals(oracle, stored, "the array after flush " + flush + ", " + where);
            }
            assertEquals(Arrays.stream(oracle).filter(v -> v != 0.0).count(), a.stats().size(),
                    "stored elements after flush " + flush + ", " + where);
            return flush;
        } catch (final RuntimeException e) {
            throw new AssertionError("reopening failed after " + where, e);
        }
    }
}
