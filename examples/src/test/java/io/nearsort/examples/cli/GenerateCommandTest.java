package io.nearsort.examples.cli;

import io.nearsort.core.sortedness.KLGenerator;
import io.nearsort.examples.cli.keys.KeyFormat;
import io.nearsort.examples.cli.keys.KeyBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GenerateCommandTest {
    @TempDir
    Path dir;

    @Test
    void textIsOneKeyPerLineInArrivalOrder() {
        final Cli cli = Cli.run("generate", "-n", "10", "-K", "40", "-L", "20", "--seed", "7");
        assertEquals(0, cli.exitCode, cli.toString());
        final StringBuilder expected = new StringBuilder();
        for (final long key : KLGenerator.generate(10, 40, 20, 7)) {
            expected.append(key).append('\n');
        }
        assertEquals(expected.toString(), cli.out);
    }

    @Test
    void everyFormatMatchesTheLibrarysGenerator() throws IOException {
        final long[] expected = KLGenerator.workload(50_000).kPercent(5).lPercent(3).randomGaps(10).seed(11).generate();
        final String[] common = {"generate", "-n", "50_000", "-K", "5", "-L", "3", "--gaps", "random:10", "--seed", "11"};
        assertArrayEquals(expected, KeyBytes.decode(KeyFormat.TEXT, Cli.run(common).outBytes));
        assertArrayEquals(expected, KeyBytes.decode(KeyFormat.INT64, Cli.run(concat(common, "--binary")).outBytes));
        assertArrayEquals(expected, KeyBytes.decode(KeyFormat.INT32, Cli.run(concat(common, "--int32")).outBytes));
    }

    @Test
    void generateThenProfileRoundTripsKAndL() {
        for (final String[] kl : new String[][] {{"5", "5"}, {"10", "1"}, {"25", "10"}}) {
            final Cli generated = Cli.run("generate", "-n", "100k", "-K", kl[0], "-L", kl[1]);
            final Cli profiled = Cli.runWithInput(generated.outBytes, "profile", "-");
            assertEquals(0, profiled.exitCode, profiled.toString());
            final double k = Double.parseDouble(kl[0]) / 100;
            final double l = Double.parseDouble(kl[1]) / 100;
            assertEquals(Math.round(l * 100_000), profiled.count("L"), "L is reached exactly");
            assertEquals(k * 100_000, profiled.count("K"), k * 100_000 * 0.15, "K within 15%");
        }
    }

    @Test
    void outputFileAndItsDirectoriesAreCreated() throws IOException {
        final Path file = dir.resolve("a/b/keys.bin");
        final Cli cli = Cli.run("generate", "-n", "1000", "--scrambled", "--binary", "-o", file.toString());
        assertEquals(0, cli.exitCode, cli.toString());
        assertEquals("", cli.out);
        assertTrue(cli.err.contains("wrote 1,000 keys (binary little-endian int64) to " + file), cli.err);
        assertArrayEquals(KLGenerator.workload(1000).scrambled(true).seed(42).generate(),
                KeyBytes.decode(KeyFormat.INT64, Files.readAllBytes(file)));
    }

    @Test
    void fixedGapsShowInTheProfile() {
        final Cli generated = Cli.run("generate", "-n", "1000", "--gaps", "fixed:25");
        final Cli profiled = Cli.runWithInput(generated.outBytes, "profile");
        assertTrue(profiled.field("gaps").contains("(fixed width: generate --gaps fixed:25)"), profiled.out);
        assertEquals("1 .. 24976 (1,000 distinct)", profiled.field("key range"));
    }

    @Test
    void badArgumentsExitWithTwoAndOneLine() {
        assertBad("-K must be a percentage in [0, 100] (got: 101.0)", "generate", "-K", "101");
        assertBad("--scrambled is a random permutation; it takes no -K or -L", "generate", "--scrambled", "-K", "5");
        assertBad("--gaps expects fixed:W or random:W with an integer W >= 1 (got: 'fixed:0')", "generate", "--gaps",
                "fixed:0");
        assertBad("--gaps expects fixed:W or random:W with an integer W >= 1 (got: 'wide:3')", "generate", "--gaps",
                "wide:3");
        assertBad("--binary and --int32 are exclusive", "generate", "--binary", "--int32");
        assertBad("--late and -L are exclusive", "generate", "--late", "1", "-L", "5");
        assertBad("--late and --scrambled are exclusive", "generate", "--scrambled", "--late", "1");
        assertBad("--late must be a percentage in [0, 100] (got: -0.5)", "generate", "--late", "-0.5");
        assertBad("-n must be in [0, 2,147,483,639] (got: -1)", "generate", "-n", "-1");
        assertBad("overflow the long range", "generate", "-n", "10", "--gaps", "fixed:9223372036854775807");
        assertBad("Invalid value for option '-K': 'x' is not a double", "generate", "-K", "x");
    }

    private static void assertBad(final String message, final String... args) {
        final Cli cli = Cli.run(args);
        assertEquals(2, cli.exitCode, cli.toString());
        assertTrue(cli.err.contains(message), cli.err);
        assertTrue(cli.err.startsWith("nearsort generate: "), cli.err);
        assertEquals(1, cli.err.lines().count(), cli.err);
        assertEquals("", new String(cli.outBytes, StandardCharsets.UTF_8));
    }

    private static String[] concat(final String[] args, final String extra) {
        final String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = extra;
        return all;
    }
}
