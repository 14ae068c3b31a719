package io.nearsort.examples.cli;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile arguments for {@code nearsort generate} and {@code nearsort profile} (issue 22): command lines drawn from
 * the commands' options with good, bad and extreme values, plus arbitrary strings, and arbitrary bytes on standard
 * input. Every run must end with exit code 0, or 2 and a message naming the command on standard error (README, "The
 * command line"); exit code 1 (an internal failure, the only one printed with a stack trace) or an exception
 * escaping {@code NearsortMain.run} is a finding. Counts are kept
 * small so that one run takes milliseconds.
 *
 * <p>{@code mvn test} replays the committed corpus ({@code CliArgumentsFuzzTestInputs}); {@code JAZZER_FUZZ=1}
 * fuzzes (docs/reliability.md, "Hostile input").
 */
class CliArgumentsFuzzTest {
    private static final String[] COUNTS = {"0", "1", "2", "10", "1k", "2_000", "-1", "1.5", "x", "", "1M5",
        "99999999999999999999", "0x10", "3e3"};
    private static final String[] PERCENTS = {"0", "1", "5", "50", "100", "101", "-5", "0.5", "NaN", "1e400", "abc"};
    private static final String[] OPTIONS = {"-n", "-K", "-L", "--late", "--seed", "--gaps", "--scrambled",
        "--binary", "--int32", "--window", "--help", "-o", "--unknown", "-"};

    @FuzzTest(maxDuration = "10m")
    void generateAndProfileExitWithZeroOrTwo(final FuzzedDataProvider data) {
        final boolean generate = data.consumeBoolean();
        final List<String> args = new ArrayList<>();
        args.add(generate ? "generate" : "profile");
        final int n = data.consumeInt(0, 8);
        for (int i = 0; i < n; i++) {
            final String option = data.pickValue(OPTIONS);
            args.add(option);
            switch (option) {
                case "-n", "--window" -> args.add(data.pickValue(COUNTS));
                case "-K", "-L", "--late" -> args.add(data.pickValue(PERCENTS));
                case "--seed" -> args.add(Long.toString(data.consumeLong()));
                case "--gaps" -> args.add(data.pickValue(new String[] {"fixed:", "random:", "none:", ""})
                        + data.pickValue(COUNTS));
                case "-o" -> args.add("/dev/null");
                default -> {
                    if (data.consumeBoolean()) {
                        args.add(data.consumeString(12));
                    }
                }
            }
        }
        if (generate && !args.contains("-n")) {
            args.add("-n");
            args.add("100"); // the default n is 1M: keep runs short
        }
        final byte[] stdin = data.consumeRemainingAsBytes();
        final Cli cli = Cli.runWithInput(stdin, args.toArray(new String[0]));
        assertTrue(cli.exitCode == 0 || cli.exitCode == 2, () -> args + " -> " + cli);
        if (cli.exitCode == 2) {
            // The message names the command; only an internal error (exit 1) prints a stack trace. (Looking for
            // one in the text was a false finding twice: the message echoes the input, which may hold anything.)
            assertTrue(cli.err.startsWith("nearsort "), () -> args + " exits 2 without a message: " + cli);
        }
    }
}
