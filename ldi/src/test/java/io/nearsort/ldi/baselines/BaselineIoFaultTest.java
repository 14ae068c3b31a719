package io.nearsort.ldi.baselines;

import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FaultInjectingFileIo;
import io.nearsort.core.io.FaultInjectingFileIo.Injection;
import io.nearsort.core.io.FaultInjectingFileIo.Fault;
import io.nearsort.core.io.FaultInjectingFileIo.Operation;
import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.projection.AnonymousFileIo;
import io.nearsort.ldi.projection.QueryResult;
import io.nearsort.ldi.projection.StoreOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * I/O faults in the LDI baselines (issue 22): the LSM-like stores (leveled and tiered) and Sorted_Col run a small
 * workload — rows appended (buffers written as runs, LSM merges), queries, flushes (forces; Sorted_Col's merge),
 * more rows, a flush, queries, a close — through a {@link FaultInjectingFileIo} given to their {@code FileIo}
 * constructor, once counting each operation's calls, then once per injection point. The baselines are not
 * reopenable and promise nothing across a crash, so what is checked is the process's view: after each fault (a) the
 * exception names the file, a flipped bit is a {@link CorruptFileException}, never rows; (b) after a failed query the
 * store goes on (every row reads back, more rows are appended, flushed and read back), and after a failed append or
 * flush it refuses every further append, flush and query with an {@link IllegalStateException} naming its directory;
 * (c) {@code close} (which may throw, naming the file it could not delete) leaves no descriptor open on the store's
 * files and no file it does not name. A short write must be invisible. The matrix (store, fault, workload step,
 * outcome) is printed as {@code [io-faults]} lines (docs/reliability.md, "I/O faults: the LDI baselines").
 */
class BaselineIoFaultTest {
    private static final long SEED = 22;
    /** Injection points per store and fault in the default build: the first, the last and a seeded sample. */
    private static final int SAMPLE = 6;

    @TempDir
    static Path tmp;

    private static Path root;
    private static final Map<Kind, Map<Operation, Long>> COUNTED = new EnumMap<>(Kind.class);
    private static final Map<Kind, Long> BYTES = new EnumMap<>(Kind.class);
    /** store and fault → workload step → outcome → injection points; printed after all tests. */
    private static final Map<String, Map<String, Map<String, Integer>>> MATRIX = new TreeMap<>();
    private static int runs;

    /** The three baselines. */
    enum Kind {
        LSM_LEVELED, LSM_TIERED, SORTED;

        BaselineStore open(final Path dir, final FileIo io) throws IOException {
            return switch (this) {
                case LSM_LEVELED -> new LsmColumnStore(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                        MergePolicy.LEVELED, 32, 3, 8, io);
                case LSM_TIERED -> new LsmColumnStore(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                        MergePolicy.TIERED, 32, 3, 8, io);
                case SORTED -> new SortedColumnStore(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, 32, 8, io);
            };
        }
    }

    /** One run of the workload: where it is, the rows appended, the store. */
    private static final class Run {
        final Kind kind;
        final Path dir;
        final FaultInjectingFileIo io;
        final StoreOracle oracle = new StoreOracle();
        final SplittableRandom rnd = new SplittableRandom(SEED);
        BaselineStore store;
        String step = "open";
        /** The step the first fault was injected in, once a step ended with one. */
        String faultStep;

        Run(final Kind kind, final Path dir, final FaultInjectingFileIo io) {
            this.kind = kind;
            this.dir = dir;
            this.io = io;
        }

        void step(final String next) {
            if (faultStep == null && io.injected() > 0) {
                faultStep = step;
            }
            step = next;
        }

        String stepOfFault() {
            return faultStep != null ? faultStep : step;
        }

        /** The workload; throws where a fault surfaces. Through an {@link AnonymousFileIo}: the store names files. */
        void execute() throws IOException {
            step("open");
            store = kind.open(dir, new AnonymousFileIo(io));
            step("append");
            oracle.appendRows(store, 300, rnd);
            step("query");
            oracle.checkQueries(store, rnd, 2);
            checkAll(store, oracle, "after the first rows");
            step("flush");
            store.flush();
            step("append");
            oracle.appendRows(store, 200, rnd);
            step("flush");
            store.flush();
            step("query");
            checkAll(store, oracle, "after the second flush");
            step("close");
            store.close();
        }
    }

    @BeforeAll
    static void countCalls() throws IOException {
        root = tmp.toRealPath();
        for (Kind kind : Kind.values()) {
            final Path dir = root.resolve("count-" + kind);
            final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard()).countOnly(under(dir));
            final Run run = new Run(kind, dir, io);
            run.execute();
            final Map<Operation, Long> calls = new EnumMap<>(Operation.class);
            for (Operation op : Operation.values()) {
                calls.put(op, io.calls(op));
            }
            COUNTED.put(kind, calls);
            long bytes = 0;
            for (String p : List.of("by_id", "by_distance")) {
                bytes += run.store.stats(p).bytesWritten();
            }
            BYTES.put(kind, bytes);
            assertEquals(0, openDescriptors(dir), "descriptors left by a fault-free run");
            assertEquals(List.of(), left(dir), "files left by a fault-free run");
            for (Operation op : List.of(Operation.OPEN, Operation.READ, Operation.WRITE, Operation.FORCE,
                    Operation.DELETE)) {
                assertTrue(calls.get(op) > 0, kind + " makes no " + op + " call: " + calls);
            }
        }
    }

    @AfterAll
    static void printMatrix() {
        System.out.println("[io-faults] BaselineIoFaultTest: " + runs + " runs; calls of one workload: " + COUNTED
                + "; run bytes written: " + BYTES);
        MATRIX.forEach((fault, steps) -> steps.forEach((step, outcomes) -> System.out.println("[io-faults]   "
                + fault + " | " + step + " | " + outcomes)));
    }

    private static Predicate<Path> under(final Path dir) {
        return path -> path.startsWith(dir);
    }

    @ParameterizedTest
    @EnumSource(value = Injection.class, mode = EnumSource.Mode.EXCLUDE, names = "FAIL_MOVE")
    void aSampleOfInjectionPointsIsReportedAndNeverReadAsData(final Injection fault) throws IOException {
        everyPoint(fault, SAMPLE);
    }

    /** Every call of the workload, not a sample (docs/reliability.md has the figures). */
    @ParameterizedTest
    @EnumSource(value = Injection.class, mode = EnumSource.Mode.EXCLUDE, names = "FAIL_MOVE")
    @Tag("slow")
    void everyCallFaulted(final Injection fault) throws IOException {
        everyPoint(fault, Integer.MAX_VALUE);
    }

    private static void everyPoint(final Injection fault, final int sample) throws IOException {
        final List<AssertionError> failures = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (long n : FaultInjectingFileIo.samplePoints(COUNTED.get(kind).get(fault.operation), sample,
                    SEED + fault.ordinal())) {
                final Path dir = root.resolve("run-" + runs++);
                final FaultInjectingFileIo io = fault.arm(n, under(dir));
                try {
                    check(kind, fault.toString(), new Run(kind, dir, io));
                } catch (AssertionError e) {
                    failures.add(e);
                    record(kind + " " + fault, "(failed)", String.valueOf(e.getMessage()).split("\n")[0]);
                }
            }
        }
        report(failures);
    }

    @Test
    void aFullDiskIsReportedAndTheStoreRefusesFurtherUse() throws IOException {
        final List<AssertionError> failures = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            final long total = BYTES.get(kind);
            final SplittableRandom rnd = new SplittableRandom(SEED + 100);
            final TreeSet<Long> budgets = new TreeSet<>(List.of(0L, 1L, 100L, 4096L, total / 2));
            while (budgets.size() < 8) {
                budgets.add(rnd.nextLong(total));
            }
            for (long b : budgets) {
                final Path dir = root.resolve("run-" + runs++);
                final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                        .diskFullAfter(b, under(dir));
                try {
                    check(kind, "DISK_FULL", new Run(kind, dir, io));
                } catch (AssertionError e) {
                    failures.add(e);
                    record(kind + " DISK_FULL", "(failed)", String.valueOf(e.getMessage()).split("\n")[0]);
                }
            }
        }
        report(failures);
    }

    private static void report(final List<AssertionError> failures) {
        if (!failures.isEmpty()) {
            final AssertionError all = new AssertionError(failures.size() + " injection points failed; the first: "
                    + failures.get(0).getMessage(), failures.get(0));
            failures.subList(1, failures.size()).forEach(all::addSuppressed);
            throw all;
        }
    }

    /** One run with one fault armed, then the checks (a), (b), (c). */
    private static void check(final Kind kind, final String fault, final Run run) throws IOException {
        Exception thrown = null;
        try {
            run.execute();
        } catch (IOException | RuntimeException e) {
            thrown = e;
        }
        final String injected = run.io.lastInjected();
        final String where = kind + " " + fault + ": " + injected + " in step " + run.step;
        final String cell = kind + " " + fault;
        final String site = run.io.injected() == 0 ? "-" : run.stepOfFault();
        String outcome;
        if (run.io.injected() == 0) {
            if (thrown != null) {
                throw new AssertionError(where + ": failed without a fault", thrown);
            }
            outcome = "not reached";
        } else if (thrown == null) {
            assertEquals("SHORT_WRITE", fault, where + ": the fault went unnoticed");
            outcome = "absorbed";
        } else {
            if (fault.equals("SHORT_WRITE")) {
                throw new AssertionError(where + ": a short write is not invisible", thrown);
            }
            // A dead device or a full disk fails later calls too: the exception names the first file that failed.
            final String name = fault.endsWith("STICKY") || fault.equals("DISK_FULL") ? run.dir.toString()
                    : Path.of(injected.substring(injected.lastIndexOf(" on ") + 4)).getFileName().toString();
            if (!String.valueOf(thrown.getMessage()).contains(name)) {
                throw new AssertionError(where + ": the exception does not name " + name + ": " + thrown, thrown);
            }
            if (fault.startsWith("FLIP_BIT") && !hasCause(thrown, CorruptFileException.class)) {
                throw new AssertionError(where + ": a flipped bit not reported as a CorruptFileException", thrown);
            }
            outcome = afterTheFault(run, thrown, where);
        }
        outcome += closeAndCheck(run, where, run.step.equals("close") ? thrown : null);
        record(cell, site, outcome);
    }

    /** (b): a failed query leaves the store working; a failed append or flush leaves it refusing use. */
    private static String afterTheFault(final Run run, final Exception thrown, final String where)
            throws IOException {
        switch (run.step) {
            case "open":
                throw new AssertionError(where + ": the constructor does no I/O through FileIo", thrown);
            case "close":
                return "close threw";
            case "query":
                assertTrue(thrown instanceof IOException, where + ": a failed query throws an IOException: " + thrown);
                run.io.clear();
                checkAll(run.store, run.oracle, where + ", queried again");
                run.oracle.appendRows(run.store, 100, run.rnd);
                run.store.flush();
                checkAll(run.store, run.oracle, where + ", carried on");
                return "carried on";
            default:
                assertTrue(run.step.equals("flush") ? thrown instanceof IOException
                        : thrown instanceof UncheckedIOException, where + ": how a failed " + run.step + " throws: "
                        + thrown);
                run.io.clear();
                final BaselineStore s = run.store;
                for (Executable use : List.<Executable>of(() -> s.query("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "id"),
                        () -> s.append(StoreOracle.randomRow(0, new SplittableRandom(1))), s::flush)) {
                    final IllegalStateException refused = assertThrows(IllegalStateException.class, use, where);
                    assertTrue(refused.getMessage().contains(run.dir.toString())
                            && refused.getMessage().contains("refuses further use"), where + ": unclear refusal: "
                            + refused);
                }
                return "refused further use";
        }
    }

    /**
     * (c): closes the store if the workload did not (again if its close threw: nothing happens); no descriptor is
     * left on its files, and any file left is named by the close's exception ({@code closeFailure}: the workload's).
     */
    private static String closeAndCheck(final Run run, final String where, final Exception workloadClose)
            throws IOException {
        String outcome = "";
        Exception closeFailure = workloadClose;
        if (run.store != null) {
            run.io.clear();
            try {
                run.store.close();
            } catch (IOException e) {
                closeFailure = e;
                outcome = ", close threw";
            }
            run.store.close();
            assertThrows(IllegalStateException.class, () -> run.store.query("by_id", 0, 1, "id"), where);
        }
        assertEquals(0, openDescriptors(run.dir), where + ": descriptors left open on the store's files");
        final List<String> left = left(run.dir);
        if (!left.isEmpty()) {
            // Only a failed deletion leaves a file, and the close (or the workload's close) that failed names it.
            final StringBuilder named = new StringBuilder();
            for (Throwable t = closeFailure; t != null; t = t.getCause()) {
                named.append(t.getMessage());
                for (Throwable s : t.getSuppressed()) {
                    named.append(s.getMessage());
                }
            }
            for (String f : left) {
                assertTrue(named.toString().contains(f), where + ": " + f + " left behind without a close naming it");
            }
        }
        return outcome;
    }

    /** Every row, through both projections, read from the runs and the buffers. */
    static void checkAll(final BaselineStore store, final StoreOracle oracle, final String where)
            throws IOException {
        final List<Object[]> rows = oracle.rows;
        final QueryResult r = store.query("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "note", "id");
        final List<String> got = new ArrayList<>();
        for (int i = 0; i < r.size(); i++) {
            got.add(r.getLong(i, "id") + "/" + r.rowId(i) + "/" + r.getString(i, "note"));
        }
        assertEquals(oracle.expectedById(Long.MIN_VALUE, Long.MAX_VALUE), got, where);
        final QueryResult d = store.queryOrdered("by_distance", Long.MIN_VALUE, Long.MAX_VALUE, "amount", "flag");
        assertEquals(rows.size(), d.size(), where);
        for (int i = 0; i < d.size(); i++) {
            final Object[] row = rows.get((int) d.rowId(i));
            assertEquals(row[4], d.getLong(i, "amount"), where);
            assertEquals(row[3], d.getString(i, "flag"), where);
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

    /** Descriptors this process holds open on files under {@code dir}, a real path (Linux: /proc/self/fd). */
    static long openDescriptors(final Path dir) throws IOException {
        long n = 0;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    n += Files.readSymbolicLink(fd).startsWith(dir) ? 1 : 0;
                } catch (IOException gone) {
                    // the listing's own descriptor, closed by now
                }
            }
        }
        return n;
    }

    /** The names of the files left in {@code dir}. */
    static List<String> left(final Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static synchronized void record(final String fault, final String step, final String outcome) {
        MATRIX.computeIfAbsent(fault, f -> new TreeMap<>()).computeIfAbsent(step, s -> new TreeMap<>())
                .merge(outcome, 1, Integer::sum);
    }

    /**
     * The bug the refusal fixes: a merge that failed (here its first block write) lost the buffer it was merging,
     * and the store went on answering without those rows. Leveled LSM, B = 32: the 64th row fills the buffer a
     * second time, whose merge with the level-1 run fails; the append throws, and a query then answered with the
     * 32 rows of the level-1 run only, 31 of the 63 rows appended missing, and no error. It must refuse instead.
     */
    @Test
    void aFailedMergeLeavesTheStoreRefusingQueriesNotAnsweringWithoutItsRows() throws IOException {
        final Path dir = root.resolve("failed-merge");
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard()).countOnly(under(dir));
        final StoreOracle oracle = new StoreOracle();
        final SplittableRandom rnd = new SplittableRandom(SEED);
        final LsmColumnStore store = new LsmColumnStore(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS,
                MergePolicy.LEVELED, 32, 3, 8, io);
        oracle.appendRows(store, 63, rnd);
        // The merged run's file: header write (1), then the first block's record header (2).
        io.inject(Operation.WRITE, 2, Fault.FAIL, false, under(dir));
        final UncheckedIOException failed = assertThrows(UncheckedIOException.class,
                () -> store.append(StoreOracle.randomRow(63, rnd)));
        assertTrue(failed.getMessage().contains("by_id-1.run"), failed.getMessage());
        io.clear();
        try {
            final QueryResult r = store.query("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "id");
            throw new AssertionError("after a failed merge the store answered with " + r.size() + " of the "
                    + oracle.rows.size() + " rows appended");
        } catch (IllegalStateException refused) {
            assertTrue(refused.getMessage().contains(dir.toString()), refused.getMessage());
            assertTrue(refused.getMessage().contains("by_id-1.run"), refused.getMessage());
        }
        store.close();
        assertEquals(0, openDescriptors(dir));
        assertEquals(List.of(), left(dir));
    }

    /**
     * A run file that cannot be deleted at close does not stop the close: it closed and deleted the runs in order
     * and stopped at the first failure, leaving the later runs' files open and on disk.
     */
    @Test
    void aFailedDeletionAtCloseStillClosesAndDeletesEveryOtherRun() throws IOException {
        final Path dir = root.resolve("failed-close");
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard()).countOnly(under(dir));
        final SortedColumnStore store = new SortedColumnStore(dir, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, 32, 8,
                io);
        new StoreOracle().appendRows(store, 200, new SplittableRandom(SEED));
        assertEquals(12, left(dir).size(), "six runs per projection");
        io.inject(Operation.DELETE, 1, Fault.FAIL, false, under(dir));
        final IOException e = assertThrows(IOException.class, store::close);
        assertTrue(e.getMessage().contains("by_id-0.run"), e.getMessage());
        assertEquals(0, openDescriptors(dir), "descriptors left open");
        assertEquals(List.of("by_id-0.run"), left(dir));
    }

    @Test
    void aNullFileIoIsRefusedNamingTheParameter() {
        final Path dir = root.resolve("null-io");
        final NullPointerException lsm = assertThrows(NullPointerException.class, () -> new LsmColumnStore(dir,
                StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, MergePolicy.LEVELED, 8, 3, 4, null));
        assertEquals("fileIo", lsm.getMessage());
        final NullPointerException sorted = assertThrows(NullPointerException.class, () -> new SortedColumnStore(dir,
                StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, 8, 4, null));
        assertEquals("fileIo", sorted.getMessage());
        assertFalse(Files.exists(dir), "nothing is created before the arguments are checked");
    }
}
