package io.nearsort.examples.cli.keys;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads keys in one of the {@link KeyFormat}s and hands them to a {@link KeySink} as they arrive, so that a
 * stream can be profiled in bounded memory. Text is parsed byte by byte (no per-line strings); a line holding
 * anything but an optionally signed decimal {@code long} with surrounding blanks, an empty line, or a binary
 * stream whose length is not a multiple of the key width is reported with the source name and the line number
 * or byte offset. Nothing is skipped silently.
 */
public final class KeyReader {
    private static final int BUFFER = 1 << 16;
    private static final int MAX_ECHO = 40;

    private final KeyFormat format;

    public KeyReader(final KeyFormat format) {
        this.format = format;
    }

    /**
     * Reads {@code path}, or standard input when {@code path} is {@code "-"}.
     *
     * @return keys read
     * @throws MalformedInputException when the content is not in the format, naming the source and position
     * @throws IOException             when the file cannot be read; a missing file is reported by name
     */
    public long read(final String path, final InputStream stdin, final KeySink sink) throws IOException {
        if ("-".equals(path)) {
            return read(stdin, "<stdin>", sink);
        }
        final Path file = Path.of(path);
        if (Files.isDirectory(file)) {
            throw new MalformedInputException(path + ": is a directory, expected a file of keys");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, path, sink);
        } catch (final NoSuchFileException e) {
            throw new MalformedInputException(path + ": no such file");
        }
    }

    /** Reads every key of {@code in}; {@code source} names it in error messages. */
    public long read(final InputStream in, final String source, final KeySink sink) throws IOException {
        final InputStream buffered = in instanceof BufferedInputStream ? in : new BufferedInputStream(in, BUFFER);
        return format == KeyFormat.TEXT ? readText(buffered, source, sink) : readBinary(buffered, source, sink);
    }

    private long readBinary(final InputStream in, final String source, final KeySink sink) throws IOException {
        final int width = format.width();
        final byte[] buffer = new byte[BUFFER];
        long count = 0;
        int pending = 0;
        int read;
        while ((read = in.read(buffer, pending, buffer.length - pending)) >= 0) {
            final int available = pending + read;
            int p = 0;
            for (; p + width <= available; p += width) {
                sink.accept(width == Long.BYTES ? littleEndianLong(buffer, p) : littleEndianInt(buffer, p));
                count++;
            }
            pending = available - p;
            System.arraycopy(buffer, p, buffer, 0, pending);
        }
        if (pending != 0) {
            throw new MalformedInputException(source + ": byte offset " + count * width + ": " + pending
                    + " trailing byte(s), expected whole " + width + "-byte keys (" + format.description()
                    + "; truncated input or wrong format?)");
        }
        return count;
    }

    private static long littleEndianLong(final byte[] b, final int p) {
        long value = 0;
        for (int i = Long.BYTES - 1; i >= 0; i--) {
            value = (value << 8) | (b[p + i] & 0xFFL);
        }
        return value;
    }

    private static long littleEndianInt(final byte[] b, final int p) {
        return (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | (b[p + 2] & 0xFF) << 16 | b[p + 3] << 24;
    }

    private long readText(final InputStream in, final String source, final KeySink sink) throws IOException {
        final TextLineParser parser = new TextLineParser(source, sink);
        final byte[] buffer = new byte[BUFFER];
        int read;
        while ((read = in.read(buffer)) >= 0) {
            for (int i = 0; i < read; i++) {
                parser.accept(buffer[i]);
            }
        }
        parser.finish();
        return parser.keys;
    }

    /** A byte-at-a-time parser of one decimal {@code long} per line. */
    private static final class TextLineParser {
        private final String source;
        private final KeySink sink;
        private final byte[] echo = new byte[MAX_ECHO];
        private int echoLength;
        private long line = 1;
        private long keys;
        // Accumulates the negated magnitude so that Long.MIN_VALUE parses without overflow.
        private long negatedValue;
        private int digits;
        private boolean negative;
        private boolean signSeen;
        private boolean trailingBlanks;
        private boolean bad;

        TextLineParser(final String source, final KeySink sink) {
            this.source = source;
            this.sink = sink;
        }

        void accept(final byte b) {
            if (b == '\n') {
                endLine();
                return;
            }
            if (echoLength < MAX_ECHO) {
                echo[echoLength++] = b;
            }
            if (bad) {
                return;
            }
            if (b >= '0' && b <= '9') {
                if (trailingBlanks) {
                    bad = true;
                    return;
                }
                final int digit = b - '0';
                if (negatedValue < (Long.MIN_VALUE + digit) / 10) {
                    bad = true; // overflow
                    return;
                }
                negatedValue = negatedValue * 10 - digit;
                digits++;
            } else if ((b == '-' || b == '+') && !signSeen && digits == 0) {
                signSeen = true;
                negative = b == '-';
            } else if (b == ' ' || b == '\t' || b == '\r') {
                trailingBlanks = digits > 0 || signSeen;
            } else {
                bad = true;
            }
        }

        private void endLine() {
            if (bad || digits == 0) {
                throw malformed();
            }
            if (!negative && negatedValue == Long.MIN_VALUE) {
                bad = true;
                throw malformed();
            }
            sink.accept(negative ? negatedValue : -negatedValue);
            keys++;
            line++;
            echoLength = 0;
            negatedValue = 0;
            digits = 0;
            negative = false;
            signSeen = false;
            trailingBlanks = false;
        }

        void finish() {
            if (echoLength > 0 || bad || signSeen) {
                endLine(); // a last line without a newline
            }
        }

        private MalformedInputException malformed() {
            final String text = new String(echo, 0, echoLength, StandardCharsets.UTF_8).strip();
            final String shown = text.isEmpty() ? "an empty line" : "'" + text
                    + (echoLength == MAX_ECHO ? "...'" : "'");
            return new MalformedInputException(source + ":" + line + ": expected one integer in ["
                    + Long.MIN_VALUE + ", " + Long.MAX_VALUE + "] per line, got " + shown);
        }
    }
}
