package io.nearsort.ldi.projection;

import io.nearsort.core.io.FileIo;
import io.nearsort.core.io.PowerLossFileIo;
import io.nearsort.ldi.commit.CommitPoint;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 22, power loss: {@link CrashWorker}'s workload (appends of rows and batches, commits with metadata,
 * maintenance and reclamation, in the foreground and in the background, with small segments so that files are
 * created, renamed and deleted) runs in process over a {@link PowerLossFileIo}, which cuts the power at a random
 * change (a write, truncation, force, rename or deletion) and rewrites every file to what a disk may hold: the
 * directory's entries as of its last force (a file created since gone, one deleted since back, a rename undone; or
 * the oldest of those operations kept), each file's content as of its last {@code force} plus a random subset of the
 * 512-byte sectors written since (none, all or each with probability one half, per file). The abandoned store is
 * closed (nothing more reaches the disk) and reopened through {@link FileIo#standard()}: it must open at the last
 * commit that returned, or at the one in progress, with exactly its rows in both projections and its metadata
 * ({@link CrashTest}'s checks). Half the cuts are uniform over the changes of a run, half over those of one commit; the workload seed
 * varies with the trial. The changes of each workload are counted by a run without a cut (background maintenance
 * makes the count vary a little from run to run). In half the trials the power goes off again while the store is
 * opened, which must then open where an undisturbed open does. Other trials cut the power right after creations,
 * renames and deletions of a run.
 *
 * <p>The default run makes 60 trials at a random change and about 66 after a directory operation;
 * {@code -Dgroups=slow -Dnearsort.excludedGroups=none} 600 at a random change and about 256 after one.
 */
class PowerLossTest {
    private static final int STEPS = 10;
    private static final int WORKLOADS = 6;
    /** The default run cuts the power after every this many directory operations of a workload. */
    private static final int OPERATION_STRIDE = 4;

    @TempDir
    Path tmp;

    @Test
    void everyPowerLossOpensAtALastCommit() throws IOException {
        trials(60, 22);
    }

    @Test
    @Tag("slow")
    void sixHundredPowerLosses() throws IOException {
        trials(600, 23);
    }

    /** What a run saw: the last commit returned, the one in progress, where each commit's changes lay. */
    private static final class Run {
        long committedId;
        long committedRows;
        boolean flushing;
        long begin;
        boolean ended;
        Throwable failure;
        /** The store, when the run ended with the power on: closed by the caller after the power loss. */
        ColumnStore abandoned;
        final List<long[]> flushes = new ArrayList<>();
    }

    private void trials(final int count, final long seed) throws IOException {
        final Random rnd = new Random(seed);
        final Map<Long, Run> counted = new TreeMap<>();
        final Map<String, Integer> tally = new TreeMap<>();
        final Set<String> unsynced = new TreeSet<>();
        for (int t = 0; t < count; t++) {
            final long workload = t % WORKLOADS;
            Run uncut = counted.get(workload);
            if (uncut == null) {
                final Path dir = Files.createDirectories(tmp.resolve("count-" + workload));
                final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
                uncut = run(dir, workload, io);
                if (!uncut.ended) {
                    throw new AssertionError("the uncut run ended early", uncut.failure);
                }
                uncut.flushes.add(new long[] {0, io.changes()});
                for (final String op : io.unsyncedDirectoryOperations()) {
                    unsynced.add(op.replace(dir.toAbsolutePath().toString(), "DIR").replaceAll("[0-9]+", "N"));
                }
                io.powerLoss(); // the directory is not looked at again
                closeAbandoned(uncut);
                counted.put(workload, uncut);
            }
            final long total = uncut.flushes.get(uncut.flushes.size() - 1)[1];
            final long[] range = t % 2 == 0 || uncut.flushes.size() < 2 ? uncut.flushes.get(uncut.flushes.size() - 1)
                    : uncut.flushes.get(rnd.nextInt(uncut.flushes.size() - 1));
            final long cut = range[0] + 1 + (long) rnd.nextInt((int) Math.max(1, range[1] - range[0]));
            final Path dir = Files.createDirectories(tmp.resolve("t" + t));
            final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard()).cutPowerAt(cut);
            final String where = "workload " + workload + ", power cut at change " + cut + " of about " + total;
            final long powerSeed = rnd.nextLong();
            final Random recovery = (t / WORKLOADS) % 2 == 0 ? new Random(rnd.nextLong()) : null;
            tally.merge(trial(dir, workload, io, powerSeed, where, recovery), 1, Integer::sum);
        }
        System.out.println("[power-loss] ColumnStore: " + count + " power losses, all opened at a last commit with"
                + " exactly its rows: " + tally);
        System.out.println("[power-loss] ColumnStore: directory operations no directory force followed: "
                + unsynced);
    }

    /**
     * Runs the workload over {@code io} until its power goes off (or to its end), loses the power (every unforced
     * write and directory operation dropped when {@code powerSeed} is null, some of them kept otherwise), reopens the
     * store and checks it; returns where the power went off, for the tally. With {@code recovery}, the power goes off
     * again while the store is opened ({@link #powerLossInRecovery}).
     */
    private String trial(final Path dir, final long workload, final PowerLossFileIo io, final Long powerSeed,
                         final String cut, final Random recovery) throws IOException {
        final Run run = run(dir, workload, io);
        final String lost = powerSeed == null ? io.powerLoss() : io.powerLoss(new Random(powerSeed));
        closeAbandoned(run);
        String where = cut + ", power-loss seed " + powerSeed + ", last commit returned " + run.committedId
                + (run.flushing ? ", a commit in progress" : "") + (run.ended ? ", the run ended first" : "")
                + ":\n" + lost;
        final long undisturbed = recovery == null ? -1 : verify(copyOf(dir, "-undisturbed"), run, where);
        if (recovery != null) {
            where = powerLossInRecovery(dir, recovery, where);
        }
        final long opened = verify(dir, run, where);
        if (recovery != null) {
            assertEquals(undisturbed, opened, "the commit an undisturbed open opens at, " + where);
        }
        return (!run.flushing ? "outside a commit" : opened == run.committedId
                ? "in a commit, opened at the one before" : "in a commit, opened at it")
                + (recovery == null ? "" : ", then in its recovery");
    }

    /** A copy of the store's files in a new directory named with {@code suffix}. */
    private static Path copyOf(final Path dir, final String suffix) throws IOException {
        final Path copy = Files.createDirectories(dir.resolveSibling(dir.getFileName() + suffix));
        try (Stream<Path> files = Files.list(dir)) {
            for (final Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        return copy;
    }

    /**
     * Opens the store in {@code dir} over a {@link PowerLossFileIo} whose power goes off right after the open or at a
     * random change of it (cutting the manifest and the active segments back, deleting the segments no commit refers
     * to, rebuilding the IB-tree files), counted on a copy; returns {@code where} with what happened.
     */
    private static String powerLossInRecovery(final Path dir, final Random rnd, final String where)
            throws IOException {
        final PowerLossFileIo counting = new PowerLossFileIo(FileIo.standard());
        final ColumnStore counted = ColumnStore.open(copyOf(dir, "-counted"), StoreOracle.SCHEMA,
                StoreOracle.PROJECTIONS, CrashWorker.OPTIONS.toBuilder().fileIo(counting).build());
        final long changes = counting.changes();
        counted.close();
        // Half the cuts right after the open (what it left must be durable by then), half at one of its changes.
        final long cut = rnd.nextBoolean() || changes == 0 ? changes + 1 : 1 + rnd.nextInt((int) changes);
        final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard()).cutPowerAt(cut);
        final Run run = new Run();
        try {
            run.abandoned = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                    CrashWorker.OPTIONS.toBuilder().fileIo(io).build());
        } catch (final IOException | RuntimeException failure) {
            if (!io.isOff()) {
                throw new AssertionError("opening failed with the power on", failure);
            }
        }
        final long seed = rnd.nextLong();
        final String lost = io.powerLoss(new Random(seed));
        closeAbandoned(run);
        return where + "then the power cut again at change " + cut + " of the " + changes + " of the open,"
                + " power-loss seed " + seed + ":\n" + lost;
    }

    /**
     * The power goes off right after each creation, rename and deletion of a run, before anything else reaches the
     * disk (moments a cut at a random change seldom hits: a retired segment just deleted, a segment just created,
     * the manifest or an IB-tree file just renamed into place); for every {@value #OPERATION_STRIDE}th operation of
     * each workload in the default run, every one in the slow run; once with every unforced write and directory
     * operation lost, once with a random part of them kept. A deleted segment that comes back is no longer referred
     * to by the commit the store opens at, and is deleted again at open.
     */
    @Test
    void aPowerLossRightAfterDirectoryOperations() throws IOException {
        directoryOperationTrials(OPERATION_STRIDE, 24);
    }

    @Test
    @Tag("slow")
    void aPowerLossRightAfterEachDirectoryOperation() throws IOException {
        directoryOperationTrials(1, 25);
    }

    private void directoryOperationTrials(final int stride, final long seed) throws IOException {
        final Random rnd = new Random(seed);
        final Map<String, Integer> tally = new TreeMap<>();
        int count = 0;
        for (long workload = 0; workload < WORKLOADS; workload++) {
            final Path counted = Files.createDirectories(tmp.resolve("ops-" + workload));
            final PowerLossFileIo uncut = new PowerLossFileIo(FileIo.standard());
            final Run run = run(counted, workload, uncut);
            if (!run.ended) {
                throw new AssertionError("the uncut run ended early", run.failure);
            }
            uncut.powerLoss();
            closeAbandoned(run);
            final List<String> ops = uncut.directoryOperations();
            for (int k = 1 + (int) (workload % stride); k <= ops.size(); k += stride) {
                for (final Long powerSeed : Arrays.asList(null, rnd.nextLong())) {
                    final Path dir = Files.createDirectories(tmp.resolve("op-" + workload + "-" + k
                            + (powerSeed == null ? "" : "-random")));
                    final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard())
                            .cutPowerAfterDirectoryOperation(k);
                    final String op = ops.get(k - 1).replace(counted.toAbsolutePath().toString(), "DIR")
                            .replaceAll("[0-9]+", "N");
                    trial(dir, workload, io, powerSeed, "workload " + workload + ", power cut after directory"
                            + " operation " + k + " of about " + ops.size() + " (" + ops.get(k - 1) + ")",
                            powerSeed == null ? null : new Random(powerSeed + 1));
                    tally.merge(op, 1, Integer::sum);
                    count++;
                }
            }
        }
        System.out.println("[power-loss] ColumnStore: " + count + " power losses right after a directory operation,"
                + " all at a last commit with exactly its rows: " + tally);
    }

    /** Closes the store of a run that ended with the power on, now that it is off: stops its threads. */
    private static void closeAbandoned(final Run run) {
        if (run.abandoned != null) {
            try {
                run.abandoned.close();
            } catch (final IOException | RuntimeException afterPowerLoss) {
                // expected: its I/O fails
            }
        }
    }

    /** The workload until the power goes off (or all its steps); the store is then abandoned. */
    private static Run run(final Path dir, final long seed, final PowerLossFileIo io) {
        final Run run = new Run();
        ColumnStore store = null;
        try {
            store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                    CrashWorker.OPTIONS.toBuilder().fileIo(io).build());
            CrashWorker.steps(store, new SplittableRandom(seed * 7919 + 1), STEPS, line -> {
                if (line.equals("flush-begin")) {
                    run.flushing = true;
                    run.begin = io.changes();
                } else if (line.startsWith("committed ")) {
                    final String[] f = line.split(" ");
                    run.committedId = Long.parseLong(f[1]);
                    run.committedRows = Long.parseLong(f[2]);
                    run.flushing = false;
                    run.flushes.add(new long[] {run.begin, io.changes()});
                }
            });
            run.ended = true;
        } catch (final IOException | RuntimeException failure) {
            run.failure = failure;
            if (!io.isOff()) {
                throw new AssertionError("the workload failed with the power on", failure);
            }
        } finally {
            if (store != null && io.isOff()) {
                try {
                    store.close(); // its I/O fails: it only stops its threads and lets go
                } catch (final IOException | RuntimeException afterPowerLoss) {
                    // expected
                }
            } else if (store != null) {
                // The run ended with the power on: abandon the store as it is (the caller cuts the power).
                run.abandoned = store;
            }
        }
        return run;
    }

    /** Reopens the store: the last commit that returned, or the one in progress, with exactly its rows. */
    private static long verify(final Path dir, final Run run, final String where) {
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                CrashWorker.OPTIONS)) {
            final long id = store.lastCommit().map(CommitPoint::id).orElse(0L);
            if (id != run.committedId && !(run.flushing && id == run.committedId + 1)) {
                fail("opened at commit " + id + " after " + where);
            }
            final long rows = store.lastCommit().map(CommitPoint::rows).orElse(0L);
            if (id == run.committedId) {
                assertEquals(run.committedRows, rows, where);
            }
            store.lastCommit().ifPresent(c -> assertEquals(Long.toString(c.rows()), c.metadata().get("rows"),
                    where));
            assertEquals(rows, store.rows(), where);
            CrashTest.checkExactly(store, rows);
            assertTrue(id >= 0);
            return id;
        } catch (final IOException | RuntimeException e) {
            throw new AssertionError("reopening failed after " + where, e);
        } catch (final AssertionError e) {
            throw new AssertionError(e.getMessage() + " after " + where, e);
        }
    }
}
