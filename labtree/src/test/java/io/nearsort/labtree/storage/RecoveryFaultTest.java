package io.nearsort.labtree.storage;

import io.nearsort.core.io.FaultInjectingFileIo;
import io.nearsort.core.io.FaultInjectingFileIo.Fault;
import io.nearsort.core.io.FaultInjectingFileIo.Operation;
import io.nearsort.core.io.FileIo;
import io.nearsort.labtree.ResourceProbe;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

import static io.nearsort.labtree.ResourceProbe.openDescriptors;
import static io.nearsort.labtree.storage.FaultWorkload.N;
import static io.nearsort.labtree.storage.FaultWorkload.under;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 22, I/O faults during recovery: a {@link io.nearsort.labtree.LabArray} whose process died leaves a journal
 * that the next open replays or discards; this test faults every I/O call of that open.
 *
 * <p>The files a kill leaves are taken in process, deterministically: a second flush of the array runs through an
 * I/O that copies the page file and its journal at chosen moments (a kill keeps what was written, since the
 * operating system holds the written pages). Five images: <em>first commit point</em> (the first flush of the new
 * file, just after its journal's force: a commit without slots, its pages all written in place; recovery writes the
 * header, the array opens at flush 1), <em>uncommitted</em> (before the second flush, with pages of the first
 * flush's commit evicted into journal slots; recovery discards them, the array opens at flush 1),
 * <em>commit point</em> (just after the journal's force; recovery replays every slot), <em>mid checkpoint</em>
 * (half of the slots copied in place: a mixture only the replay repairs) and <em>header written</em> (every slot
 * and the header with the new generation written, the file not yet forced); these three open at flush 2.
 *
 * <p>For each image and fault, a counting open and close gives the calls they make (recovery, the array's own
 * reads, the commit of close); then one open per call, with the fault armed at it. After each: the open either
 * succeeds and every element equals the image's durable state (a read that fails after it must name the file, a
 * flipped bit as corruption), or fails naming the file (a flipped bit as corruption); file and journal are closed
 * and the frames freed; and a fault-free open then gives exactly the durable state and deletes the journal — a
 * failed recovery must not damage what was durable.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecoveryFaultTest {
    private static final String NAME = "recovery.lab";
    private static final int WRITES_PER_EPOCH = 600;
    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final long[] DISK_BUDGETS = {0, 100, 512, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000};

    @TempDir
    static Path tmp;

    private final FaultWorkload.Subject subject = IoFaultTest.subject(IoFaultTest.Config.WRITE_THROUGH);
    /** Image name → its directory; in the order of the flush. */
    private final Map<String, Path> images = new LinkedHashMap<>();
    /** Image name → the state a fault-free open must give. */
    private final Map<String, double[]> durable = new TreeMap<>();

    /** The files a kill at this moment would leave: the page file and its journal, copied. */
    private Path copy(final Path file, final String image) throws IOException {
        final Path dir = Files.createDirectories(tmp.toRealPath().resolve("image-" + image));
        Files.copy(file, dir.resolve(NAME));
        final Path journal = Journal.pathOf(file);
        if (Files.exists(journal)) {
            Files.copy(journal, Journal.pathOf(dir.resolve(NAME)));
        }
        return dir;
    }

    private static void epoch(final Random random, final PagedStructure array, final double[] oracle,
                              final FaultWorkload.Subject subject) {
        for (int i = 0; i < WRITES_PER_EPOCH; i++) {
            final int key = random.nextInt(N);
            final double value = random.nextInt(5) == 0 ? 0.0 : 1 + random.nextInt(1_000_000);
            subject.set(array, key, value);
            oracle[key] = value;
        }
    }

    /**
     * A hook that copies the files as image {@code image} right after the journal's force (the commit point), and
     * after that after every write to the page file (the checkpoint's copies, then the header) into
     * {@code checkpoints}.
     */
    private ObservedFileIo.Hook copying(final Path file, final String image, final List<Path> checkpoints) {
        final Path journal = Journal.pathOf(file);
        final boolean[] committed = {false};
        return (verb, at) -> {
            if (!committed[0] && verb.equals("forcing") && at.equals(journal)) {
                committed[0] = true;
                images.put(image, copy(file, image));
            } else if (committed[0] && verb.equals("writing") && at.equals(file)) {
                checkpoints.add(copy(file, image + " " + (checkpoints.size() + 1)));
            }
        };
    }

    @BeforeAll
    void takeImages() throws IOException {
        final Path file = Files.createDirectories(tmp.toRealPath().resolve("source")).resolve(NAME);
        final ObservedFileIo io = new ObservedFileIo(FileIo.standard());
        final Random random = new Random(FaultWorkload.SEED);
        final double[] oracle = new double[N];
        final List<Path> checkpoints = new ArrayList<>();
        try (PagedStructure array = subject.open(file, io)) {
            epoch(random, array, oracle, subject);
            io.hook(copying(file, "first commit point", new ArrayList<>()));
            array.flush();
            final double[] first = oracle.clone();
            durable.put("first commit point", first);
            io.hook(null);
            epoch(random, array, oracle, subject);
            images.put("uncommitted", copy(file, "uncommitted"));
            durable.put("uncommitted", first);
            io.hook(copying(file, "commit point", checkpoints));
            array.flush();
            io.hook(null);
        }
        assertTrue(checkpoints.size() >= 3, "slots copied in place, then the header: " + checkpoints.size());
        images.put("mid checkpoint", checkpoints.get((checkpoints.size() - 1) / 2));
        images.put("header written", checkpoints.get(checkpoints.size() - 1));
        for (final String image : List.of("commit point", "mid checkpoint", "header written")) {
            durable.put(image, oracle.clone());
        }
        assertEquals(JournalDescriptor.RECORD_LENGTH, Files.size(Journal.pathOf(images.get("first commit point")
                .resolve(NAME))), "a new file's first commit has no journal slots: the record alone");
        assertTrue(Files.size(Journal.pathOf(images.get("uncommitted").resolve(NAME))) > 0,
                "pages of the first flush were evicted into the journal before the second");
        assertNotEquals(0, LongStream.range(0, N).filter(k -> durable.get("uncommitted")[(int) k]
                != oracle[(int) k]).count(), "the flushes differ");
        System.out.println("[recovery-faults] images: " + images.keySet() + "; " + (checkpoints.size() - 1)
                + " slots copied by the second flush's checkpoint");
    }

    /** A fresh copy of an image to open. */
    private Path fresh(final String image, final String run) throws IOException {
        final Path dir = Files.createDirectories(tmp.toRealPath().resolve("run-" + RUNS.incrementAndGet() + "-"
                + image + "-" + run));
        try (var files = Files.list(images.get(image))) {
            for (final Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        return dir;
    }

    /** The image recovers to its durable state without faults; the calls of an open and a close of it. */
    private Map<Operation, Long> count(final String image) throws IOException {
        final Path dir = fresh(image, "count");
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard()).countOnly(under(dir));
        final Map<Operation, Long> calls = new TreeMap<>();
        subject.open(dir.resolve(NAME), io).close(); // recovery, the array's open and its close
        for (final Operation op : Operation.values()) {
            calls.put(op, io.calls(op));
        }
        FaultWorkload.assertHolds(subject, dir.resolve(NAME), durable.get(image), () -> image + ", no fault");
        return calls;
    }

    @ParameterizedTest
    @EnumSource(FaultInjectingFileIo.Injection.class)
    void everyFaultOfRecoveryIsReportedAndDamagesNothing(final FaultInjectingFileIo.Injection fault) throws IOException {
        for (final String image : images.keySet()) {
            final long count = count(image).get(fault.operation);
            final Map<String, Integer> outcomes = new TreeMap<>();
            for (long n = 1; n <= count; n++) {
                final Path dir = fresh(image, fault + "-" + n);
                final String outcome = openAndCheck(image, dir, fault.arm(n, FaultWorkload.under(dir)), fault.fault == Fault.FLIP_BIT,
                        fault.fault == Fault.SHORT_WRITE);
                outcomes.merge(outcome, 1, Integer::sum);
            }
            System.out.println("[recovery-faults] " + fault + ", " + image + " (" + count + " calls of "
                    + fault.operation + ", each faulted): " + outcomes);
        }
    }

    /**
     * The first bug this test found: a bit flipped on the way while recovery read the journal's commit record made a
     * durable commit look torn, and recovery deleted the journal and opened the array at the flush before it — from
     * a half-copied checkpoint, a mixture of the two flushes. Now an incomplete-looking commit is read again before
     * its journal is discarded.
     */
    @Test
    void aBitFlippedWhileReadingTheCommitRecordDoesNotDropTheCommit() throws IOException {
        for (final String image : List.of("mid checkpoint", "commit point")) {
            final Path dir = fresh(image, "flipped-record");
            // READ #1 is the file's header; #2 the journal's commit record.
            final FaultInjectingFileIo io = FaultInjectingFileIo.Injection.FLIP_BIT_READ.arm(2, FaultWorkload.under(dir));
            assertEquals("opened, the fault absorbed", openAndCheck(image, dir, io, true, false), image);
            assertTrue(io.lastInjected().contains(".journal"), io.lastInjected());
        }
    }

    /**
     * The second bug: a commit with no journal slots (the first commit of a new file, whose pages are all written in
     * place) was never replayed, because recovery took a journal shorter than one page for an incomplete one. A
     * kill after such a commit's point, or a failure of its header write, lost the flush although it had passed its
     * commit point (the flush said reopening completes it), and the file reopened empty.
     */
    @Test
    void aCommitWithoutJournalSlotsIsReplayed() throws IOException {
        final Path dir = fresh("first commit point", "no fault");
        assertEquals("opened", openAndCheck("first commit point", dir,
                new FaultInjectingFileIo(FileIo.standard()).countOnly(under(dir)), false, false));
    }

    @Test
    void aFullDiskDuringRecoveryIsReportedAndDamagesNothing() throws IOException {
        for (final String image : images.keySet()) {
            final Map<String, Integer> outcomes = new TreeMap<>();
            for (final long bytes : DISK_BUDGETS) {
                final Path dir = fresh(image, "DISK_FULL-" + bytes);
                final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                        .diskFullAfter(bytes, under(dir));
                outcomes.merge(openAndCheck(image, dir, io, false, false), 1, Integer::sum);
            }
            System.out.println("[recovery-faults] DISK_FULL, " + image + " (" + DISK_BUDGETS.length + " budgets): "
                    + outcomes);
        }
    }

    /**
     * Opens the image in {@code dir} through {@code io}, checks what it reports or reads, then that a fault-free
     * open gives the durable state; returns the outcome.
     */
    private String openAndCheck(final String image, final Path dir, final FaultInjectingFileIo io,
                                final boolean flip, final boolean mustBeInvisible) throws IOException {
        final long directBefore = ResourceProbe.directBytes();
        final Path file = dir.resolve(NAME);
        final double[] expected = durable.get(image);
        String outcome = "opened";
        PagedStructure array = null;
        try {
            array = subject.open(file, io);
        } catch (final RuntimeException e) {
            final String where = io.lastInjected() + " (" + image + ", at open)";
            assertNotNull(io.lastInjected(), () -> "a failure without an injected fault: " + image + ": " + e);
            if (mustBeInvisible) {
                throw new AssertionError("a short write must be invisible, but: " + where, e);
            }
            FaultWorkload.assertReported(e, NAME, flip, where);
            outcome = "open failed";
        }
        if (array != null) {
            final String where = io.lastInjected() + " (" + image + ", after open)";
            outcome = io.injected() > 0 ? "opened, the fault absorbed" : "opened";
            try {
                for (int key = 0; key < expected.length; key++) {
                    final int k = key;
                    assertEquals(expected[key], subject.get(array, key), () -> "element " + k + " after " + where
                            + " (a recovery that went wrong must fail, not open)");
                }
            } catch (final UncheckedIOException | IllegalStateException e) {
                assertNotNull(io.lastInjected(), () -> "a failure without an injected fault: " + image + ": " + e);
                FaultWorkload.assertReported(e, NAME, flip && io.injected() > 0, where);
                outcome = "recovered, a read failed";
            }
            try {
                array.close();
            } catch (final RuntimeException e) {
                FaultWorkload.assertNamesFile(e, NAME, where + ", at close");
                outcome += ", close threw";
            }
        }
        final String where = io.lastInjected() + " (" + image + ")";
        assertEquals(0, openDescriptors(file, Journal.pathOf(file)), () -> "file and journal closed after: " + where);
        assertEquals(directBefore, ResourceProbe.directBytes(), () -> "every frame freed after: " + where);
        FaultWorkload.assertHolds(subject, file, expected, () -> where + ", then a fault-free open");
        if (Files.exists(Journal.pathOf(file))) {
            fail("the fault-free open and close left the journal: " + where);
        }
        return outcome;
    }
}
