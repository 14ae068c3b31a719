package io.nearsort.examples.cli.keys;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/** Keys to bytes and back through {@link KeyWriter} and {@link KeyReader}, for tests. */
public final class KeyBytes {
    private KeyBytes() {
    }

    public static byte[] encode(final KeyFormat format, final long... keys) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final KeyWriter writer = new KeyWriter(format, out);
        for (final long key : keys) {
            writer.write(key);
        }
        writer.flush();
        return out.toByteArray();
    }

    public static long[] decode(final KeyFormat format, final byte[] bytes) throws IOException {
        final LongArrayBuilder keys = new LongArrayBuilder();
        final long count = new KeyReader(format).read(new ByteArrayInputStream(bytes), "src", keys);
        if (count != keys.size()) {
            throw new AssertionError("read returned " + count + " but delivered " + keys.size() + " keys");
        }
        return keys.toArray();
    }
}
