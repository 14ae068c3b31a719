package io.nearsort.examples.cli.keys;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes keys in one of the {@link KeyFormat}s through its own byte buffer (no per-key strings). Text is one
 * decimal integer per line, the format {@link KeyReader} reads back. {@link #flush()} must be called at the end;
 * the stream itself is not closed.
 */
public final class KeyWriter {
    private static final int BUFFER = 1 << 16;
    /** Room for the longest key: a sign, 19 digits and a newline. */
    private static final int MAX_TEXT_KEY = 21;

    private final KeyFormat format;
    private final OutputStream out;
    private final byte[] buffer = new byte[BUFFER];
    private final byte[] digits = new byte[MAX_TEXT_KEY];
    private int fill;

    public KeyWriter(final KeyFormat format, final OutputStream out) {
        this.format = format;
        this.out = out;
    }

    /**
     * Appends one key.
     *
     * @throws IllegalArgumentException when an {@link KeyFormat#INT32} key does not fit in 32 bits
     */
    public void write(final long key) throws IOException {
        if (fill + MAX_TEXT_KEY > buffer.length) {
            drain();
        }
        switch (format) {
            case TEXT:
                writeDecimal(key);
                break;
            case INT64:
                for (int i = 0; i < Long.BYTES; i++) {
                    buffer[fill++] = (byte) (key >>> (8 * i));
                }
                break;
            case INT32:
                if (key != (int) key) {
                    throw new IllegalArgumentException("key " + key + " does not fit the int32 format; use --binary");
                }
                for (int i = 0; i < Integer.BYTES; i++) {
                    buffer[fill++] = (byte) (key >>> (8 * i));
                }
                break;
            default:
                throw new AssertionError(format);
        }
    }

    private void writeDecimal(final long key) {
        // Works on the negated magnitude so that Long.MIN_VALUE needs no special case.
        long negated = key < 0 ? key : -key;
        int p = digits.length;
        do {
            digits[--p] = (byte) ('0' - negated % 10);
            negated /= 10;
        } while (negated != 0);
        if (key < 0) {
            digits[--p] = '-';
        }
        final int length = digits.length - p;
        System.arraycopy(digits, p, buffer, fill, length);
        fill += length;
        buffer[fill++] = '\n';
    }

    /** Writes out what is buffered and flushes the stream. */
    public void flush() throws IOException {
        drain();
        out.flush();
    }

    private void drain() throws IOException {
        out.write(buffer, 0, fill);
        fill = 0;
    }
}
