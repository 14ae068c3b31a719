package io.nearsort.examples.cli;

import io.nearsort.core.sortedness.KLGenerator;
import io.nearsort.core.sortedness.Sortedness;
import io.nearsort.core.sortedness.SortednessReport;
import io.nearsort.examples.cli.keys.KeyFormat;
import io.nearsort.examples.cli.keys.KeyBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProfileCommandTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"0, 0", "5, 5", "20, 1", "50, 25", "100, 100"})
    void figuresAgreeWithTheLibrarysMeasurement(final double k, final double l) throws IOException {
        final long[] keys = KLGenerator.workload(30_000).kPercent(k).lPercent(l).randomGaps(7).seed(3).generate();
        final Path file = dir.resolve("keys.txt");
        Files.write(file, KeyBytes.encode(KeyFormat.TEXT, keys));
        final Cli cli = Cli.run("profile", file.toString());
        assertEquals(0, cli.exitCode, cli.toString());
        final SortednessReport expected = Sortedness.measure(keys);
        assertEquals(expected.n(), cli.count("entries"));
        assertEquals(expected.k(), cli.count("K"));
        assertEquals(expected.l(), cli.count("L"));
        assertEquals(expected.minRemovals(), cli.count("min removals"));
        assertEquals(expected.runs(), cli.count("ascending runs"));
        assertEquals(expected.duplicates(), cli.count("duplicates"));
        assertTrue(cli.field("K").contains(String.format(java.util.Locale.ROOT, "(%.2f%%)", 100 * expected.kFraction())),
                cli.out);
        assertTrue(cli.field("recommendation").startsWith("Indexes.saBPlusTree().bufferCapacity("), cli.out);
    }

    @ParameterizedTest
    @EnumSource(KeyFormat.class)
    void everyFormatReadsTheSameKeysFromAFileOrStandardInput(final KeyFormat format) throws IOException {
        final long[] keys = KLGenerator.generate(5_000, 10, 2, 9);
        final String flag = format == KeyFormat.INT64 ? "--binary" : format == KeyFormat.INT32 ? "--int32" : null;
        final byte[] bytes = KeyBytes.encode(format, keys);
        final Cli fromStdin = flag == null ? Cli.runWithInput(bytes, "profile", "-")
                : Cli.runWithInput(bytes, "profile", flag, "-");
        assertEquals(0, fromStdin.exitCode, fromStdin.toString());
        assertEquals(Sortedness.measure(keys).k(), fromStdin.count("K"));
        assertTrue(fromStdin.field("source").contains(format.description()), fromStdin.out);
    }

    @Test
    void extremeKeysDuplicatesAndGaps() throws IOException {
        final Path file = dir.resolve("edge.txt");
        Files.writeString(file, Long.MAX_VALUE + "\n" + Long.MIN_VALUE + "\r\n  0  \n0\n+5\n");
        final Cli cli = Cli.run("profile", file.toString());
        assertEquals(0, cli.exitCode, cli.toString());
        assertEquals(5, cli.count("entries"));
        assertEquals(1, cli.count("duplicates"));
        assertEquals(Long.MIN_VALUE + " .. " + Long.MAX_VALUE + " (4 distinct)", cli.field("key range"));
        // Gaps are unsigned: MIN..0 is 2^63.
        assertTrue(cli.field("gaps").startsWith("min 5, median 9223372036854775802, "), cli.field("gaps"));
        assertTrue(cli.field("gaps").contains("max 9223372036854775808"), cli.field("gaps"));
    }

    @Test
    void streamingWindowAgreesWithTheExactFiguresWhileLIsBelowTheWindow() throws IOException {
        final long[] keys = KLGenerator.generate(40_000, 10, 1, 4); // L = 400 < window
        final byte[] bytes = KeyBytes.encode(KeyFormat.INT64, keys);
        final Cli exact = Cli.runWithInput(bytes, "profile", "--binary");
        final Cli streaming = Cli.runWithInput(bytes, "profile", "--binary", "--window", "1k");
        assertEquals(0, streaming.exitCode, streaming.toString());
        assertTrue(streaming.field("mode").contains("window 1,000 keys, 0 outliers"), streaming.out);
        for (final String field : new String[] {"entries", "K", "L", "ascending runs", "duplicates"}) {
            assertEquals(exact.count(field), streaming.count(field), field);
        }
        assertTrue(streaming.field("gaps").startsWith("mean 1.00"), streaming.out);
        assertEquals(exact.field("class"), streaming.field("class"));
    }

    @Test
    void aStreamDisplacedBeyondTheWindowIsFlagged() throws IOException {
        final long[] keys = KLGenerator.workload(20_000).scrambled(true).seed(1).generate();
        final Cli cli = Cli.runWithInput(KeyBytes.encode(KeyFormat.TEXT, keys), "profile", "--window", "100");
        assertEquals(0, cli.exitCode, cli.toString());
        assertTrue(cli.field("mode").contains("L is a lower bound"), cli.out);
        assertTrue(cli.field("L").contains("at least"), cli.out);
    }

    @Test
    void classesAndRecommendations() throws IOException {
        assertEquals("sorted", classOf(KLGenerator.generate(20_000, 0, 0, 1)));
        assertEquals("near-sorted", classOf(KLGenerator.generate(20_000, 5, 5, 1)));
        assertEquals("scrambled", classOf(KLGenerator.workload(20_000).scrambled(true).seed(1).generate()));
        final Cli near = Cli.runWithInput(KeyBytes.encode(KeyFormat.TEXT, KLGenerator.generate(100_000, 5, 5, 1)), "profile");
        // L = 5,000 entries: 2L = 10,000 rounds up to 16,384; split 80:20.
        assertEquals("Indexes.saBPlusTree().bufferCapacity(16384).splitRatio(0.8).build()",
                near.field("recommendation"));
        assertTrue(near.out.contains("2L = 10,000 entries"), near.out);
    }

    private static String classOf(final long[] keys) throws IOException {
        return Cli.runWithInput(KeyBytes.encode(KeyFormat.TEXT, keys), "profile").field("class").split(" ")[0];
    }

    @Test
    void emptyInputIsReportedNotRejected() {
        final Cli cli = Cli.runWithInput(new byte[0], "profile");
        assertEquals(0, cli.exitCode, cli.toString());
        assertEquals(0, cli.count("entries"));
        assertEquals("sorted", cli.field("class").split(" ")[0]);
    }

    @Test
    void malformedInputNamesTheFileAndLine() throws IOException {
        final Path file = dir.resolve("bad.txt");
        Files.writeString(file, "1\n2\n3 4\n5\n");
        Cli cli = Cli.run("profile", file.toString());
        assertEquals(2, cli.exitCode);
        assertEquals(file + ":3: expected one integer in [-9223372036854775808, 9223372036854775807] per line, "
                + "got '3 4'\n", cli.err.replace("nearsort profile: ", ""));
        Files.writeString(file, "1\n\n2\n");
        cli = Cli.run("profile", file.toString());
        assertTrue(cli.err.contains("bad.txt:2: ") && cli.err.contains("got an empty line"), cli.err);
        Files.writeString(file, "9223372036854775808\n");
        cli = Cli.run("profile", file.toString());
        assertTrue(cli.err.contains("bad.txt:1: ") && cli.err.contains("'9223372036854775808'"), cli.err);
        Files.write(file, new byte[12]);
        cli = Cli.run("profile", "--binary", file.toString());
        assertEquals(2, cli.exitCode);
        assertTrue(cli.err.contains("bad.txt: byte offset 8: 4 trailing byte(s)"), cli.err);
        cli = Cli.run("profile", dir.resolve("missing.txt").toString());
        assertEquals(2, cli.exitCode);
        assertEquals("nearsort profile: " + dir.resolve("missing.txt") + ": no such file\n", cli.err);
        assertEquals(1, cli.err.lines().count());
    }

    @Test
    void badArguments() {
        Cli cli = Cli.run("profile", "--binary", "--int32");
        assertEquals(2, cli.exitCode);
        assertTrue(cli.err.startsWith("nearsort profile: --binary and --int32 are exclusive"), cli.err);
        cli = Cli.run("profile", "--window", "1");
        assertEquals(2, cli.exitCode);
        assertTrue(cli.err.contains("--window must be in [2, 134,217,728] (got: 1)"), cli.err);
        cli = Cli.run("profile", "--window", "lots");
        assertEquals(2, cli.exitCode);
        assertTrue(cli.err.contains("'lots' is not a count"), cli.err);
        assertEquals(1, cli.err.lines().count(), cli.err);
    }

    @Test
    void helpHasExamples() {
        final Cli cli = Cli.run("profile", "--help");
        assertEquals(0, cli.exitCode);
        assertTrue(cli.out.contains("Usage: nearsort profile") && cli.out.contains("Examples:"), cli.out);
        assertTrue(new String(cli.outBytes, StandardCharsets.UTF_8).contains("--window"));
    }

    /** Found by {@code CliArgumentsFuzzTest}: a file name no file system accepts was an internal error (exit 1). */
    @Test
    void aFileNameWithANulCharacterIsABadArgument() {
        final Cli cli = Cli.run("profile", "keys\0.txt");
        assertEquals(2, cli.exitCode, cli::toString);
        assertTrue(cli.err.startsWith("nearsort profile: 'keys\\0.txt' is not a valid file name"), cli.err);
        assertEquals(1, cli.err.strip().lines().count(), cli.err);
    }
}
