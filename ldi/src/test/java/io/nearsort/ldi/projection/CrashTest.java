package io.nearsort.ldi.projection;

import io.nearsort.ldi.commit.CommitPoint;
import io.nearsort.ldi.io.StoreLock;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Crash safety: a child JVM ({@link CrashWorker}) appends, commits, maintains and reclaims on a store and is killed
 * with {@code destroyForcibly()} at a random moment of a chosen phase — appends, flushes, maintenance, reclamation,
 * in turn. Each kill is followed by a reopen that must show exactly the rows of the last completed commit, in every
 * projection (the commit the child last reported, or the one it was making when it died), with that commit's
 * metadata. Stores carry over from kill to kill, so recovery is also tested on recovered stores. The default run
 * kills 100 times; {@code mvn -pl ldi test -Dtest=CrashTest -Dgroups=slow} kills 1,000 times.
 */
class CrashTest {
    private static final String[] PHASES = {"append", "flush", "maint", "reclaim"};
    /** A store that has grown past this many rows is started afresh (verification reads every row). */
    private static final long MAX_ROWS = 25_000;
    /** Kills run in this many lanes side by side, each on a store of its own (children wait on fsync a lot). */
    private static final int LANES = 3;

    @TempDir
    Path root;

    @Test
    void hundredKills() throws Exception {
        kills(100, 7);
    }

    @Test
    @Tag("slow")
    void thousandKills() throws Exception {
        kills(1000, 8);
    }

    /** {@code count} kills in {@link #LANES} lanes of their own store each, run side by side. */
    private void kills(final int count, final long seed) throws Exception {
        final Map<String, Integer> killedIn = new TreeMap<>();
        final long[] rollBacks = new long[1];
        final java.util.concurrent.ExecutorService lanes = java.util.concurrent.Executors.newFixedThreadPool(LANES);
        final List<java.util.concurrent.Future<?>> done = new ArrayList<>();
        for (int lane = 0; lane < LANES; lane++) {
            final int n = count / LANES + (lane < count % LANES ? 1 : 0);
            final Path dir = root.resolve("store" + lane);
            final long laneSeed = seed * 31 + lane;
            done.add(lanes.submit(() -> {
                lane(dir, n, laneSeed, killedIn, rollBacks);
                return null;
            }));
        }
        lanes.shutdown();
        try {
            for (java.util.concurrent.Future<?> f : done) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    throw new AssertionError(e.getCause());
                }
            }
        } finally {
            lanes.shutdownNow();
        }
        int total = 0;
        for (int v : killedIn.values()) {
            total += v;
        }
        assertEquals(count, total);
        System.out.println("CrashTest: " + count + " kills; the child's last line before each kill: " + killedIn
                + "; roll-backs to the previous commit checked: " + rollBacks[0]);
        assertTrue(killedIn.keySet().stream().anyMatch(s -> s.startsWith("flush-begin")), killedIn.toString());
    }

    private void lane(final Path dir, final int count, final long seed, final Map<String, Integer> killedIn,
                      final long[] rollBacks) throws Exception {
        final SplittableRandom rnd = new SplittableRandom(seed);
        long knownId = 0;
        long knownRows = 0;
        for (int k = 0; k < count; k++) {
            final String phase = PHASES[k % PHASES.length];
            final Path progress = dir.resolveSibling(dir.getFileName() + ".progress");
            Files.deleteIfExists(progress);
            final Process child = start(dir, rnd.nextLong(), progress);
            final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            final Thread reader = new Thread(() -> pump(child, lines), "crash-child-output");
            reader.setDaemon(true);
            reader.start();
            final List<String> seen = new ArrayList<>();
            long reported = knownId;
            long reportedRows = knownRows;
            String last = "";
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                final String line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line == null) {
                    if (!child.isAlive() && lines.isEmpty()) {
                        fail("the child exited (" + child.exitValue() + ") before the kill:\n" + String.join("\n", seen));
                    }
                    if (System.nanoTime() > deadline) {
                        child.destroyForcibly();
                        fail("no '" + phase + "-begin' within 60 s:\n" + String.join("\n", seen));
                    }
                    continue;
                }
                seen.add(line);
                if (line.startsWith("error")) {
                    child.destroyForcibly();
                    fail("the child failed:\n" + String.join("\n", seen) + drain(lines));
                }
                if (line.startsWith("committed ")) {
                    final String[] f = line.split(" ");
                    reported = Long.parseLong(f[1]);
                    reportedRows = Long.parseLong(f[2]);
                }
                if (line.startsWith("open") && k % 10 == 0) {
                    // While the child has the store open, no other process may open it.
                    final StoreLock.StoreLockedException e = assertThrows(StoreLock.StoreLockedException.class,
                            () -> ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                                    CrashWorker.OPTIONS));
                    assertTrue(e.getMessage().contains("process " + child.pid()), e.getMessage());
                }
                if (line.equals(phase + "-begin")) {
                    Thread.sleep(rnd.nextInt(switch (phase) {
                        case "append" -> 8;
                        case "flush" -> 12;
                        case "reclaim" -> 3;
                        default -> 20;
                    }));
                    break;
                }
            }
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the killed child did not exit");
            reader.join(5000);
            // Its pipe lost what the parent had not read when it was destroyed: the progress file has every line.
            seen.clear();
            final String written = Files.readString(progress, StandardCharsets.UTF_8);
            // A line the kill cut short (no newline yet) is not a report.
            for (String line : written.substring(0, written.lastIndexOf('\n') + 1).split("\n")) {
                seen.add(line);
                final String[] f = line.split(" ");
                if (f.length == 3 && f[0].equals("committed")) {
                    reported = Long.parseLong(f[1]);
                    reportedRows = Long.parseLong(f[2]);
                }
            }
            for (String s : seen) {
                if (s.endsWith("-begin") || s.endsWith("-end") || s.startsWith("committed")) {
                    last = s.startsWith("committed") ? "flush-end" : s;
                }
            }
            synchronized (killedIn) {
                killedIn.merge(last, 1, Integer::sum);
            }
            final long[] opened = verify(dir, reported, reportedRows, seen);
            knownId = opened[0];
            knownRows = opened[1];
            if (k % 10 == 5 && checkRollBack(dir)) {
                synchronized (killedIn) {
                    rollBacks[0]++;
                }
            }
            if (knownRows > MAX_ROWS) {
                deleteTree(dir);
                knownId = 0;
                knownRows = 0;
            }
        }
    }

    /** Reopens the store after a kill: exactly the last completed commit's rows; returns its id and rows. */
    private static long[] verify(final Path dir, final long reported, final long reportedRows, final List<String> seen)
            throws IOException {
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                CrashWorker.OPTIONS)) {
            final long id = store.lastCommit().map(CommitPoint::id).orElse(0L);
            // The last reported commit completed; the child may have completed one more before it died.
            assertTrue(id == reported || id == reported + 1, "opened at commit " + id + ", the child reported "
                    + reported + "; retained " + store.commits() + ":\n" + String.join("\n", seen));
            final long rows = store.lastCommit().map(CommitPoint::rows).orElse(0L);
            if (id == reported) {
                assertEquals(reportedRows, rows);
            }
            store.lastCommit().ifPresent(c -> assertEquals(Long.toString(c.rows()), c.metadata().get("rows")));
            assertEquals(rows, store.rows());
            checkExactly(store, rows);
            return new long[] {id, rows};
        }
    }

    /** Both projections hold rows 0 .. rows-1, each once, with their values. */
    static void checkExactly(final ColumnStore store, final long rows) throws IOException {
        final boolean[] seenById = new boolean[(int) rows];
        long n = 0;
        try (RowCursor c = store.scan("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "id", "note")) {
            while (c.next()) {
                final long r = c.rowId();
                assertTrue(r >= 0 && r < rows && !seenById[(int) r], "by_id: row " + r + " of " + rows);
                seenById[(int) r] = true;
                final Object[] expected = CrashWorker.row(r);
                assertEquals(expected[0], c.getLong(0));
                assertEquals(expected[1], c.getString(1));
                n++;
            }
        }
        assertEquals(rows, n, "by_id rows");
        final boolean[] seenByDistance = new boolean[(int) rows];
        n = 0;
        try (RowCursor c = store.scan("by_distance", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                "distance", "flag", "amount")) {
            while (c.next()) {
                final long r = c.rowId();
                assertTrue(r >= 0 && r < rows && !seenByDistance[(int) r], "by_distance: row " + r + " of " + rows);
                seenByDistance[(int) r] = true;
                final Object[] expected = CrashWorker.row(r);
                assertEquals((Double) expected[2], c.getDouble(0), 0.0);
                assertEquals(expected[3], c.getString(1));
                assertEquals(expected[4], c.getLong(2));
                n++;
            }
        }
        assertEquals(rows, n, "by_distance rows");
    }

    /** On a copy: the commit before the last is retained and opens with exactly its rows. */
    private boolean checkRollBack(final Path dir) throws IOException {
        final long previous;
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                CrashWorker.OPTIONS)) {
            final List<CommitPoint> commits = store.commits();
            if (commits.size() < 2) {
                return false;
            }
            previous = commits.get(commits.size() - 2).id();
        }
        final Path copy = dir.resolveSibling(dir.getFileName() + "-copy");
        deleteTree(copy);
        Files.createDirectories(copy);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        try (ColumnStore store = ColumnStore.open(copy, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                CrashWorker.OPTIONS.toBuilder().atCommit(previous).build())) {
            final CommitPoint c = store.lastCommit().orElseThrow();
            assertEquals(previous, c.id());
            checkExactly(store, c.rows());
        }
        return true;
    }

    private static Process start(final Path dir, final long seed, final Path progress) throws IOException {
        return new ProcessBuilder(command(dir, seed, progress)).redirectErrorStream(true).start();
    }

    private static List<String> command(final Path dir, final long seed, final Path progress) {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> cmd = new ArrayList<>(List.of(java, "--add-exports",
                "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-XX:-UsePerfData", "-Xshare:auto"));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CrashWorker.class.getName(),
                dir.toString(), Long.toString(seed), progress.toString()));
        return cmd;
    }

    private static void pump(final Process child, final BlockingQueue<String> lines) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException killed) {
            // The stream ends when the child is killed.
        }
    }

    private static String drain(final BlockingQueue<String> lines) throws InterruptedException {
        final StringBuilder s = new StringBuilder();
        String line;
        while ((line = lines.poll(2, TimeUnit.SECONDS)) != null) {
            s.append('\n').append(line);
        }
        return s.toString();
    }

    private static void deleteTree(final Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path f : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
