package io.nearsort.ldi.projection;

import io.nearsort.ldi.commit.CommitPoint;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The child process of {@link CrashTest}: opens a store, continues the deterministic row sequence from its last
 * commit, and loops — appends (rows or batches), commits, maintains, reclaims — printing a line as each phase
 * begins and ends, until it is killed. Row {@code i} is {@link #row(long)}, so the parent can tell exactly which
 * rows a commit must hold. Every line goes to standard output (the parent times its kill by it) and is appended to
 * the progress file: when a process is destroyed, what it wrote to its pipe and the parent did not read yet is
 * lost, while what it wrote to a file is not.
 *
 * <pre>java -cp … io.nearsort.ldi.projection.CrashWorker STORE_DIR SEED PROGRESS_FILE [STEPS]</pre>
 *
 * With STEPS it stops by itself after that many steps and prints {@code done}.
 */
public final class CrashWorker {
    /** Small buckets, buffers and segments, so that a short run writes, maintains, reclaims and deletes files. */
    static final ColumnStoreOptions OPTIONS = ColumnStoreOptions.builder().buckets(32, 256)
            .training(256, 0, 512).maintenance(4).segmentBytes(16 * 1024).retainedCommits(2)
            .reclamation(0.3).commitOnClose(false).memoryBudget(32 << 20).build();

    private CrashWorker() {
    }

    /** Row {@code i} of the sequence every crash run appends. */
    static Object[] row(final long i) {
        return StoreOracle.randomRow(i, new SplittableRandom(i * 0x9E3779B97F4A7C15L + 17));
    }

    public static void main(final String[] args) throws Exception {
        final Path dir = Path.of(args[0]);
        final SplittableRandom rnd = new SplittableRandom(Long.parseLong(args[1]));
        progress = new java.io.FileOutputStream(args[2], true);
        final long steps = args.length > 3 ? Long.parseLong(args[3]) : Long.MAX_VALUE;
        try (ColumnStore store = ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, OPTIONS)) {
            steps(store, rnd, steps, CrashWorker::say);
            say("done");
        } catch (Throwable t) {
            System.out.println("error " + t);
            t.printStackTrace(System.out);
            System.out.flush();
            System.exit(3);
        }
    }

    /** Where the workload's progress lines go. */
    @FunctionalInterface
    interface Say {
        void say(String line) throws java.io.IOException;
    }

    /**
     * The workload: from the store's last commit, {@code steps} steps of appends (rows or batches), commits,
     * maintenance and reclamation, each phase announced to {@code out} as it begins and ends ({@code committed ID
     * ROWS} after a commit returned). Shared with {@link PowerLossTest}, which runs it in process.
     */
    static void steps(final ColumnStore store, final SplittableRandom rnd, final long steps, final Say out)
            throws java.io.IOException {
        long rows = store.lastCommit().map(CommitPoint::rows).orElse(0L);
        out.say("open " + rows);
        for (long step = 0; step < steps; step++) {
            out.say("append-begin");
            final int n = 1 + rnd.nextInt(600);
            if (rnd.nextBoolean()) {
                final List<Object[]> batch = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    batch.add(row(rows + i));
                }
                store.append(StoreOracle.batchOf(batch));
            } else {
                for (int i = 0; i < n; i++) {
                    store.append(row(rows + i));
                }
            }
            rows += n;
            out.say("append-end");
            if (rnd.nextInt(4) > 0) {
                out.say("flush-begin");
                final CommitPoint c = store.flush(Map.of("rows", Long.toString(rows), "step", Long.toString(step)));
                out.say("committed " + c.id() + " " + c.rows());
            }
            if (rnd.nextInt(3) == 0) {
                out.say("maint-begin");
                store.maintain(rnd.nextBoolean() ? "by_distance" : "by_id");
                out.say("maint-end");
            }
            if (rnd.nextInt(3) > 0) {
                out.say("reclaim-begin");
                store.reclaim(rnd.nextBoolean() ? "by_distance" : "by_id", rnd.nextDouble() * 0.5);
                out.say("reclaim-end");
            }
        }
    }

    private static java.io.FileOutputStream progress;

    private static void say(final String line) throws java.io.IOException {
        progress.write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        System.out.println(line);
        System.out.flush();
    }
}
