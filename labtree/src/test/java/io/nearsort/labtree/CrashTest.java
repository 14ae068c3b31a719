package io.nearsort.labtree;

import io.nearsort.core.memory.UnsafeAccess;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Crash consistency of {@link LabArray} (issue 22): a child JVM ({@link CrashWorker}) writes random epochs into an
 * array, flushing after each, and is killed with {@code destroyForcibly()} (SIGKILL) at a random moment — a random
 * delay after it opened the array (mostly inside an epoch's writes, while the small buffer pool evicts pages), or
 * a random delay after it began a flush or close. After each kill, a copy of the array file and its journal is
 * opened and must hold exactly the oracle's array after flush {@code S} or {@code S + 1}, where {@code S} is the
 * last flush the child reported as returned: {@code S + 1} only if that flush was in progress and passed its
 * commit point before the kill (its report may not have been written). Element 0 says which flush the file holds;
 * every element is then compared. The next child recovers the original file itself and must report the same
 * flush, so recovery is tested on recovered files too. The file carries over from kill to kill.
 *
 * <p>The default run kills 100 times; 1,000 times with
 * {@code mvn -B -ntp -pl labtree -am test -Dtest=CrashTest -Dgroups=slow -Dnearsort.excludedGroups=none
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class CrashTest {
    /** Kills run in this many lanes side by side, each on an array of its own (children wait on fsync a lot). */
    private static final int LANES = 2;

    @TempDir
    Path root;

    @Test
    void hundredKills() throws Exception {
        kills(100, 22);
    }

    @Test
    @Tag("slow")
    void thousandKills() throws Exception {
        kills(1000, 2022);
    }

    /** What the kills saw, over all lanes. */
    private static final class Tally {
        final Map<String, Integer> killedAfter = new TreeMap<>();
        int inFlushOrClose;
        int betweenFlushesWithJournal;
        int committedUnreported;
        long flushes;

        synchronized void add(final String lastLine, final boolean inFlush, final boolean journal,
                              final boolean unreported, final long newFlushes) {
            killedAfter.merge(lastLine.split(" ")[0], 1, Integer::sum);
            inFlushOrClose += inFlush ? 1 : 0;
            betweenFlushesWithJournal += !inFlush && journal ? 1 : 0;
            committedUnreported += unreported ? 1 : 0;
            flushes += newFlushes;
        }
    }

    private void kills(final int count, final long seed) throws Exception {
        assertTrue(UnsafeAccess.isAvailable(), "the test JVM runs with " + UnsafeAccess.REQUIRED_FLAG);
        final Tally tally = new Tally();
        final ExecutorService lanes = Executors.newFixedThreadPool(LANES);
        final List<Future<?>> done = new ArrayList<>();
        for (int lane = 0; lane < LANES; lane++) {
            final int n = count / LANES + (lane < count % LANES ? 1 : 0);
            final Path dir = Files.createDirectories(root.resolve("lane" + lane));
            final long laneSeed = seed * 31 + lane;
            done.add(lanes.submit(() -> {
                lane(dir, n, laneSeed, tally);
                return null;
            }));
        }
        lanes.shutdown();
        try {
            for (final Future<?> f : done) {
                try {
                    f.get();
                } catch (final ExecutionException e) {
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    throw new AssertionError(e.getCause());
                }
            }
        } finally {
            lanes.shutdownNow();
        }
        System.out.println("LabArray CrashTest: " + count + " kills, none lost a returned flush; last line before "
                + "the kill " + tally.killedAfter + "; in a flush or close " + tally.inFlushOrClose
                + "; between flushes with evicted pages in the journal " + tally.betweenFlushesWithJournal
                + "; opened at a flush that committed but was not reported " + tally.committedUnreported
                + "; flushes verified " + tally.flushes);
        assertTrue(tally.inFlushOrClose >= count / 10, "kills inside a flush: " + tally.inFlushOrClose);
        assertTrue(tally.betweenFlushesWithJournal >= count / 10, "kills between flushes that left pages in the "
                + "journal: " + tally.betweenFlushesWithJournal);
    }

    private static void lane(final Path dir, final int count, final long seed, final Tally tally) throws Exception {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final Path file = dir.resolve("array.lab");
        final Path journal = dir.resolve("array.lab.journal");
        final Path progress = dir.resolve("progress.txt");
        final double[] oracle = new double[(int) (CrashWorker.ROWS * CrashWorker.COLUMNS)];
        long known = 0; // the flush the file is known to hold
        for (int k = 0; k < count; k++) {
            Files.deleteIfExists(progress);
            final boolean inFlush = k % 2 == 1;
            final Process child = new ProcessBuilder(command(file, seed, progress, rnd.nextBoolean() ? 0 : 500))
                    .redirectErrorStream(true).start();
            final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            final Thread reader = new Thread(() -> pump(child, lines), "crash-child-output");
            reader.setDaemon(true);
            reader.start();
            waitForKillMoment(child, lines, inFlush, rnd, known);
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the killed child did not exit");
            reader.join(5000);
            final String written = Files.readString(progress, StandardCharsets.UTF_8);
            long reported = known;
            String last = "";
            for (final String line : written.substring(0, written.lastIndexOf('\n') + 1).split("\n")) {
                if (line.startsWith("error")) {
                    fail("the child failed:\n" + written);
                }
                if (line.startsWith("flushed ")) {
                    reported = Long.parseLong(line.substring(8));
                }
                last = line;
            }
            final boolean journalLeft = Files.exists(journal) && Files.size(journal) > 0;
            final long opened = verifyCopy(dir, file, journal, reported, known, seed, oracle);
            tally.add(last, last.startsWith("flush-begin"), journalLeft, opened == reported + 1, opened - known);
            known = opened;
        }
    }

    /** Returns at the moment to kill: a random delay after the child opened the array, or after a flush began. */
    private static void waitForKillMoment(final Process child, final BlockingQueue<String> lines,
                                          final boolean inFlush, final SplittableRandom rnd, final long known)
            throws InterruptedException {
        final int flushesToPass = rnd.nextInt(3);
        int flushesSeen = 0;
        final List<String> seen = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            final String line = lines.poll(50, TimeUnit.MILLISECONDS);
            if (line == null) {
                if (!child.isAlive() && lines.isEmpty()) {
                    fail("the child exited (" + child.exitValue() + ") before the kill:\n" + String.join("\n", seen));
                }
                if (System.nanoTime() > deadline) {
                    child.destroyForcibly();
                    fail("no kill moment within 60 s:\n" + String.join("\n", seen));
                }
                continue;
            }
            seen.add(line);
            if (line.startsWith("error")) {
                child.destroyForcibly();
                fail("the child failed:\n" + String.join("\n", seen));
            }
            if (line.startsWith("open ")) {
                // The child recovered the file itself: it must be at the flush the copy opened at.
                assertEquals(known, Long.parseLong(line.substring(5)), "the child recovered to another flush");
                if (!inFlush) {
                    Thread.sleep(rnd.nextInt(150));
                    return;
                }
            }
            if (inFlush && line.startsWith("flush-begin") && flushesSeen++ == flushesToPass) {
                Thread.sleep(rnd.nextInt(4)); // a flush of this array takes a few milliseconds
                return;
            }
        }
    }

    /**
     * Opens a copy of the killed child's file (and journal) and checks it holds exactly the oracle's array after
     * flush {@code reported} or {@code reported + 1}; advances {@code oracle} from flush {@code known} to it and
     * returns it.
     */
    private static long verifyCopy(final Path dir, final Path file, final Path journal, final long reported,
                                   final long known, final long seed, final double[] oracle) throws IOException {
        final Path copy = dir.resolve("copy.lab");
        final Path copyJournal = dir.resolve("copy.lab.journal");
        Files.deleteIfExists(copyJournal);
        if (!Files.exists(file)) {
            assertEquals(0, reported, "the file is gone after flush " + reported);
            return 0;
        }
        Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
        if (Files.exists(journal)) {
            Files.copy(journal, copyJournal);
        }
        try (LabArray a = CrashWorker.open(copy, 0)) {
            final long flush = (long) a.getLinear(CrashWorker.FLUSH_NUMBER);
            assertTrue(flush == reported || flush == reported + 1, "opened at flush " + flush + "; the child "
                    + "reported flush " + reported + " returned");
            for (long e = known + 1; e <= flush; e++) {
                CrashWorker.epoch(seed, e, (key, value) -> oracle[(int) key] = value);
            }
            final double[] stored = new double[oracle.length];
            a.readRectangle(new long[] {0, 0}, new long[] {CrashWorker.ROWS - 1, CrashWorker.COLUMNS - 1}, stored);
            assertArrayEquals(oracle, stored, "the array after flush " + flush);
            assertEquals(java.util.Arrays.stream(oracle).filter(v -> v != 0.0).count(), a.stats().size(),
                    "stored elements after flush " + flush);
            return flush;
        }
    }

    private static List<String> command(final Path file, final long seed, final Path progress,
                                        final int updateBuffer) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--add-exports",
                "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-XX:-UsePerfData", "-Xshare:auto", "-cp", System.getProperty("java.class.path"),
                CrashWorker.class.getName(), file.toString(), Long.toString(seed), progress.toString(),
                Integer.toString(updateBuffer));
    }

    private static void pump(final Process child, final BlockingQueue<String> lines) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
            }
        } catch (final IOException killed) {
            // The stream ends when the child is killed.
        }
    }
}
