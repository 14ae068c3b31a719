package io.nearsort.ldi.projection;

import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FaultInjectingFileIo;
import io.nearsort.core.io.FaultInjectingFileIo.Fault;
import io.nearsort.core.io.FaultInjectingFileIo.Operation;
import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.commit.CommitPoint;
import io.nearsort.ldi.commit.ManifestDescriptor;
import io.nearsort.ldi.io.StoreLock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * I/O faults (issue 22): a column store workload — batches appended, commits, maintenance, reclamation, IB-tree
 * builds, range queries, a close and a reopen — runs through a {@link FaultInjectingFileIo}, once counting each
 * operation's calls, then once per injection point. After every injected fault: (a) the exception names the file
 * (or the store directory), a flipped bit is reported as a {@link CorruptFileException} and never returned as row
 * data; (b) the store goes on working (a commit after the fault succeeds and every row appended reads back) or
 * refuses further use clearly; (c) it closes releasing every resource (the lock: reopening works), and reopened
 * through {@link FileIo#standard()} it is at the last commit that returned normally, with exactly its rows. A short
 * write must be invisible. The matrix of fault × call-site class is printed (docs/reliability.md, "I/O faults").
 */
class IoFaultTest {
    private static final long SEED = 22;
    /** Injection points per fault when an operation has more calls than this. */
    private static final int SAMPLE = 40;
    /** The disk sizes tried are below this. */
    private static final long DISK_BYTES = 350_000;
    /** Small buckets, small segments, one cached IB-tree node, everything on demand: deterministic calls. */
    static final ColumnStoreOptions BASE = ColumnStoreOptions.builder().buckets(32, 512).training(1000, 16, 2048)
            .readers(1, 2.0, 8).index(1, 1).maintenance(0).reclamation(0).segmentBytes(8 * 1024)
            .retainedCommits(1).commitOnClose(false).build();

    @TempDir
    static Path tmp;

    private static Map<Operation, Long> counted;
    private static long dirBytes;
    private static int runs;
    /** fault → call-site class → outcome → count; printed after all tests. */
    private static final Map<String, Map<String, Map<String, Integer>>> MATRIX = new TreeMap<>();
    private static final List<AssertionError> FAILURES = new ArrayList<>();

    /** The last commit that returned normally. */
    private record Expected(long id, long rows, String tag) {
    }

    /** The workload, run through {@code io}: the step it is in, the rows appended, the last normal commit. */
    private static final class Workload {
        final Path dir;
        final FaultInjectingFileIo io;
        final ColumnStoreOptions options;
        final StoreOracle oracle = new StoreOracle();
        final SplittableRandom rnd = new SplittableRandom(SEED);
        ColumnStore store;
        Expected lastOk;
        String step = "open";
        /** The step in which the first fault was injected, once a step ended with one. */
        String faultStep;

        Workload(final Path dir, final FaultInjectingFileIo io) {
            this(dir, io, BASE);
        }

        Workload(final Path dir, final FaultInjectingFileIo io, final ColumnStoreOptions options) {
            this.dir = dir;
            this.io = io;
            this.options = options;
        }

        /** Enters workload step {@code next}, noting the step that ends if a fault was injected in it. */
        void step(final String next) {
            if (faultStep == null && io.injected() > 0) {
                faultStep = step;
            }
            step = next;
        }

        /** The step the first fault was injected in (the current one if none ended with a fault). */
        String stepOfFault() {
            return faultStep != null ? faultStep : step;
        }

        /** Through an {@link AnonymousFileIo}: the store must name the file itself. */
        ColumnStore open() throws IOException {
            return ColumnStore.open(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                    options.toBuilder().fileIo(new AnonymousFileIo(io)).build());
        }

        void commit(final String tag) throws IOException {
            step("commit");
            final CommitPoint p = store.flush(Map.of("c", tag));
            assertEquals(oracle.rows.size(), p.rows());
            lastOk = new Expected(p.id(), p.rows(), tag);
        }

        void run() throws IOException {
            step("open");
            store = open();
            for (int c = 1; c <= 3; c++) {
                step("append");
                oracle.appendBatch(store, 600, rnd);
                commit("c" + c);
            }
            step("maintenance");
            store.maintain("by_distance");
            store.maintain("by_id");
            commit("m");
            step("reclamation");
            store.reclaim("by_distance", 0.0);
            store.reclaim("by_id", 0.0);
            commit("r1");
            step("append");
            oracle.appendBatch(store, 200, rnd);
            commit("r2");
            step("query");
            oracle.checkQueries(store, rnd, 3);
            closeStore();
            step("reopen");
            store = open();
            step("query");
            oracle.checkQueries(store, rnd, 3);
            oracle.checkScans(store, rnd, 1);
            step("append");
            oracle.appendBatch(store, 300, rnd);
            commit("d");
            closeStore();
        }

        /** A close that throws has still closed the store. */
        void closeStore() throws IOException {
            step("close");
            final ColumnStore s = store;
            store = null;
            s.close();
        }
    }

    @BeforeAll
    static void countCalls() throws IOException {
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard()).countOnly(path -> true);
        final Workload w = new Workload(tmp.resolve("count"), io);
        w.run();
        counted = new TreeMap<>();
        for (Operation op : Operation.values()) {
            counted.put(op, io.calls(op));
        }
        try (Stream<Path> files = Files.list(w.dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                dirBytes += Files.size(f);
            }
        }
        verifyReopened(w);
        for (Operation op : List.of(Operation.OPEN, Operation.READ, Operation.WRITE, Operation.FORCE,
                Operation.MOVE, Operation.DELETE)) {
            assertTrue(counted.get(op) > 0, "the workload makes no " + op + " call: " + counted);
        }
    }

    @AfterAll
    static void printMatrix() {
        System.out.println("IoFaultTest: " + runs + " runs; calls per operation of one workload: " + counted
                + "; store files at the end: " + dirBytes + " bytes");
        MATRIX.forEach((fault, classes) -> classes.forEach((site, outcomes) ->
                System.out.println("  " + fault + " | " + site + " | " + outcomes)));
    }

    @Test
    void aFailedWriteIsReportedAndLosesNothingCommitted() throws IOException {
        for (long n : FaultInjectingFileIo.samplePoints(counted.get(Operation.WRITE), SAMPLE, SEED + 1)) {
            inject("FAIL WRITE", io -> io.inject(Operation.WRITE, n, Fault.FAIL, false, path -> true));
        }
    }

    @Test
    void aShortWriteIsInvisible() throws IOException {
        for (long n : FaultInjectingFileIo.samplePoints(counted.get(Operation.WRITE), SAMPLE, SEED + 2)) {
            inject("SHORT_WRITE", io -> io.inject(Operation.WRITE, n, Fault.SHORT_WRITE, false, path -> true));
        }
    }

    @Test
    void aFailedForceIsReportedAndLosesNothingCommitted() throws IOException {
        for (long n : FaultInjectingFileIo.samplePoints(counted.get(Operation.FORCE), SAMPLE, SEED + 3)) {
            inject("FAIL FORCE", io -> io.inject(Operation.FORCE, n, Fault.FAIL, false, path -> true));
        }
    }

    @Test
    void aDeadDeviceAtAForceIsReportedAndLosesNothingCommitted() throws IOException {
        for (long n : FaultInjectingFileIo.samplePoints(counted.get(Operation.FORCE), SAMPLE, SEED + 4)) {
            inject("FAIL FORCE sticky", io -> io.inject(Operation.FORCE, n, Fault.FAIL, true, path -> true));
        }
    }

    @Test
    void aFlippedBitIsReportedAsCorruptionNeverReturnedAsData() throws IOException {
        for (long n : FaultInjectingFileIo.samplePoints(counted.get(Operation.READ), SAMPLE, SEED + 5)) {
            inject("FLIP_BIT READ", io -> io.inject(Operation.READ, n, Fault.FLIP_BIT, false, path -> true));
        }
    }

    @Test
    void aFlippedBitInTheManifestIsReportedAsCorruption() throws IOException {
        final FaultInjectingFileIo count = new FaultInjectingFileIo(FileIo.standard())
                .countOnly(IoFaultTest::isManifest);
        new Workload(tmp.resolve("count-manifest"), count).run();
        for (long n = 1; n <= count.calls(Operation.READ); n++) {
            final long at = n;
            inject("FLIP_BIT READ manifest", io -> io.inject(Operation.READ, at, Fault.FLIP_BIT, false,
                    IoFaultTest::isManifest));
        }
    }

    @Test
    void aFlippedBitReadByParallelReadersIsReportedAsCorruption() throws IOException {
        // LDI_Par (Eq. 9): three reader threads read the buckets of a query, grouped into extents (θ = 2).
        final ColumnStoreOptions parallel = BASE.toBuilder().readers(3, 2.0, 8).build();
        final FaultInjectingFileIo count = new FaultInjectingFileIo(FileIo.standard())
                .countOnly(IoFaultTest::isSegment);
        new Workload(tmp.resolve("count-parallel"), count, parallel).run();
        for (long n : FaultInjectingFileIo.samplePoints(count.calls(Operation.READ), SAMPLE, SEED + 12)) {
            inject("FLIP_BIT READ segments, 3 readers", parallel, io -> io.inject(Operation.READ, n, Fault.FLIP_BIT,
                    false, IoFaultTest::isSegment));
        }
    }

    private static boolean isSegment(final Path path) {
        return path.getFileName().toString().endsWith(".seg");
    }

    private static boolean isManifest(final Path path) {
        return path.getFileName().toString().equals(ManifestDescriptor.FILE);
    }

    @Test
    void aFullDiskIsReportedAndLosesNothingCommitted() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(SEED + 6);
        final TreeSet<Long> bytes = new TreeSet<>(List.of(0L, 1L, 100L, 4096L));
        // Up to about twice the store's files at the end (170 KB); fixed, as that size varies with the lock's pid.
        while (bytes.size() < 20) {
            bytes.add(rnd.nextLong(DISK_BYTES));
        }
        for (long b : bytes) {
            inject("disk full", io -> io.diskFullAfter(b, path -> true));
        }
    }

    @Test
    void aFailedRenameDeleteOrOpenIsReportedAndLosesNothingCommitted() throws IOException {
        for (Operation op : List.of(Operation.MOVE, Operation.DELETE, Operation.OPEN)) {
            for (long n : FaultInjectingFileIo.samplePoints(counted.get(op), SAMPLE, SEED + 7 + op.ordinal())) {
                inject("FAIL " + op, io -> io.inject(op, n, Fault.FAIL, false, path -> true));
            }
        }
    }

    /** Arms a rule on a new injector. */
    @FunctionalInterface
    private interface Arm {
        void arm(FaultInjectingFileIo io);
    }

    /** Runs {@link #check} and collects its failure, so that one test reports every failing point. */
    private static void inject(final String fault, final Arm arm) throws IOException {
        inject(fault, BASE, arm);
    }

    private static void inject(final String fault, final ColumnStoreOptions options, final Arm arm)
            throws IOException {
        try {
            check(fault, options, arm);
        } catch (AssertionError e) {
            FAILURES.add(e);
            record(fault, "(failed)", String.valueOf(e.getMessage()).split("\n")[0]);
        }
    }

    @AfterEach
    void reportFailures() {
        final List<AssertionError> failed = new ArrayList<>(FAILURES);
        FAILURES.clear();
        if (!failed.isEmpty()) {
            final AssertionError all = new AssertionError(failed.size() + " injection points failed; the first: "
                    + failed.get(0).getMessage(), failed.get(0));
            failed.subList(1, failed.size()).forEach(all::addSuppressed);
            throw all;
        }
    }

    /** One run of the workload with one fault, then the checks (a), (b), (c). */
    private static void check(final String fault, final ColumnStoreOptions options, final Arm arm)
            throws IOException {
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard());
        arm.arm(io);
        final Workload w = new Workload(tmp.resolve("run-" + runs++), io, options);
        Exception thrown = null;
        try {
            w.run();
        } catch (Exception e) {
            thrown = e;
        }
        final String injected = io.lastInjected();
        final String where = fault + ": " + injected + " in step " + w.step;
        if (io.injected() == 0) {
            if (thrown != null) {
                throw new AssertionError(where + ": failed without a fault", thrown);
            }
            record(fault, "(not reached)", "-");
            verifyReopened(w);
            return;
        }
        final Path file = Path.of(injected.substring(injected.lastIndexOf(" on ") + 4));
        final String site = site(injected, file, w.stepOfFault(), w.dir);
        String outcome;
        if (thrown == null) {
            assertFalse(fault.startsWith("FAIL") || fault.startsWith("disk"), where + ": the fault went unnoticed");
            outcome = "absorbed";
            if (fault.startsWith("FLIP")) {
                System.out.println("absorbed: " + where);
            }
        } else {
            if (fault.equals("SHORT_WRITE")) {
                throw new AssertionError(where + ": a short write is not invisible", thrown);
            }
            // A full disk or a dead device fails every later call: the exception names the first file that failed
            // (lastInjected names the last), a file of the store.
            assertNamesFile(where, thrown, fault.startsWith("disk") || fault.endsWith("sticky") ? w.dir : file, w.dir);
            if (fault.startsWith("FLIP_BIT") && !hasCause(thrown, CorruptFileException.class)) {
                throw new AssertionError(where + ": a flipped bit not reported as a CorruptFileException", thrown);
            }
            outcome = carryOn(w, where);
        }
        if (w.store != null) {
            try {
                w.store.close();
            } catch (IOException | RuntimeException e) {
                outcome += ", close threw";
            }
        }
        verifyReopened(w);
        record(fault, site, outcome);
    }

    /** (b): after a fault, a commit either succeeds and every row appended reads back, or is refused clearly. */
    private static String carryOn(final Workload w, final String where) throws IOException {
        if (w.store == null) {
            return w.step.equals("close") ? "close failed" : "open failed";
        }
        // What the store says is committed is what is: the last commit that returned normally.
        assertEquals(w.lastOk == null ? Optional.empty() : Optional.of(w.lastOk.id()),
                w.store.lastCommit().map(CommitPoint::id), where + ": lastCommit() after the fault");
        try {
            w.commit("after");
        } catch (IllegalStateException refused) {
            assertTrue(refused.getMessage().contains(w.dir.toString())
                    && refused.getMessage().contains("reopen"), where + ": unclear refusal: " + refused);
            return "refused further use";
        } catch (IOException again) {
            assertTrue(again.getMessage().contains(w.dir.toString()), where + ": unnamed failure: " + again);
            return "failed again (device)";
        }
        assertEquals(w.oracle.rows.size(), w.store.rows(), where);
        w.oracle.checkQueries(w.store, new SplittableRandom(SEED), 3);
        checkAll(w.store, w.oracle.rows, where + ", carried on");
        return "carried on";
    }

    /** (c): reopened through the standard file system, the store is at the last normal commit with its rows. */
    private static void verifyReopened(final Workload w) throws IOException {
        final String where = "reopened after " + w.step + " (" + w.io + ")";
        if (!Files.exists(w.dir.resolve(ManifestDescriptor.FILE))) {
            assertNull(w.lastOk, where + ": the manifest is gone");
            return;
        }
        try (ColumnStore store = ColumnStore.open(w.dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, BASE)) {
            final Optional<CommitPoint> last = store.lastCommit();
            if (w.lastOk == null) {
                assertTrue(last.isEmpty(), where + ": " + last);
                assertEquals(0, store.rows(), where);
                return;
            }
            final CommitPoint p = last.orElseThrow(() -> new AssertionError(where + ": no commit"));
            assertEquals(w.lastOk.id(), p.id(), where + ": " + p);
            assertEquals(w.lastOk.tag(), p.metadata().get("c"), where);
            assertEquals(w.lastOk.rows(), p.rows(), where);
            assertEquals(w.lastOk.rows(), store.rows(), where);
            checkAll(store, w.oracle.rows.subList(0, (int) w.lastOk.rows()), where);
        } catch (StoreLock.StoreLockedException locked) {
            throw new AssertionError(where + ": the lock was not released", locked);
        }
    }

    /** Every row, through both projections, read from disk. */
    private static void checkAll(final ColumnStore store, final List<Object[]> rows, final String where)
            throws IOException {
        final StoreOracle o = new StoreOracle();
        o.rows.addAll(rows);
        final QueryResult r = store.query("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "note", "id");
        final List<String> got = new ArrayList<>();
        for (int i = 0; i < r.size(); i++) {
            got.add(r.getLong(i, "id") + "/" + r.rowId(i) + "/" + r.getString(i, "note"));
        }
        assertEquals(o.expectedById(Long.MIN_VALUE, Long.MAX_VALUE), got, where);
        final QueryResult d = store.query("by_distance", -1e9, 1e9,
                "amount", "flag");
        assertEquals(rows.size(), d.size(), where);
        for (int i = 0; i < d.size(); i++) {
            final Object[] row = rows.get((int) d.rowId(i));
            assertEquals(row[4], d.getLong(i, "amount"), where);
            assertEquals(row[3], d.getString(i, "flag"), where);
        }
    }

    /** (a): the exception's message names the file, or the store directory for the directory itself. */
    private static void assertNamesFile(final String where, final Throwable thrown, final Path file, final Path dir) {
        final String message = String.valueOf(thrown.getMessage());
        final String name = file.equals(dir) ? dir.toString() : file.getFileName().toString();
        if (!message.contains(name)) {
            throw new AssertionError(where + ": the exception does not name " + name + ": " + thrown, thrown);
        }
    }

    private static boolean hasCause(final Throwable t, final Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The call-site class of fault {@code injected} on {@code file} (or the store directory {@code dir}) in workload
     * step {@code step}.
     */
    private static String site(final String injected, final Path file, final String step, final Path dir) {
        final String name = file.getFileName().toString();
        if (name.endsWith(".seg")) {
            if (injected.contains(" DELETE ")) {
                return "reclamation";
            }
            if (step.equals("commit") && injected.contains(" FORCE ")) {
                return "commit (manifest, segment and directory forces)";
            }
            return switch (step) {
                case "maintenance" -> "maintenance";
                case "reclamation" -> "reclamation";
                case "query" -> "bucket read (query)";
                case "open", "reopen" -> "segment open";
                default -> "bucket write";
            };
        }
        if (name.contains(".ibt")) {
            return "IB-tree build";
        }
        if (name.equals(StoreLock.FILE)) {
            return "store lock";
        }
        if (step.equals("commit") && (name.equals(ManifestDescriptor.FILE) || file.equals(dir))) {
            return "commit (manifest, segment and directory forces)";
        }
        return "directory write (manifest create/open)";
    }

    private static synchronized void record(final String fault, final String site, final String outcome) {
        MATRIX.computeIfAbsent(fault, f -> new TreeMap<>()).computeIfAbsent(site, s -> new TreeMap<>())
                .merge(outcome, 1, Integer::sum);
    }

    @Test
    void theWorkloadCallsEveryOperation() {
        assertNotNull(counted);
        if (counted.get(Operation.WRITE) < 10) {
            fail("too few writes to sample: " + counted);
        }
    }
}
