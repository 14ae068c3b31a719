package io.nearsort.examples.cli.keys;

/**
 * How keys are stored in a file or stream. The text format is the data-sortedness benchmark generator's text
 * output: one decimal integer per line. The binary formats are little-endian two's complement, 8 bytes
 * ({@code --binary}) or 4 bytes ({@code --int32}, the reference generator's binary output).
 */
public enum KeyFormat {
    /** One decimal integer per line ({@code \n} or {@code \r\n}). */
    TEXT(0, "text, one integer per line"),
    /** Little-endian int64. */
    INT64(Long.BYTES, "binary little-endian int64"),
    /** Little-endian int32. */
    INT32(Integer.BYTES, "binary little-endian int32");

    private final int width;
    private final String description;

    KeyFormat(final int width, final String description) {
        this.width = width;
        this.description = description;
    }

    /** Bytes per key of a binary format; 0 for text. */
    public int width() {
        return width;
    }

    /** A phrase for messages and reports. */
    public String description() {
        return description;
    }

    /** The format the {@code --binary} and {@code --int32} flags select. */
    public static KeyFormat of(final boolean binary, final boolean int32) {
        return int32 ? INT32 : binary ? INT64 : TEXT;
    }
}
