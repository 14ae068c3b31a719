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
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 22, power loss: {@link CrashWorker}'s workload (appends of rows and batches, commits with metadata,
 * maintenance and reclamation, in the foreground and in the background, with small segments so that files are
 * created, renamed and deleted) runs in process over a {@link PowerLossFileIo}, which cuts the power at a random
 * change (a write, truncation, force, rename or deletion) and rewrites every file to what a disk may hold: its
 * content as of its last {@code force} plus a random subset of the 512-byte sectors written since (none, all or each
 * with probability one half, per file; a file never forced may vanish). The abandoned store is closed (nothing more
 * reaches the disk) and reopened through {@link FileIo#standard()}: it must open at the last commit that returned,
 * or at the one in progress, with exactly its rows in both projections and its metadata ({@link CrashTest}'s
 * checks). Half the cuts are uniform over the changes of a run, half over those of one commit; the workload seed
 * varies with the trial. The changes of each workload are counted by a run without a cut (background maintenance
 * makes the count vary a little from run to run).
 *
 * <p>The default run makes 60 trials; {@code -Dgroups=slow -Dnearsort.excludedGroups=none} 600.
 */
class PowerLossTest {
    private static final int STEPS = 10;
    private static final int WORKLOADS = 6;

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
            final Run run = run(dir, workload, io);
            final long powerSeed = rnd.nextLong();
            final String lost = io.powerLoss(new Random(powerSeed));
            closeAbandoned(run);
            final String where = "workload " + workload + ", power cut at change " + cut + " of about " + total
                    + ", power-loss seed " + powerSeed + ", last commit returned " + run.committedId
                    + (run.flushing ? ", a commit in progress" : "") + (run.ended ? ", the run ended first" : "")
                    + ":\n" + lost;
            final long opened = verify(dir, run, where);
            tally.merge(!run.flushing ? "outside a commit" : opened == run.committedId
                    ? "in a commit, opened at the one before" : "in a commit, opened at it", 1, Integer::sum);
        }
        System.out.println("[power-loss] ColumnStore: " + count + " power losses, all opened at a last commit with"
                + " exactly its rows: " + tally);
        System.out.println("[power-loss] ColumnStore: directory operations no directory force followed: "
                + unsynced);
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
