package io.nearsort.ldi.projection;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link StoredBucket#decode} meets payloads whose checksum held but whose content is not a bucket (a checksum
 * collision, a bug of a writer, or the baselines' fuzz target recomputing checksums over damaged bytes): it must
 * throw an {@link IllegalStateException}, which the readers report as a {@code CorruptFileException}, and never
 * another exception or an allocation sized by the payload's numbers. {@code BaselineRunFuzzTest} found the first
 * case in its seed corpus: a string offset of 1,442,840,582 in a 256-byte payload made decode allocate a 1.4 GB array
 * (an {@link OutOfMemoryError} on a smaller heap) and then throw an {@link IndexOutOfBoundsException}.
 */
class StoredBucketDecodeTest {
    private static final List<Column> LAYOUT = List.of(Column.longColumn("id"), Column.varString("note"));
    /** Rows of the bucket. */
    private static final int N = 3;
    /** Where the note column's string offsets start: the header, the row ids and the id column before them. */
    private static final int OFFSETS = 4 + 8 * 4 + 1 + 8 * N + 8 * N;

    private static ByteBuffer encoded() {
        final StoredBucket b = StoredBucket.ofRows(LAYOUT, new long[] {1, 2, 3}, new long[] {10, 11, 12},
                List.of(new Object[] {1L, "a"}, new Object[] {2L, "bb"}, new Object[] {3L, "ccc"}));
        return b.encode(LAYOUT).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static IllegalStateException rejected(final ByteBuffer payload) {
        return assertThrows(IllegalStateException.class, () -> StoredBucket.decode(payload, LAYOUT, 0));
    }

    @Test
    void anIntactPayloadDecodes() {
        final StoredBucket b = StoredBucket.decode(encoded(), LAYOUT, 0);
        assertEquals(N, b.count());
        assertArrayEquals(new String[] {"a", "bb", "ccc"}, (String[]) b.columns[1]);
    }

    @Test
    void aStringOffsetPastThePayloadIsRejectedBeforeAnythingIsAllocated() {
        final ByteBuffer p = encoded();
        p.putInt(OFFSETS + 4, 1_442_840_582);
        assertTrue(rejected(p).getMessage().contains("string offset 1442840582"));
    }

    @Test
    void stringOffsetsOutOfOrderAreRejected() {
        final ByteBuffer p = encoded();
        p.putInt(OFFSETS + 8, 0); // row 1 would end before it starts: a negative length
        rejected(p);
        final ByteBuffer q = encoded();
        q.putInt(OFFSETS, 5); // the first string does not start at 0
        rejected(q);
    }

    /**
     * Found by {@code BaselineRunFuzzTest} (a resealed run block): a fixed-width field whose bytes are not UTF-8
     * decoded to replacement characters, 3 bytes each, and the merge that wrote the row again overflowed the width
     * ({@link ArrayIndexOutOfBoundsException} in {@code encode}).
     */
    @Test
    void aFixedWidthFieldThatIsNotUtf8IsRejected() {
        final List<Column> layout = List.of(Column.longColumn("id"), Column.fixedString("flag", 3));
        final StoredBucket b = StoredBucket.ofRows(layout, new long[] {1, 2}, new long[] {10, 11},
                List.of(new Object[] {1L, "Y"}, new Object[] {2L, "é"}));
        final ByteBuffer p = b.encode(layout).order(ByteOrder.LITTLE_ENDIAN);
        final int flags = 4 + 8 * 4 + 1 + 8 * 2 + 8 * 2;
        assertEquals("é", ((String[]) StoredBucket.decode(p, layout, 0).columns[1])[1]);
        p.put(flags, (byte) 0xFF).put(flags + 1, (byte) 0xFE).put(flags + 2, (byte) 0xFD);
        final IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> StoredBucket.decode(p, layout, 0));
        assertTrue(e.getMessage().contains("not UTF-8"), e.getMessage());
    }

    /**
     * Found by {@code BaselineRunFuzzTest}'s first fuzzing run (a resealed run block of the {@code by_distance}
     * projection): a NaN in a DOUBLE key column made decode throw {@code KeyCodec}'s
     * {@link IllegalArgumentException} ("a key cannot be NaN").
     */
    @Test
    void aNanKeyIsRejected() {
        final List<Column> layout = List.of(Column.doubleColumn("d"), Column.longColumn("v"));
        final StoredBucket b = StoredBucket.ofRows(layout, new long[] {KeyCodec.ofDouble(1.5)}, new long[] {7},
                List.<Object[]>of(new Object[] {1.5, 2L}));
        final ByteBuffer p = b.encode(layout).order(ByteOrder.LITTLE_ENDIAN);
        p.putDouble(4 + 8 * 4 + 1 + 8, Double.NaN);
        final IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> StoredBucket.decode(p, layout, 0));
        assertTrue(e.getMessage().contains("NaN"), e.getMessage());
    }

    @Test
    void aPayloadCutShortIsRejectedWhereverItEnds() {
        final ByteBuffer whole = encoded();
        for (int length = 0; length < whole.limit(); length++) {
            final ByteBuffer cut = whole.duplicate().limit(length).order(ByteOrder.LITTLE_ENDIAN);
            rejected(cut);
        }
    }
}
