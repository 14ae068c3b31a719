package io.nearsort.ldi.commit;

import io.nearsort.core.io.FaultInjectingFileIo;
import io.nearsort.core.io.FaultInjectingFileIo.Fault;
import io.nearsort.core.io.FaultInjectingFileIo.Operation;
import io.nearsort.core.io.FileIo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * I/O faults in the manifest's rewrite (issue 22; the column store's own fault test never grows a manifest to the
 * store's 1 MiB rewrite size): a failure at any call of the rewrite leaves a manifest that reopens at the last
 * commit with every retained commit, whether the old file or the new one is in place.
 */
class ManifestFaultTest {
    private static final byte[] LAYOUT = {1, 2, 3};
    private static final int RETAIN = 3;
    private static final long REWRITE_BYTES = 4096;

    @TempDir
    Path tmp;

    /** Commits until a rewrite is due; returns the manifest with the rewrite not yet run and the ids committed. */
    private static Manifest commitUntilDue(final Manifest m, final int commits) throws IOException {
        for (int c = 1; c <= commits; c++) {
            m.commit(Map.of("c", Integer.toString(c), "pad", "x".repeat(200)), 10L * c,
                    List.of(new ProjectionCommit(List.of(), new long[0], 0, 0, 1)), new int[][] {{}});
            if (c < commits) {
                assertFalse(m.rewriteIfDue(), "rewritten before commit " + commits);
            }
        }
        return m;
    }

    private static List<Long> ids(final Manifest m) {
        final List<Long> out = new ArrayList<>();
        m.commits().forEach(p -> out.add(p.id()));
        return out;
    }

    @Test
    void aFailureAnywhereInARewriteLosesNoCommit() throws IOException {
        // How many commits make a rewrite due, and how many calls of each operation the rewrite makes.
        final FaultInjectingFileIo count = new FaultInjectingFileIo(FileIo.standard());
        int due = 0;
        final Path countDir = tmp.resolve("count");
        java.nio.file.Files.createDirectories(countDir);
        try (Manifest m = Manifest.create(count, countDir, LAYOUT, 1, RETAIN, REWRITE_BYTES)) {
            for (int c = 1; c < 1000 && due == 0; c++) {
                m.commit(Map.of("c", Integer.toString(c), "pad", "x".repeat(200)), 10L * c,
                        List.of(new ProjectionCommit(List.of(), new long[0], 0, 0, 1)), new int[][] {{}});
                count.countOnly(path -> true);
                if (m.rewriteIfDue()) {
                    due = c;
                }
            }
        }
        assertTrue(due > 1, "no rewrite");
        int runs = 0;
        int failed = 0;
        for (Operation op : List.of(Operation.OPEN, Operation.READ, Operation.WRITE, Operation.FORCE, Operation.MOVE,
                Operation.DELETE)) {
            final long calls = count.calls(op);
            assertTrue(op == Operation.READ || op == Operation.DELETE || calls > 0, op + " never called");
            for (long n = 1; n <= calls; n++) {
                final Path dir = tmp.resolve("run-" + runs++);
                java.nio.file.Files.createDirectories(dir);
                final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard());
                final Manifest m = commitUntilDue(Manifest.create(io, dir, LAYOUT, 1, RETAIN, REWRITE_BYTES), due);
                final List<Long> expected = ids(m);
                io.inject(op, n, Fault.FAIL, false, path -> true);
                try {
                    assertTrue(m.rewriteIfDue());
                } catch (IOException e) {
                    failed++;
                    assertTrue(e.getMessage().contains(dir.toString()), op + " #" + n + ": " + e);
                }
                assertEquals(1, io.injected(), op + " #" + n);
                try {
                    m.close();
                } catch (IOException closeFailed) {
                    // What matters is the file left behind.
                }
                try (Manifest reopened = Manifest.open(dir, 1, RETAIN, -1, REWRITE_BYTES)) {
                    assertEquals(expected, ids(reopened), op + " #" + n);
                    assertEquals(Long.toString(due), reopened.lastCommit().orElseThrow().metadata().get("c"));
                    assertEquals(10L * due, reopened.lastCommit().orElseThrow().rows());
                }
            }
        }
        assertTrue(failed > 0 && failed <= runs, failed + " of " + runs);
        System.out.println("ManifestFaultTest: " + runs + " faults in a rewrite (" + failed + " failed it), "
                + "calls: OPEN " + count.calls(Operation.OPEN) + ", READ " + count.calls(Operation.READ) + ", WRITE "
                + count.calls(Operation.WRITE) + ", FORCE " + count.calls(Operation.FORCE) + ", MOVE "
                + count.calls(Operation.MOVE) + ", DELETE " + count.calls(Operation.DELETE));
    }
}
