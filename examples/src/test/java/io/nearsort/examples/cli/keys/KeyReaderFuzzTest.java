package io.nearsort.examples.cli.keys;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile input for the CLI's key readers (issue 22): any bytes, read in any {@link KeyFormat}, must give exactly
 * the keys a plain reference reading gives (text: split at {@code \n}, blanks, tabs and {@code \r} trimmed, one
 * optionally signed decimal {@code long} per line; binary: little-endian words), or a
 * {@link MalformedInputException} naming the source and the first bad line (or the byte offset of a trailing
 * partial key) exactly where the reference finds it. Any other exception is a finding.
 *
 * <p>{@code mvn test} replays the committed corpus ({@code KeyReaderFuzzTestInputs}); {@code JAZZER_FUZZ=1} fuzzes
 * (docs/reliability.md, "Hostile input").
 */
class KeyReaderFuzzTest {
    private static final Pattern KEY = Pattern.compile("[+-]?[0-9]+");
    private static final String SOURCE = "fuzz.keys";

    @FuzzTest(maxDuration = "10m")
    void readsExactlyTheKeysOrNamesTheFirstBadLine(final FuzzedDataProvider data) throws IOException {
        final KeyFormat format = KeyFormat.values()[data.consumeInt(0, KeyFormat.values().length - 1)];
        final byte[] input = data.consumeRemainingAsBytes();
        final List<Long> expected = new ArrayList<>();
        final String problem = format == KeyFormat.TEXT ? referenceText(input, expected)
                : referenceBinary(input, format.width(), expected);
        final List<Long> got = new ArrayList<>();
        final KeyReader reader = new KeyReader(format);
        if (problem == null) {
            assertEquals(expected.size(), reader.read(new ByteArrayInputStream(input), SOURCE, got::add));
            assertEquals(expected, got);
        } else {
            final MalformedInputException e = assertThrows(MalformedInputException.class,
                    () -> reader.read(new ByteArrayInputStream(input), SOURCE, got::add));
            assertTrue(e.getMessage().startsWith(SOURCE + ":" + problem), () -> e.getMessage() + " / " + problem);
            assertEquals(expected, got, "the keys before the bad line");
        }
    }

    /** The reference text reading; returns null, or the position of the first bad line ({@code "7:"}). */
    private static String referenceText(final byte[] input, final List<Long> keys) {
        final String text = new String(input, java.nio.charset.StandardCharsets.ISO_8859_1);
        final String[] lines = text.split("\n", -1);
        final int count = text.endsWith("\n") || text.isEmpty() ? lines.length - 1 : lines.length;
        for (int i = 0; i < count; i++) {
            final String line = strip(lines[i]);
            if (!KEY.matcher(line).matches()) {
                return (i + 1) + ":";
            }
            try {
                keys.add(Long.parseLong(line));
            } catch (final NumberFormatException outOfRange) {
                return (i + 1) + ":";
            }
        }
        return null;
    }

    private static String strip(final String line) {
        int from = 0;
        int to = line.length();
        while (from < to && isBlank(line.charAt(from))) {
            from++;
        }
        while (to > from && isBlank(line.charAt(to - 1))) {
            to--;
        }
        return line.substring(from, to);
    }

    private static boolean isBlank(final char c) {
        return c == ' ' || c == '\t' || c == '\r';
    }

    /** The reference binary reading; returns null, or the byte offset of a trailing partial key. */
    private static String referenceBinary(final byte[] input, final int width, final List<Long> keys) {
        final ByteBuffer b = ByteBuffer.wrap(input).order(ByteOrder.LITTLE_ENDIAN);
        while (b.remaining() >= width) {
            keys.add(width == Long.BYTES ? b.getLong() : (long) b.getInt());
        }
        return b.hasRemaining() ? " byte offset " + b.position() + ":" : null;
    }
}
