package io.nearsort.labtree.storage;

import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FaultInjectingFileIo;
import io.nearsort.core.io.FaultInjectingFileIo.Injection;
import io.nearsort.core.io.FaultInjectingFileIo.Fault;
import io.nearsort.core.io.FaultInjectingFileIo.Operation;
import io.nearsort.core.io.FileIo;
import io.nearsort.labtree.ResourceProbe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.LongStream;

import static io.nearsort.labtree.ResourceProbe.openDescriptors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 22's I/O-fault workload over a paged structure (the LAB-tree array in {@link IoFaultTest}, the DAF baseline
 * in {@code DafIoFaultTest}): random sets and deletes with reads checked against an oracle, a flush per epoch, one
 * close and reopen. It runs once through a counting {@link FaultInjectingFileIo}, then once per injection point of a
 * fault (every call when there are few, else a seeded sample of 40 spread over the range plus the first and the
 * last). After each fault: (a) the exception names the file, and a flipped bit is reported as corruption
 * ({@link CorruptFileException} the cause), never returned as a value; (b) the structure either goes on (every
 * element read back equals the oracle, and the next flush commits it) or refuses use with an
 * {@link IllegalStateException} naming the file; (c) close releases file, journal and the frames' direct memory even
 * when it throws, and the file reopened through {@link FileIo#standard()} holds exactly the last flush that
 * returned, or the flush in flight if its commit point passed ({@link PageFile#failedCommitDurable()}, or its
 * generation advanced). A short write must be invisible. Each fault prints its matrix (call-site class × outcome)
 * for docs/reliability.md.
 */
public final class FaultWorkload {
    /** The seed of the workload and of the sampled injection points. */
    public static final long SEED = 22;
    /** Rows of the 2-d array every workload writes. */
    public static final int ROWS = 60;
    /** Columns of that array. */
    public static final int COLS = 60;
    /** Its elements. */
    public static final int N = ROWS * COLS;
    private static final int EPOCHS = 6;
    /** The epoch after which the structure is closed and reopened through the faulty I/O. */
    private static final int REOPEN_EPOCH = 2;
    private static final int WRITES_PER_EPOCH = 400;
    private static final int SAMPLE = 40;

    /** A paged structure the workload drives: how to open it, read and write an element. */
    public interface Subject {
        /**
         * The page file's name; every exception must contain it.
         *
         * @return e.g. {@code "faults.lab"}
         */
        String fileName();

        /**
         * Opens (or creates) the structure, a {@link #ROWS} × {@link #COLS} array with 512-byte pages.
         *
         * @param file the page file
         * @param io   how its files are reached
         * @return the open structure
         */
        PagedStructure open(Path file, FileIo io);

        /**
         * Reads element {@code key}.
         *
         * @param structure what {@link #open} returned
         * @param key       the linear index
         * @return the element's value
         */
        double get(PagedStructure structure, int key);

        /**
         * Writes element {@code key}.
         *
         * @param structure what {@link #open} returned
         * @param key       the linear index
         * @param value     its new value
         */
        void set(PagedStructure structure, int key, double value);
    }

    /**
     * Reads an element of a structure.
     *
     * @param <S> the structure
     */
    @FunctionalInterface
    public interface Getter<S> {
        /**
         * Reads element {@code key}.
         *
         * @param structure the structure
         * @param key       the linear index
         * @return its value
         */
        double get(S structure, int key);
    }

    /**
     * Writes an element of a structure.
     *
     * @param <S> the structure
     */
    @FunctionalInterface
    public interface Setter<S> {
        /**
         * Writes element {@code key}.
         *
         * @param structure the structure
         * @param key       the linear index
         * @param value     its new value
         */
        void set(S structure, int key, double value);
    }

    /**
     * A subject from its parts.
     *
     * @param fileName the page file's name
     * @param open     opens the structure on a file through an I/O
     * @param get      reads an element
     * @param set      writes an element
     * @param <S>      the structure
     * @return the subject
     */
    public static <S extends PagedStructure> Subject subject(final String fileName,
                                                             final BiFunction<Path, FileIo, S> open,
                                                             final Getter<S> get, final Setter<S> set) {
        return new Subject() {
            @Override
            public String fileName() {
                return fileName;
            }

            @Override
            public PagedStructure open(final Path file, final FileIo io) {
                return open.apply(file, io);
            }

            @Override
            @SuppressWarnings("unchecked")
            public double get(final PagedStructure structure, final int key) {
                return get.get((S) structure, key);
            }

            @Override
            @SuppressWarnings("unchecked")
            public void set(final PagedStructure structure, final int key, final double value) {
                set.set((S) structure, key, value);
            }
        };
    }

    private final Path tmp;
    private final Subject subject;
    private final String label;

    /**
     * A workload over {@code subject}, its runs in directories under {@code tmp}.
     *
     * @param tmp     a temporary directory
     * @param subject the structure
     * @param label   the configuration, for directory names and the printed matrix
     */
    public FaultWorkload(final Path tmp, final Subject subject, final String label) {
        this.tmp = tmp;
        this.subject = subject;
        this.label = label;
    }

    /** One run of the workload against one file, with its oracles. */
    private final class Run {
        final Path file;
        final FileIo io;
        /** The array as of the last flush (or close) that returned. */
        double[] flushed = new double[N];
        /** The array as written so far. */
        final double[] current = new double[N];
        /** The state a flush or close in progress commits; null when none is. */
        double[] inFlight;
        /** The file's generation when that flush or close began. */
        long generationBefore;
        PagedStructure array;
        boolean closed;
        /** Where the workload is, for the matrix: build, set, get, flush, close. */
        private String phase = "build";
        /** The phase in which the first fault was injected; null before. */
        private String faultPhase;

        Run(final Path file, final FileIo io) {
            this.file = file;
            this.io = io;
        }

        /** The whole workload; throws where a fault surfaces. */
        void execute() {
            final Random random = new Random(SEED);
            enter("build");
            array = subject.open(file, io);
            closed = false;
            for (int epoch = 0; epoch < EPOCHS; epoch++) {
                for (int i = 0; i < WRITES_PER_EPOCH; i++) {
                    final int key = random.nextInt(N);
                    final double value = random.nextInt(5) == 0 ? 0.0 : 1 + random.nextInt(1_000_000);
                    enter("set");
                    subject.set(array, key, value);
                    current[key] = value;
                    if (i % 3 == 0) {
                        final int probe = random.nextInt(N);
                        enter("get");
                        assertEquals(current[probe], subject.get(array, probe), "element " + probe
                                + " read back (a fault must never be returned as data)");
                    }
                }
                if (epoch == REOPEN_EPOCH) {
                    close();
                    enter("build");
                    array = null;
                    array = subject.open(file, io);
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

    /**
     * Selects the files under a directory.
     *
     * @param dir the directory
     * @return whether a path is under it
     */
    public static Predicate<Path> under(final Path dir) {
        return path -> path.startsWith(dir);
    }

    /**
     * Every point when there are few, else the first, the last and a seeded sample spread over the range.
     *
     * @param count the calls
     * @return the calls to fault, ascending, from 1
     */
    public static long[] points(final long count) {
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
        return Files.createDirectories(tmp.toRealPath().resolve(label + "-" + name));
    }

    /**
     * Runs the whole workload once in {@code dir} through {@code io}, throwing where a fault surfaces.
     *
     * @param dir the run's directory
     * @param io  the I/O
     */
    public void execute(final Path dir, final FileIo io) {
        new Run(dir.resolve(subject.fileName()), io).execute();
    }

    /**
     * The counting run: how many calls of each operation the workload makes (its result checked on reopen).
     *
     * @return the calls per operation
     * @throws IOException if the run's directory cannot be made
     */
    public Map<Operation, Long> count() throws IOException {
        final Path dir = runDir("count");
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard()).countOnly(under(dir));
        final Run run = new Run(dir.resolve(subject.fileName()), io);
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

    private String site(final Run run, final String injected) {
        if (injected == null) {
            return "not reached";
        }
        final String file = injected.contains(".journal") ? "journal" : injected.contains(".new") ? "new file"
                : subject.fileName();
        return run.phaseOfFault() + " / " + file;
    }

    /**
     * Counts the calls, then runs the workload once per injection point of {@code fault} ({@link #points}) and checks
     * (a)–(c).
     *
     * @param fault the fault
     * @throws IOException if a run's directory cannot be made
     */
    public void everyInjectionPoint(final Injection fault) throws IOException {
        everyInjectionPoint(fault, false);
    }

    /**
     * Counts the calls, then runs the workload once per injection point of {@code fault} and checks (a)–(c).
     *
     * @param fault     the fault
     * @param everyCall whether to fault every call, not only {@link #points}'s sample
     * @throws IOException if a run's directory cannot be made
     */
    public void everyInjectionPoint(final Injection fault, final boolean everyCall) throws IOException {
        final long count = count().get(fault.operation);
        final Matrix matrix = new Matrix();
        int reached = 0;
        for (final long n : everyCall ? LongStream.rangeClosed(1, count).toArray() : points(count)) {
            final Path dir = runDir(fault + "-" + n);
            final String outcome = injectAndCheck(fault.arm(n, under(dir)), dir, fault.fault == Fault.FLIP_BIT,
                    fault.fault == Fault.SHORT_WRITE, fault.operation == Operation.OPEN, matrix);
            reached += outcome.equals("not reached") ? 0 : 1;
            matrix.points++;
        }
        matrix.print(fault + ", " + label + " (" + count + " calls of " + fault.operation + ")");
        assertTrue(reached > 0, "some injection point was reached");
    }

    /**
     * Runs the workload once per disk size in {@code budgets} and checks (a)–(c).
     *
     * @param budgets the bytes that fit before the disk is full
     * @throws IOException if a run's directory cannot be made
     */
    public void fullDisk(final long[] budgets) throws IOException {
        final Matrix matrix = new Matrix();
        int reached = 0;
        for (final long bytes : budgets) {
            final Path dir = runDir("DISK_FULL-" + bytes);
            final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                    .diskFullAfter(bytes, under(dir));
            final String outcome = injectAndCheck(io, dir, false, false, false, matrix);
            reached += outcome.equals("not reached") ? 0 : 1;
            matrix.points++;
        }
        matrix.print("DISK_FULL, " + label + " (" + Arrays.toString(budgets) + " bytes)");
        assertTrue(reached >= budgets.length - 1, "the disk filled in nearly every run (" + reached + ")");
    }

    /**
     * Runs the workload with {@code io} armed, checks (a)–(c) and returns the outcome for the matrix.
     */
    private String injectAndCheck(final FaultInjectingFileIo io, final Path dir, final boolean flip,
                                  final boolean mustBeInvisible, final boolean mayBeAbsorbed,
                                  final Matrix matrix) throws IOException {
        final long directBefore = ResourceProbe.directBytes();
        final Run run = new Run(dir.resolve(subject.fileName()), io);
        RuntimeException failure = null;
        try {
            run.execute();
        } catch (final RuntimeException e) {
            failure = e;
        }
        final String injected = io.lastInjected();
        final String site = site(run, injected);
        final String where = (injected == null ? "no fault injected" : injected) + " (" + label + ", phase "
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
            assertReported(failure, subject.fileName(), flip, where);
            outcome = run.array == null ? "build failed" : continueAfter(run, where);
        }
        // (c) close releases everything, even when it throws.
        if (run.array != null && !run.closed) {
            run.closed = true;
            try {
                run.array.close();
            } catch (final RuntimeException e) {
                assertNamesFile(e, subject.fileName(), where + ", at close");
                outcome += ", close threw";
            }
        }
        final Path journal = Journal.pathOf(run.file);
        assertEquals(0, openDescriptors(run.file, journal), () -> "file and journal closed after: " + where);
        assertEquals(directBefore, ResourceProbe.directBytes(), () -> "every frame freed after: " + where);
        final double[] expected = run.array == null ? run.flushed : run.expected();
        outcome += expected == run.flushed ? ", reopened at last flush" : ", reopened at the failed flush";
        assertFalse(Files.exists(run.file.resolveSibling(subject.fileName() + ".new")),
                () -> "no half-created file left: " + where);
        verifyReopened(run, expected, where);
        matrix.add(site, outcome);
        return injected == null ? "not reached" : outcome;
    }

    /**
     * (b): after a fault the structure either works on (every element equals the oracle, and a flush commits it) or
     * refuses use naming the file.
     */
    private String continueAfter(final Run run, final String where) {
        if (run.closed) {
            return "close failed";
        }
        for (int k = 0; k < N; k++) {
            final int key = k;
            final double value;
            try {
                value = subject.get(run.array, key);
            } catch (final IllegalStateException refused) {
                assertNamesFile(refused, subject.fileName(), where + ", then refused");
                assertTrue(refused.getMessage().contains("refuses use"), () -> where + ": " + refused);
                return "refused further use";
            } catch (final UncheckedIOException again) {
                assertNamesFile(again, subject.fileName(), where + ", read again");
                continue; // a sticky fault fails the read again; the structure stays usable
            }
            assertEquals(run.current[key], value, () -> "element " + key + " after " + where);
        }
        try {
            run.flush();
            return "kept working, flushed";
        } catch (final RuntimeException e) {
            assertNamesFile(e, subject.fileName(), where + ", flushing after it");
            return "kept working, next flush failed";
        }
    }

    /**
     * Asserts that a failure is reported as the project reports I/O failures: an {@link UncheckedIOException} (or,
     * after an earlier failure, an {@link IllegalStateException}) naming the file; a flipped bit as an
     * {@link UncheckedIOException} caused by a {@link CorruptFileException} with the same message.
     *
     * @param failure  what was thrown
     * @param fileName what its message must name
     * @param flip     whether the fault was a flipped bit
     * @param where    the fault, for messages
     */
    public static void assertReported(final RuntimeException failure, final String fileName, final boolean flip,
                                      final String where) {
        assertNamesFile(failure, fileName, where);
        assertTrue(failure instanceof UncheckedIOException || failure instanceof IllegalStateException,
                () -> "an I/O failure (or, at close after one, a refusal): " + where + ": " + failure);
        if (flip) {
            final UncheckedIOException e = assertInstanceOf(UncheckedIOException.class, failure, where);
            assertInstanceOf(CorruptFileException.class, e.getCause(), () -> where + ": " + e);
            assertEquals(e.getCause().getMessage(), e.getMessage(), where);
        }
    }

    /**
     * Asserts that {@code e}'s message names the file.
     *
     * @param e        what was thrown
     * @param fileName what its message must contain
     * @param where    the fault, for messages
     */
    public static void assertNamesFile(final RuntimeException e, final String fileName, final String where) {
        final String message = e.getMessage();
        assertTrue(message != null && message.contains(fileName), () -> "the exception names " + fileName + ": "
                + where + ": " + e);
    }

    private void verifyReopened(final Run run, final double[] expected, final String where) {
        assertHolds(subject, run.file, expected, () -> where + (Arrays.equals(expected, run.current) ? ""
                : " (the last state written differs)"));
        assertFalse(Files.exists(Journal.pathOf(run.file)), () -> "journal deleted: " + where);
    }

    /**
     * Opens {@code file} through {@link FileIo#standard()} and asserts that it holds exactly {@code expected}.
     *
     * @param subject  the structure
     * @param file     its page file
     * @param expected every element
     * @param where    what happened before, for messages
     */
    public static void assertHolds(final Subject subject, final Path file, final double[] expected,
                                   final Supplier<String> where) {
        try (PagedStructure reopened = subject.open(file, FileIo.standard())) {
            for (int key = 0; key < expected.length; key++) {
                final double got = subject.get(reopened, key);
                if (Double.compare(expected[key], got) != 0) {
                    fail("after " + where.get() + " the reopened file differs at element " + key + ": expected "
                            + expected[key] + ", got " + got);
                }
            }
        }
    }
}
