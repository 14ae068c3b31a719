package io.nearsort.examples.cli.keys;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyReaderWriterTest {
    @ParameterizedTest
    @EnumSource(KeyFormat.class)
    void roundTripsRandomAndExtremeKeysAcrossBufferBoundaries(final KeyFormat format) throws IOException {
        final SplittableRandom random = new SplittableRandom(format.ordinal());
        final long[] keys = new long[200_000];
        for (int i = 0; i < keys.length; i++) {
            final long key = random.nextLong();
            keys[i] = format == KeyFormat.INT32 ? (int) key : key >> random.nextInt(64);
        }
        final long low = format == KeyFormat.INT32 ? Integer.MIN_VALUE : Long.MIN_VALUE;
        final long high = format == KeyFormat.INT32 ? Integer.MAX_VALUE : Long.MAX_VALUE;
        keys[0] = low;
        keys[1] = high;
        keys[2] = 0;
        keys[3] = -1;
        keys[keys.length - 1] = low;
        assertArrayEquals(keys, KeyBytes.decode(format, KeyBytes.encode(format, keys)));
    }

    @Test
    void textToleratesBlanksCrlfSignsAndAMissingFinalNewline() throws IOException {
        final byte[] text = " 12\t\r\n+7\n-0\n  -9223372036854775808  \n42".getBytes(StandardCharsets.US_ASCII);
        assertArrayEquals(new long[] {12, 7, 0, Long.MIN_VALUE, 42}, KeyBytes.decode(KeyFormat.TEXT, text));
        assertArrayEquals(new long[0], KeyBytes.decode(KeyFormat.TEXT, new byte[0]));
    }

    @Test
    void textRejectsAnythingElseNamingTheLine() {
        assertMalformed("src:2: expected one integer in [-9223372036854775808, 9223372036854775807] per line, got '1.5'",
                "1\n1.5\n");
        assertMalformed("src:1: expected one integer in [-9223372036854775808, 9223372036854775807] per line, got "
                + "'9223372036854775808'", "9223372036854775808\n");
        assertMalformed("got '-9223372036854775809'", "-9223372036854775809\n");
        assertMalformed("src:3: ", "1\n2\n\n3\n");
        assertMalformed("got an empty line", "1\n2\n\n3\n");
        assertMalformed("got '1 2'", "1 2\n");
        assertMalformed("got '-'", "-\n");
        assertMalformed("got '+-3'", "+-3\n");
        assertMalformed("src:2: ", "5\n0x10");
        assertMalformed("got '1111111111111111111111111111111111111111...'", "1".repeat(100) + "\n");
    }

    private static void assertMalformed(final String expected, final String text) {
        final MalformedInputException e = assertThrows(MalformedInputException.class,
                () -> KeyBytes.decode(KeyFormat.TEXT, text.getBytes(StandardCharsets.US_ASCII)));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void binaryRejectsATruncatedTail() {
        final MalformedInputException e = assertThrows(MalformedInputException.class,
                () -> KeyBytes.decode(KeyFormat.INT32, new byte[10]));
        assertEquals("src: byte offset 8: 2 trailing byte(s), expected whole 4-byte keys (binary little-endian int32; "
                + "truncated input or wrong format?)", e.getMessage());
    }

    @Test
    void int32WriterRefusesKeysThatDoNotFit() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KeyBytes.encode(KeyFormat.INT32, new long[] {1L << 31}));
        assertTrue(e.getMessage().contains("does not fit the int32 format"), e.getMessage());
    }
}
