package io.nearsort.ldi.baselines;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.nearsort.core.CorruptFileException;
import io.nearsort.core.io.FileIo;
import io.nearsort.ldi.projection.ColumnStoreFuzzTest;
import io.nearsort.ldi.projection.QueryResult;
import io.nearsort.ldi.projection.StoreOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile input for the baselines' run files (issue 22). The baselines are not reopenable, but their run files are
 * read back during queries and merges: a small store (LSM-like leveled or tiered, or Sorted_Col, as the fuzzer
 * says; 350 rows, buffers of 32 rows, blocks of 8: 4 to 10 run files) is built, one of its run files is damaged in place as the fuzzer
 * says ({@link ColumnStoreFuzzTest#damage}: bytes overwritten, cut short or extended), and the store reads
 * everything back: both projections over the whole key space and two random ranges, then a merge that reads the
 * damaged run (Sorted_Col: a flush; LSM: buffers appended until the run is merged away), then the whole key space
 * again. Every read must return exactly the rows written, or fail with a {@link CorruptFileException} naming the
 * damaged file (an append that merges reports it as the cause of an {@link UncheckedIOException} naming the file);
 * after a failed merge the store refuses further use, and {@code close} deletes every file. Any other exception, a
 * wrong row, a hang or an out-of-memory error is a finding.
 *
 * <p>The fuzzer may also have the checksums of the damaged records recomputed (a damage the checksum does not see:
 * a collision, or a bug of the writer), so that the block decoder and the checks behind it meet hostile bytes too.
 * Wrong rows cannot then be told from right ones and are not checked; every failure must still be a
 * {@code CorruptFileException} naming the file.
 *
 * <p>{@code mvn test} replays the committed corpus ({@code BaselineRunFuzzTestInputs}); {@code JAZZER_FUZZ=1}
 * fuzzes (docs/reliability.md, "Hostile input").
 */
class BaselineRunFuzzTest {
    private static final int BUFFER_ROWS = 32;
    private static Path dir;

    @BeforeAll
    static void makeTheDirectory() throws IOException {
        dir = Files.createTempDirectory("baseline-fuzz").toRealPath();
    }

    @AfterAll
    static void removeTheDirectory() throws IOException {
        delete(dir);
    }

    @FuzzTest(maxDuration = "10m")
    void aDamagedRunFileIsReportedNeverReadAsData(final FuzzedDataProvider data) throws IOException {
        final BaselineIoFaultTest.Kind kind = BaselineIoFaultTest.Kind.values()[data.consumeInt(0, 2)];
        final boolean resealed = data.consumeBoolean();
        final Path store = Files.createTempDirectory(dir, "store");
        final StoreOracle oracle = new StoreOracle();
        final SplittableRandom rnd = new SplittableRandom(2026);
        try {
            final BaselineStore s = kind.open(store, FileIo.standard());
            try {
                oracle.appendRows(s, 200, rnd);
                s.flush();
                oracle.appendRows(s, 150, rnd);
                final List<Path> runs = BaselineIoFaultTest.left(store).stream().map(store::resolve).toList();
                assertTrue(runs.size() >= 4, kind + " runs: " + runs);
                final Path victim = runs.get(data.consumeInt(0, runs.size() - 1));
                final String where = kind + ", " + victim.getFileName() + " damaged" + (resealed ? ", resealed" : "");
                final byte[] pristine = Files.readAllBytes(victim);
                byte[] damaged = ColumnStoreFuzzTest.damage(pristine, data);
                if (resealed) {
                    damaged = reseal(pristine, damaged);
                }
                overwrite(victim, damaged);
                final boolean exact = !resealed || Arrays.equals(pristine, damaged);
                readAll(s, oracle, exact, victim, where);
                if (merge(kind, s, oracle, rnd, victim, where)) {
                    readAll(s, oracle, exact, victim, where + ", after the merge");
                } else {
                    final IllegalStateException refused = assertThrows(IllegalStateException.class,
                            () -> s.queryOrdered("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "id"), where);
                    assertTrue(refused.getMessage().contains(store.toString()), where + ": " + refused);
                }
            } finally {
                s.close();
            }
            assertEquals(List.of(), BaselineIoFaultTest.left(store), "close deletes every run file");
        } finally {
            delete(store);
        }
    }

    /**
     * Both projections over the whole key space, and two random ranges: exactly the rows written (when
     * {@code exact}), or a {@link CorruptFileException} naming {@code victim}, after which the store goes on.
     */
    private static void readAll(final BaselineStore s, final StoreOracle oracle, final boolean exact,
                                final Path victim, final String where) throws IOException {
        try {
            if (exact) {
                BaselineIoFaultTest.checkAll(s, oracle, where);
                oracle.checkQueries(s, new SplittableRandom(7), 2);
            } else {
                final QueryResult byId = s.queryOrdered("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "id", "note");
                assertEquals(oracle.rows.size(), byId.size(), where + ": rows of by_id");
                final QueryResult byDistance = s.queryOrdered("by_distance", Long.MIN_VALUE, Long.MAX_VALUE,
                        "distance", "flag", "amount");
                assertEquals(oracle.rows.size(), byDistance.size(), where + ": rows of by_distance");
            }
        } catch (CorruptFileException e) {
            assertEquals(victim, e.file(), where + ": " + e);
            assertTrue(e.getMessage().contains(victim.toString()), where + ": " + e);
        }
    }

    /**
     * A merge that reads {@code victim}: Sorted_Col's flush, or, for an LSM, buffers appended until the victim is
     * merged away (at most 64). Returns whether it succeeded; a failure must be the victim's corruption.
     */
    private static boolean merge(final BaselineIoFaultTest.Kind kind, final BaselineStore s, final StoreOracle oracle,
                                 final SplittableRandom rnd, final Path victim, final String where) {
        try {
            if (kind == BaselineIoFaultTest.Kind.SORTED) {
                s.flush();
                assertTrue(!Files.exists(victim), where + ": the flush merged every run");
            } else {
                for (int b = 0; b < 64 && Files.exists(victim); b++) {
                    oracle.appendRows(s, BUFFER_ROWS, rnd);
                }
                assertTrue(!Files.exists(victim), where + ": 64 buffers did not merge the victim away");
            }
            return true;
        } catch (UncheckedIOException e) {
            assertTrue(e.getCause() instanceof CorruptFileException c && c.file().equals(victim), where + ": " + e);
            assertTrue(e.getMessage().contains(victim.toString()), where + ": " + e);
            return false;
        } catch (CorruptFileException e) {
            assertEquals(victim, e.file(), where + ": " + e);
            return false;
        } catch (IOException e) {
            throw new AssertionError(where + ": a merge failed otherwise than as corruption", e);
        }
    }

    /**
     * {@code damaged} with the framing of every record that the damage touched (and that is still whole) made valid
     * again: its length as written and the checksum of its damaged payload.
     */
    static byte[] reseal(final byte[] pristine, final byte[] damaged) {
        final byte[] out = damaged.clone();
        final ByteBuffer p = ByteBuffer.wrap(pristine).order(ByteOrder.LITTLE_ENDIAN);
        final ByteBuffer d = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        int at = 16 + p.getInt(8); // magic, version, identity length, identity, its checksum
        while (at + 8 <= pristine.length) {
            final int length = p.getInt(at);
            final int end = at + 8 + length;
            if (end <= out.length && !Arrays.equals(pristine, at, end, out, at, end)) {
                final CRC32C crc = new CRC32C();
                crc.update(out, at + 8, length);
                d.putInt(at, length).putInt(at + 4, (int) crc.getValue());
            }
            at = end;
        }
        return out;
    }

    /** Writes {@code bytes} over the file in place (the store has it open), cutting it to their length. */
    private static void overwrite(final Path file, final byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            final ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b, b.position());
            }
            ch.truncate(bytes.length);
        }
    }

    private static void delete(final Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
