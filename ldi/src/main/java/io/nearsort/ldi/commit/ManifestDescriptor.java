package io.nearsort.ldi.commit;

import io.nearsort.core.CorruptFileException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The layout of a column store's manifest, {@value #FILE}: the log of its commit points. All integers little-endian.
 *
 * <pre>
 * page 0   (0 .. 4095)      [magic "LDIM":4][version:4][pageSize:4][crc32c of the 12 bytes:4], zeros
 * page 1   (4096 .. 8191)   commit slot 0
 * page 2   (8192 .. 12287)  commit slot 1
 *          slot: [magic "SLOT":4][sequence:8][committedEnd:8][commitId:8][nextCommitId:8][oldestRetained:8]
 *                [crc32c of bytes 0..43:4]
 * 12288 .. committedEnd     records: [length:4][crc32c of the payload:4][payload]
 *          LAYOUT (the first record): [1:1][the table's encoding, opaque to the manifest]
 *          COMMIT: [2:1][id:8][timeMillis:8][rows:8]
 *                  [metadata entries:4]{[key bytes:4][UTF-8][value bytes:4][UTF-8]}
 *                  [projections:4]{[activeSegment:4][activeEnd:8][nextSegment:4]
 *                                  [added:4]{BucketEntry, 41 bytes}[retired:4]{pointer:8}}
 * </pre>
 *
 * <p>A commit is complete once its slot is durable: the slot with the highest valid sequence names the end of the
 * last complete COMMIT record, its id, the id the next commit gets (ids are never reused, not even after a
 * roll-back) and the oldest commit still retained (a commit once dropped from retention never comes back: the
 * segment files only it referred to may be gone). Slots alternate, and each sits in a page of its own, so a write torn by a
 * crash spoils at most the slot being written and the other still names the previous commit. Every byte before
 * {@code committedEnd} must verify — a failure there is corruption, reported; bytes after it were written by a
 * commit that did not complete and are cut off when the store is next opened for writing.
 */
public final class ManifestDescriptor {
    /** The manifest's file name in the store directory. */
    public static final String FILE = "store.manifest";
    /** Where a rewritten manifest is prepared before it atomically replaces {@link #FILE}. */
    public static final String TEMP = "store.manifest.tmp";
    static final int MAGIC = 0x4D49444C;      // "LDIM"
    static final int VERSION = 1;
    static final int PAGE = 4096;
    static final int SLOT_MAGIC = 0x544F4C53; // "SLOT"
    static final int SLOT_BYTES = 48;
    static final int SLOT_SEQUENCE = 4;
    static final int SLOT_END = 12;
    static final int SLOT_COMMIT = 20;
    static final int SLOT_NEXT_ID = 28;
    static final int SLOT_OLDEST = 36;
    static final int SLOT_CRC = 44;
    /** Offset of the first record. */
    static final long RECORDS = 3L * PAGE;
    /** Bytes before a record's payload. */
    static final int RECORD_HEADER = 8;
    static final byte LAYOUT = 1;
    static final byte COMMIT = 2;

    private ManifestDescriptor() {
    }

    /** Offset of commit slot {@code slot} (0 or 1). */
    static long slotOffset(final int slot) {
        return (long) PAGE * (1 + slot);
    }

    /** Page 0. */
    static ByteBuffer header() {
        final ByteBuffer b = ByteBuffer.allocate(PAGE).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putInt(VERSION).putInt(PAGE);
        b.putInt(12, crc(b, 0, 12));
        return b.clear();
    }

    /** Checks page 0 as read from {@code path}. */
    static void checkHeader(final ByteBuffer b, final Path path) throws CorruptFileException {
        if (b.getInt(0) != MAGIC) {
            throw new CorruptFileException(path, 0, "not a column store manifest (bad magic)");
        }
        if (b.getInt(12) != crc(b, 0, 12)) {
            throw new CorruptFileException(path, 0, "manifest header checksum mismatch");
        }
        if (b.getInt(4) != VERSION) {
            throw new CorruptFileException(path, 4, "manifest format version " + b.getInt(4) + ", this version of"
                    + " nearsort reads " + VERSION);
        }
        if (b.getInt(8) != PAGE) {
            throw new CorruptFileException(path, 8, "manifest page size " + b.getInt(8) + ", expected " + PAGE);
        }
    }

    /** A commit slot's bytes. */
    static ByteBuffer slot(final long sequence, final long committedEnd, final long commitId,
                           final long nextCommitId, final long oldestRetained) {
        final ByteBuffer b = ByteBuffer.allocate(SLOT_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(SLOT_MAGIC).putLong(sequence).putLong(committedEnd).putLong(commitId).putLong(nextCommitId)
                .putLong(oldestRetained);
        b.putInt(SLOT_CRC, crc(b, 0, SLOT_CRC));
        return b.clear();
    }

    /** Whether a slot's bytes are a complete slot (a torn or never written slot is not). */
    static boolean slotValid(final ByteBuffer b) {
        return b.getInt(0) == SLOT_MAGIC && b.getInt(SLOT_CRC) == crc(b, 0, SLOT_CRC) && b.getLong(SLOT_SEQUENCE) > 0;
    }

    /** The 8-byte header of a record holding {@code payload}. */
    static ByteBuffer recordHeader(final ByteBuffer payload) {
        final CRC32C crc = new CRC32C();
        crc.update(payload.duplicate());
        final ByteBuffer h = ByteBuffer.allocate(RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        return h.putInt(payload.remaining()).putInt((int) crc.getValue()).flip();
    }

    static int crc(final ByteBuffer b, final int from, final int to) {
        final CRC32C crc = new CRC32C();
        crc.update(b.duplicate().clear().position(from).limit(to));
        return (int) crc.getValue();
    }

    static byte[] utf8(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static void putString(final ByteBuffer b, final byte[] utf8) {
        b.putInt(utf8.length).put(utf8);
    }

    static String getString(final ByteBuffer b) {
        final int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalStateException("string of " + n + " bytes does not fit its record");
        }
        final byte[] bytes = new byte[n];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
