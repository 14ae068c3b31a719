package io.nearsort.labtree.storage;

import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FaultInjectingFileIo;
import io.nearsort.core.io.FaultInjectingFileIo.Fault;
import io.nearsort.core.io.FaultInjectingFileIo.Operation;
import io.nearsort.core.io.FileIo;
import io.nearsort.labtree.FlushPolicy;
import io.nearsort.labtree.LabArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

import static io.nearsort.labtree.ResourceProbe.openDescriptors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 22, I/O faults: a {@link LabArray} workload (random sets and deletes with reads checked against an oracle,
 * a flush per epoch, one close and reopen) runs once through a counting {@link FaultInjectingFileIo}, then once per
 * injection point of each fault (every call when there are few, else a seeded sample of 40 spread over the range
 * plus the first and the last). After each fault: (a) the exception names the file, and a flipped bit is reported
 * as corruption ({@link CorruptFileException} the cause), never returned as a value; (b) the array either goes on
 * (every element read back equals the oracle, and the next flush commits it) or refuses use with an
 * {@link IllegalStateException} naming the file; (c) close releases file and journal even when it throws, and the
 * file reopened through {@link FileIo#standard()} holds exactly the last flush that returned, or the flush in flight
 * if its commit point passed ({@link PageFile#failedCommitDurable()}, or its generation advanced). A short write
 * must be invisible. Each fault prints its matrix (call-site class × outcome) for docs/reliability.md.
 */
class IoFaultTest {
    private static final long SEED = 22;
    private static final int ROWS = 60;
    private static final int COLS = 60;
    private static final int N = ROWS * COLS;
    private static final int EPOCHS = 6;
    /** The epoch after which the array is closed and reopened through the faulty I/O. */
    private static final int REOPEN_EPOCH = 2;
    private static final int WRITES_PER_EPOCH = 400;
    private static final int SAMPLE = 40;
    private static final String NAME = "faults.lab";

    @TempDir
    Path tmp;

    /** The faults of the matrix. */
    enum Case {
        FAIL_WRITE(Operation.WRITE, Fault.FAIL, false),
        FAIL_WRITE_STICKY(Operation.WRITE, Fault.FAIL, true),
        SHORT_WRITE(Operation.WRITE, Fault.SHORT_WRITE, false),
        FAIL_FORCE(Operation.FORCE, Fault.FAIL, false),
        FAIL_FORCE_STICKY(Operation.FORCE, Fault.FAIL, true),
        FAIL_READ(Operation.READ, Fault.FAIL, false),
        FLIP_BIT_READ(Operation.READ, Fault.FLIP_BIT, false),
        FAIL_OPEN(Operation.OPEN, Fault.FAIL, false),
        FAIL_MOVE(Operation.MOVE, Fault.FAIL, false),
        FAIL_DELETE(Operation.DELETE, Fault.FAIL, false);

        final Operation operation;
        final Fault fault;
        final boolean sticky;

        Case(final Operation operation, final Fault fault, final boolean sticky) {
            this.operation = operation;
            this.fault = fault;
            this.sticky = sticky;
        }
    }

    /** The workload's configurations: write-through, and with an update buffer (§5) flushed by LPP. */
    enum Config {
        WRITE_THROUGH(0),
        UPDATE_BUFFER(64);

        final int updateBuffer;

        Config(final int updateBuffer) {
            this.updateBuffer = updateBuffer;
        }
    }

    /** One run of the workload against one file, with its oracles. */
    private static final class Run {
        final Path file;
        final FileIo io;
        final Config config;
        /** The array as of the last flush (or close) that returned. */
        double[] flushed = new double[N];
        /** The array as written so far. */
        final double[] current = new double[N];
        /** The state a flush or close in progress commits; null when none is. */
        double[] inFlight;
        /** The file's generation when that flush or close began. */
        long generationBefore;
        LabArray array;
        boolean closed;
        /** Where the workload is, for the matrix: build, set, get, flush, close. */
        private String phase = "build";
        /** The phase in which the first fault was injected; null before. */
        private String faultPhase;

        Run(final Path file, final FileIo io, final Config config) {
            this.file = file;
            this.io = io;
            this.config = config;
        }

        LabArray open(final FileIo with) {
            final LabArray.Builder b = LabArray.builder(file).shape(ROWS, COLS).pageSize(512).bufferPoolPages(8)
                    .fileIo(with);
            if (config.updateBuffer > 0) {
                b.updateBuffer(config.updateBuffer, FlushPolicy.LPP);
            }
            return b.build();
        }

        /** The whole workload; throws where a fault surfaces. */
        void execute() {
            final Random random = new Random(SEED);
            enter("build");
            array = open(io);
            closed = false;
            for (int epoch = 0; epoch < EPOCHS; epoch++) {
                for (int i = 0; i < WRITES_PER_EPOCH; i++) {
                    final int key = random.nextInt(N);
                    final double value = random.nextInt(5) == 0 ? 0.0 : 1 + random.nextInt(1_000_000);
                    enter("set");
                    array.setLinear(value, key);
                    current[key] = value;
                    if (i % 3 == 0) {
                        final int probe = random.nextInt(N);
                        enter("get");
                        assertEquals(current[probe], array.getLinear(probe), "element " + probe
                                + " read back (a fault must never be returned as data)");
                    }
                }
                if (epoch == REOPEN_EPOCH) {
                    close();
                    enter("build");
                    array = null;
                    array = open(io);
                    closed = false;
                } else {
                    flush();
                }
            }
            close();
        }

        void flush() {
            enter("flush");
            begin();
            array.flush();
            flushed = inFlight;
            inFlight = null;
        }

        void close() {
            enter("close");
            begin();
            closed = true;
            array.close();
            flushed = inFlight;
            inFlight = null;
        }

        /** Moves to the next phase, noting the one the first fault was injected in. */
        void enter(final String next) {
            phaseOfFault();
            phase = next;
        }

        /** The phase the first fault was injected in (the current one if it was injected in it), or null. */
        String phaseOfFault() {
            if (faultPhase == null && io instanceof FaultInjectingFileIo faulty && faulty.injected() > 0) {
                faultPhase = phase;
            }
            return faultPhase;
        }

        private void begin() {
            inFlight = current.clone();
            generationBefore = array.pool().file().generation();
        }

        /** What the file must hold once reopened. */
        double[] expected() {
            if (inFlight == null) {
                return flushed;
            }
            final PageFile pages = array.pool().file();
            return pages.generation() > generationBefore || pages.failedCommitDurable() ? inFlight : flushed;
        }
    }

    private Predicate<Path> under(final Path dir) {
        return path -> path.startsWith(dir);
    }

    /** Every point when there are few, else the first, the last and a seeded sample spread over the range. */
    private static long[] points(final long count) {
        if (count <= SAMPLE + 2) {
            final long[] all = new long[(int) count];
            Arrays.setAll(all, i -> i + 1);
            return all;
        }
        final Random random = new Random(SEED ^ count);
        final TreeSet<Long> picked = new TreeSet<>(List.of(1L, count));
        for (int i = 0; i < SAMPLE; i++) {
            final long lo = 1 + i * count / SAMPLE;
            final long hi = 1 + (i + 1) * count / SAMPLE;
            picked.add(lo + (hi > lo ? (long) random.nextInt((int) (hi - lo)) : 0));
        }
        return picked.stream().mapToLong(Long::longValue).toArray();
    }

    private Path runDir(final String name) throws IOException {
        return Files.createDirectories(tmp.toRealPath().resolve(name));
    }

    /** The counting run: how many calls of each operation the workload makes. */
    private Map<Operation, Long> count(final Config config) throws IOException {
        final Path dir = runDir("count-" + config);
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard()).countOnly(under(dir));
        final Run run = new Run(dir.resolve(NAME), io, config);
        run.execute();
        final Map<Operation, Long> calls = new TreeMap<>();
        for (final Operation op : Operation.values()) {
            calls.put(op, io.calls(op));
        }
        assertEquals(0, io.injected());
        verifyReopened(run, run.current, "the fault-free run");
        return calls;
    }

    /** The outcomes seen, per call-site class (phase and file), for the printed matrix. */
    private static final class Matrix {
        final Map<String, Map<String, Integer>> cells = new TreeMap<>();
        int points;

        void add(final String site, final String outcome) {
            cells.computeIfAbsent(site, s -> new TreeMap<>()).merge(outcome, 1, Integer::sum);
        }

        void print(final String title) {
            System.out.println("[io-faults] " + title + ": " + points + " injection points");
            cells.forEach((site, outcomes) -> outcomes.forEach((outcome, n) -> System.out.println("[io-faults]   "
                    + site + ": " + outcome + ": " + n)));
        }
    }

    private static String site(final Run run, final String injected) {
        if (injected == null) {
            return "not reached";
        }
        final String file = injected.contains(".journal") ? "journal" : injected.contains(".new") ? "new file"
                : NAME;
        return run.phaseOfFault() + " / " + file;
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void everyInjectionPointIsReportedAndLosesNothing(final Case fault) throws IOException {
        for (final Config config : Config.values()) {
            final Map<Operation, Long> calls = count(config);
            final long count = calls.get(fault.operation);
            final Matrix matrix = new Matrix();
            int reached = 0;
            for (final long n : points(count)) {
                final Path dir = runDir(fault + "-" + config + "-" + n);
                final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                        .inject(fault.operation, n, fault.fault, fault.sticky, under(dir));
                final String outcome = injectAndCheck(io, dir, config, fault.fault == Fault.FLIP_BIT,
                        fault.fault == Fault.SHORT_WRITE, fault.operation == Operation.OPEN, matrix);
                reached += outcome.equals("not reached") ? 0 : 1;
                matrix.points++;
            }
            matrix.print(fault + ", " + config + " (" + count + " calls of " + fault.operation + ")");
            assertTrue(reached > 0, "some injection point was reached");
        }
    }

    @Test
    void aFullDiskIsReportedAtEveryStageAndLosesNothing() throws IOException {
        final long[] budgets = {0, 300, 512, 1_500, 4_000, 10_000, 25_000, 60_000, 120_000, 250_000, 500_000};
        for (final Config config : Config.values()) {
            final Matrix matrix = new Matrix();
            int reached = 0;
            for (final long bytes : budgets) {
                final Path dir = runDir("DISK_FULL-" + config + "-" + bytes);
                final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                        .diskFullAfter(bytes, under(dir));
                final String outcome = injectAndCheck(io, dir, config, false, false, false, matrix);
                reached += outcome.equals("not reached") ? 0 : 1;
                matrix.points++;
            }
            matrix.print("DISK_FULL, " + config + " (" + Arrays.toString(budgets) + " bytes)");
            assertTrue(reached >= budgets.length - 1, "the disk filled in nearly every run (" + reached + ")");
        }
    }

    /**
     * Runs the workload with {@code io} armed, checks (a)–(c) and returns the outcome for the matrix.
     */
    private String injectAndCheck(final FaultInjectingFileIo io, final Path dir, final Config config,
                                  final boolean flip, final boolean mustBeInvisible, final boolean mayBeAbsorbed,
                                  final Matrix matrix) throws IOException {
        final Run run = new Run(dir.resolve(NAME), io, config);
        RuntimeException failure = null;
        try {
            run.execute();
        } catch (final RuntimeException e) {
            failure = e;
        }
        final String injected = io.lastInjected();
        final String site = site(run, injected);
        final String where = (injected == null ? "no fault injected" : injected) + " (" + config + ", phase "
                + run.phaseOfFault() + ")";
        String outcome;
        if (failure == null) {
            // The workload ran to its end: the fault, if reached, was absorbed.
            if (injected != null && !mustBeInvisible && !mayBeAbsorbed) {
                fail("a fault vanished without a report: " + where);
            }
            outcome = injected == null ? "not reached" : "absorbed, workload completed";
        } else {
            final RuntimeException thrown = failure;
            if (mustBeInvisible) {
                throw new AssertionError("a short write must be invisible, but: " + where, failure);
            }
            assertNotNull(injected, () -> "a failure without an injected fault: " + where + ": " + thrown);
            // (a) the exception names the file; a flipped bit is corruption, reported as such.
            assertNamesFile(failure, where);
            assertTrue(failure instanceof UncheckedIOException || failure instanceof IllegalStateException,
                    () -> "an I/O failure (or, at close after one, a refusal): " + where + ": " + thrown);
            if (flip) {
                final UncheckedIOException e = assertInstanceOf(UncheckedIOException.class, failure, where);
                assertInstanceOf(CorruptFileException.class, e.getCause(), () -> where + ": " + e);
                assertEquals(e.getCause().getMessage(), e.getMessage(), where);
            }
            outcome = run.array == null ? "build failed" : continueAfter(run, where);
        }
        // (c) close releases everything, even when it throws.
        if (run.array != null && !run.closed) {
            run.closed = true;
            try {
                run.array.close();
            } catch (final RuntimeException e) {
                assertNamesFile(e, where + ", at close");
                outcome += ", close threw";
            }
        }
        final Path journal = run.file.resolveSibling(NAME + ".journal");
        assertEquals(0, openDescriptors(run.file, journal), () -> "file and journal closed after: " + where);
        final double[] expected = run.array == null ? run.flushed : run.expected();
        outcome += expected == run.flushed ? ", reopened at last flush" : ", reopened at the failed flush";
        assertFalse(Files.exists(run.file.resolveSibling(NAME + ".new")), () -> "no half-created file left: "
                + where);
        verifyReopened(run, expected, where);
        matrix.add(site, outcome);
        return injected == null ? "not reached" : outcome;
    }

    /**
     * (b): after a fault the array either works on (every element equals the oracle, and a flush commits it) or
     * refuses use naming the file.
     */
    private static String continueAfter(final Run run, final String where) {
        if (run.closed) {
            return "close failed";
        }
        for (int k = 0; k < N; k++) {
            final int key = k;
            final double value;
            try {
                value = run.array.getLinear(key);
            } catch (final IllegalStateException refused) {
                assertNamesFile(refused, where + ", then refused");
                assertTrue(refused.getMessage().contains("refuses use"), () -> where + ": " + refused);
                return "refused further use";
            } catch (final UncheckedIOException again) {
                assertNamesFile(again, where + ", read again");
                continue; // a sticky fault fails the read again; the array stays usable
            }
            assertEquals(run.current[key], value, () -> "element " + key + " after " + where);
        }
        try {
            run.flush();
            return "kept working, flushed";
        } catch (final RuntimeException e) {
            assertNamesFile(e, where + ", flushing after it");
            return "kept working, next flush failed";
        }
    }

    private static void assertNamesFile(final RuntimeException e, final String where) {
        final String message = e.getMessage();
        assertTrue(message != null && message.contains(NAME), () -> "the exception names " + NAME + ": " + where
                + ": " + e);
    }

    private static void verifyReopened(final Run run, final double[] expected, final String where) {
        try (LabArray reopened = run.open(FileIo.standard())) {
            for (int key = 0; key < N; key++) {
                if (Double.compare(expected[key], reopened.getLinear(key)) != 0) {
                    final boolean isCurrent = Arrays.equals(expected, run.current);
                    fail("after " + where + " the reopened file differs at element " + key + ": expected "
                            + expected[key] + ", got " + reopened.getLinear(key) + (isCurrent ? "" : " (the last "
                            + "state written was " + run.current[key] + ")"));
                }
            }
        }
        assertFalse(Files.exists(run.file.resolveSibling(NAME + ".journal")), () -> "journal deleted: " + where);
    }

    @Test
    void aNullFileIoIsRefusedNamingTheParameter() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LabArray.builder(tmp.resolve("x.lab")).fileIo(null));
        assertTrue(e.getMessage().contains("fileIo"), e.getMessage());
    }

    /** Every file labtree touches goes through the seam: nothing of the workload reaches the disk around it. */
    @Test
    void everyFileOfTheArrayIsReachedThroughTheSeam() throws IOException {
        final Path dir = runDir("seam");
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                .inject(Operation.OPEN, 1, Fault.FAIL, true, under(dir));
        final Run run = new Run(dir.resolve(NAME), io, Config.WRITE_THROUGH);
        final UncheckedIOException e = assertThrows(UncheckedIOException.class, run::execute);
        assertTrue(e.getMessage().contains(NAME), e.getMessage());
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "a dead device: no file was created around the seam");
        }
        final List<String> ops = new ArrayList<>();
        final FaultInjectingFileIo counting = new FaultInjectingFileIo(FileIo.standard()).countOnly(under(dir));
        new Run(dir.resolve(NAME), counting, Config.WRITE_THROUGH).execute();
        for (final Operation op : Operation.values()) {
            ops.add(op + "=" + counting.calls(op));
        }
        for (final Operation op : List.of(Operation.OPEN, Operation.READ, Operation.WRITE, Operation.FORCE,
                Operation.MOVE, Operation.DELETE)) {
            assertTrue(counting.calls(op) > 0, () -> op + " goes through the seam: " + ops);
        }
        System.out.println("[io-faults] calls of the workload: " + ops);
    }
}
