package io.nearsort.ldi.projection;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.nearsort.ldi.commit.CommitPoint;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile input for the column store's readers (issue 22): a real store (three commits, maintenance merged and
 * reclaimed buckets, on-disk IB-trees) has one of its files damaged as the fuzzer says (bytes overwritten, cut
 * short or extended) and is opened and queried whole. The store must either open at one of its commits and return
 * exactly that commit's rows, or throw an {@link IOException} (a {@code CorruptFileException} where the damage is
 * detected as corruption) or {@link UncheckedIOException} naming a file of the store. Any other exception, a wrong
 * row, a hang or an out-of-memory error is a finding. Files damaged: the manifest (commit log and bucket
 * directory), each projection's bucket segments and IB-tree, so every on-disk reader of the store is reached.
 *
 * <p>{@code mvn test} replays the committed corpus ({@code ColumnStoreFuzzTestInputs}); {@code JAZZER_FUZZ=1} fuzzes
 * (docs/reliability.md, "Hostile input").
 */
public class ColumnStoreFuzzTest {
    private static final ColumnStoreOptions OPTIONS = ColumnStoreTest.OPTIONS;
    private static Path dir;
    /** The store's files, by name relative to its directory. */
    private static final Map<String, byte[]> FILES = new TreeMap<>();
    private static final List<String> NAMES = new ArrayList<>();
    /** Rows at each commit, by commit id. */
    private static final Map<Long, Integer> ROWS_AT = new TreeMap<>();
    private static final StoreOracle ORACLE = new StoreOracle();

    @BeforeAll
    static void writeTheStore() throws IOException {
        dir = Files.createTempDirectory("ldi-fuzz");
        final Path store = dir.resolve("pristine");
        final SplittableRandom random = new SplittableRandom(2026);
        try (ColumnStore s = ColumnStore.open(store, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, OPTIONS)) {
            for (int c = 0; c < 3; c++) {
                for (int b = 0; b < 3; b++) {
                    ORACLE.appendBatch(s, 250 + random.nextInt(250), random);
                }
                final CommitPoint p = s.flush(Map.of("commit", Integer.toString(c)));
                ROWS_AT.put(p.id(), (int) p.rows());
                if (c == 1) {
                    for (final Projection projection : StoreOracle.PROJECTIONS) {
                        s.maintain(projection.name());
                        s.reclaim(projection.name(), 0.0);
                    }
                }
            }
        }
        try (Stream<Path> files = Files.walk(store)) {
            for (final Path p : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                final String name = store.relativize(p).toString();
                FILES.put(name, Files.readAllBytes(p));
            }
        }
        NAMES.addAll(FILES.keySet());
        assertTrue(NAMES.size() >= 3, "a manifest and files of both projections: " + NAMES);
    }

    @AfterAll
    static void removeTheFiles() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (final Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    @FuzzTest(maxDuration = "10m")
    void aDamagedStoreIsReportedNeverReadAsData(final FuzzedDataProvider data) throws IOException {
        final Path store = Files.createTempDirectory(dir, "damaged");
        final String victim = NAMES.get(data.consumeInt(0, NAMES.size() - 1));
        try {
            for (final Map.Entry<String, byte[]> f : FILES.entrySet()) {
                final Path target = store.resolve(f.getKey());
                Files.createDirectories(target.getParent());
                Files.write(target, f.getKey().equals(victim) ? damage(f.getValue(), data) : f.getValue());
            }
            try (ColumnStore s = ColumnStore.open(store, StoreOracle.SCHEMA, StoreOracle.PROJECTIONS, OPTIONS)) {
                final CommitPoint at = s.lastCommit().orElseThrow(
                        () -> new AssertionError("opened " + victim + "-damaged store without a commit"));
                final Integer rows = ROWS_AT.get(at.id());
                assertTrue(rows != null && rows == at.rows() && rows == s.rows(),
                        () -> "opened at commit " + at + " holding " + s.rows() + " rows; commits made: " + ROWS_AT);
                final StoreOracle prefix = new StoreOracle();
                prefix.rows.addAll(ORACLE.rows.subList(0, rows));
                final QueryResult all = s.query("by_id", Long.MIN_VALUE, Long.MAX_VALUE, "note", "id");
                final List<String> got = new ArrayList<>();
                for (int i = 0; i < all.size(); i++) {
                    got.add(all.getLong(i, "id") + "/" + all.rowId(i) + "/" + all.getString(i, "note"));
                }
                assertEquals(prefix.expectedById(Long.MIN_VALUE, Long.MAX_VALUE), got, victim + " damaged");
                prefix.checkScans(s, new SplittableRandom(7), 2);
            }
        } catch (final IOException | UncheckedIOException e) {
            assertTrue(String.valueOf(e.getMessage()).contains(store.toString()),
                    () -> "names a file of the store (" + victim + " damaged): " + e);
        } finally {
            try (Stream<Path> files = Files.walk(store)) {
                for (final Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /**
     * Up to eight edits of {@code original}: overwritten runs of bytes, a cut or an extension (also the damage of the
     * baselines' {@code BaselineRunFuzzTest}).
     */
    public static byte[] damage(final byte[] original, final FuzzedDataProvider data) {
        byte[] bytes = original.clone();
        final int edits = data.consumeInt(1, 8);
        for (int e = 0; e < edits && data.remainingBytes() > 0; e++) {
            switch (data.consumeInt(0, 3)) {
                case 0, 1 -> {
                    if (bytes.length == 0) {
                        break;
                    }
                    final int at = data.consumeInt(0, bytes.length - 1);
                    final byte[] with = data.consumeBytes(Math.min(16, bytes.length - at));
                    System.arraycopy(with, 0, bytes, at, with.length);
                }
                case 2 -> bytes = Arrays.copyOf(bytes, data.consumeInt(0, bytes.length));
                default -> {
                    final byte[] tail = data.consumeBytes(256);
                    final int from = bytes.length;
                    bytes = Arrays.copyOf(bytes, from + tail.length);
                    System.arraycopy(tail, 0, bytes, from, tail.length);
                }
            }
        }
        return bytes;
    }
}
