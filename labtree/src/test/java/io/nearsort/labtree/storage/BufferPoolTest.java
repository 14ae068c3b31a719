package io.nearsort.labtree.storage;

import io.nearsort.core.CorruptFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.nearsort.labtree.CorruptionAssertions.assertCorrupt;
import static io.nearsort.labtree.ResourceProbe.flipByte;
import static io.nearsort.labtree.ResourceProbe.openDescriptors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BufferPoolTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    private BufferPool open(final Path file, final int frames) throws IOException {
        return new BufferPool(PageFile.open(file, PAGE, true), frames);
    }

    private static long directBytes() {
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        throw new AssertionError("no direct buffer pool bean");
    }

    /** Writes pages 1..n, page p holding p * 1000 + i at long slot i. */
    private void fill(final BufferPool pool, final int pages) {
        for (int p = 1; p <= pages; p++) {
            final BufferPool.Frame frame = pool.pinNew();
            assertEquals(p, frame.page());
            for (int i = 0; i < 8; i++) {
                frame.payload().putLong(i * 8, p * 1000L + i);
            }
            pool.unpin(frame);
        }
    }

    @Test
    void pagesSurviveCloseAndReopen() throws IOException {
        final Path file = dir.resolve("a.lab");
        try (BufferPool pool = open(file, 4)) {
            assertTrue(pool.file().directIo() || pool.file().directIoNotice() != null);
            fill(pool, 20);
        }
        try (BufferPool pool = open(file, 3)) {
            assertEquals(20, pool.file().pageCount());
            for (int p = 20; p >= 1; p--) {
                final BufferPool.Frame frame = pool.pin(p);
                for (int i = 0; i < 8; i++) {
                    assertEquals(p * 1000L + i, frame.payload().getLong(i * 8));
                }
                pool.unpin(frame);
            }
            assertEquals(20, pool.pageReads());
            assertEquals(0, pool.pageWrites());
        }
    }

    @Test
    void lruCountsEveryReadAndWrite() throws IOException {
        final Path file = dir.resolve("lru.lab");
        try (BufferPool pool = open(file, 2)) {
            fill(pool, 3); // page 1 is evicted (written) to make room for page 3
            assertEquals(1, pool.pageWrites());
            assertEquals(3, pool.logicalAccesses());
            pool.unpin(pool.pin(2)); // resident: no read; page 2 becomes most recent
            assertEquals(0, pool.pageReads());
            pool.unpin(pool.pin(1)); // evicts page 3 (least recently used), dirty: written
            assertEquals(1, pool.pageReads());
            assertEquals(2, pool.pageWrites());
            pool.unpin(pool.pin(3)); // evicts page 2 (dirty)
            assertEquals(2, pool.pageReads());
            assertEquals(3, pool.pageWrites());
            assertEquals(6, pool.logicalAccesses());
            assertEquals(2, pool.allocatedFrames());
        }
    }

    @Test
    void everyFramePinnedIsReportedNotOverwritten() throws IOException {
        try (BufferPool pool = open(dir.resolve("pinned.lab"), 2)) {
            pool.pinNew();
            pool.pinNew();
            final IllegalStateException e = assertThrows(IllegalStateException.class, pool::pinNew);
            assertTrue(e.getMessage().contains("exhausted: every page is pinned"), e.getMessage());
        }
    }

    @Test
    void aFlippedBitIsReportedWithFileAndPage() throws IOException {
        final Path file = dir.resolve("flip.lab");
        try (BufferPool pool = open(file, 4)) {
            fill(pool, 3);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            final java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
            channel.read(b, 2L * PAGE + 100);
            b.put(0, (byte) (b.get(0) ^ 0x10)).clear();
            channel.write(b, 2L * PAGE + 100);
        }
        try (BufferPool pool = open(file, 4)) {
            pool.unpin(pool.pin(1));
            final CorruptFileException e = assertCorrupt(() -> pool.pin(2));
            assertEquals(2, e.page());
            assertEquals(2L * PAGE, e.offset());
            assertEquals(file, e.file());
            assertEquals(file + " is corrupt at page 2 (byte " + 2 * PAGE + "): checksum mismatch", e.getMessage());
            pool.unpin(pool.pin(3)); // the pool is still usable
        }
    }

    @Test
    void aPageCopiedToTheWrongPlaceIsReported() throws IOException {
        final Path file = dir.resolve("moved.lab");
        try (BufferPool pool = open(file, 4)) {
            fill(pool, 3);
        }
        final byte[] bytes = Files.readAllBytes(file);
        System.arraycopy(bytes, PAGE, bytes, 3 * PAGE, PAGE); // page 1's image over page 3
        Files.write(file, bytes);
        try (BufferPool pool = open(file, 4)) {
            final CorruptFileException e = assertCorrupt(() -> pool.pin(3));
            assertTrue(e.getMessage().endsWith("page 3 (byte " + 3 * PAGE + "): holds page 1"), e.getMessage());
        }
    }

    @Test
    void truncationAndForeignFilesAreReportedAtOpen() throws IOException {
        final Path file = dir.resolve("cut.lab");
        try (BufferPool pool = open(file, 4)) {
            fill(pool, 5);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(4L * PAGE + 10);
        }
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> open(file, 4));
        assertTrue(e.getMessage().contains("header lists 5 pages") && e.getMessage().contains("(truncated)"),
                e.getMessage());
        assertEquals(-1, e.page());
        final Path foreign = dir.resolve("foreign.lab");
        Files.write(foreign, new byte[PAGE * 2]);
        e = assertThrows(CorruptFileException.class, () -> open(foreign, 4));
        assertTrue(e.getMessage().contains("not a nearsort LAB-tree file"), e.getMessage());
        final Path tiny = dir.resolve("tiny.lab");
        Files.write(tiny, new byte[10]);
        e = assertThrows(CorruptFileException.class, () -> open(tiny, 4));
        assertTrue(e.getMessage().contains("shorter than its header"), e.getMessage());
    }

    @Test
    void aDamagedHeaderIsReported() throws IOException {
        final Path file = dir.resolve("header.lab");
        try (BufferPool pool = open(file, 4)) {
            fill(pool, 2);
        }
        final byte[] bytes = Files.readAllBytes(file);
        bytes[17] ^= 1; // inside the page count
        Files.write(file, bytes);
        final CorruptFileException e = assertThrows(CorruptFileException.class, () -> open(file, 4));
        assertTrue(e.getMessage().endsWith("corrupt in its header: header checksum mismatch"), e.getMessage());
    }

    @Test
    void badArgumentsNameTheParameter() throws IOException {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PageFile.open(dir.resolve("x"), 1000, false))
                .getMessage().contains("pageSize must be a power of two in [512, 1048576] (got: 1000)"));
        final Path file = dir.resolve("size.lab");
        PageFile.open(file, PAGE, false).close();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PageFile.open(file, 8192, false))
                .getMessage().contains("has 4096-byte pages; pageSize must match (got: 8192)"));
        final PageFile pages = PageFile.open(dir.resolve("frames.lab"), PAGE, false);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new BufferPool(pages, 1)).getMessage()
                .contains("bufferPoolPages must be >= 2 (got: 1)"));
        pages.close();
    }

    @Test
    void closeFreesEveryFrameAndLaterUseFails() throws IOException {
        final long before = directBytes();
        final BufferPool pool = open(dir.resolve("free.lab"), 64);
        fill(pool, 100);
        assertTrue(directBytes() >= before + 64L * PAGE, "frames are off-heap");
        pool.close();
        assertEquals(before, directBytes(), "no direct bytes remain after close");
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.pin(1));
        assertNotNull(e.getMessage());
        assertTrue(e.getMessage().contains("is closed"), e.getMessage());
        pool.close(); // idempotent
    }

    /** Page {@code page}'s first long. */
    private static long first(final BufferPool pool, final long page) {
        final BufferPool.Frame frame = pool.pin(page);
        final long value = frame.payload().getLong(0);
        pool.unpin(frame);
        return value;
    }

    private static void assertPages(final BufferPool pool, final int pages, final long base) {
        for (int p = 1; p <= pages; p++) {
            final BufferPool.Frame frame = pool.pin(p);
            for (int i = 0; i < 8; i++) {
                assertEquals(p * base + i, frame.payload().getLong(i * 8), "page " + p + ", slot " + i);
            }
            pool.unpin(frame);
        }
    }

    /** Issue 22: close releases every resource even when a step fails, and the failed commit is not applied. */
    @Test
    void aFailingCommitStillFreesEveryFrameAndClosesTheFile() throws IOException {
        final Path file = dir.toRealPath().resolve("fail.lab");
        final Path journal = file.resolveSibling("fail.lab.journal");
        try (BufferPool pool = open(file, 4)) {
            fill(pool, 3);
        }
        final long before = directBytes();
        final BufferPool pool = open(file, 2);
        for (int p = 1; p <= 3; p++) { // two frames: page 1 is evicted into the journal to make room for page 3
            final BufferPool.Frame frame = pool.pin(p);
            frame.payload().putLong(0, -p);
            frame.markDirty();
            pool.unpin(frame);
        }
        flipByte(journal, PAGE + 100); // inside slot 1, page 1's new image
        assertEquals(2, openDescriptors(file, journal));
        final CorruptFileException e = assertCorrupt(pool::close);
        assertEquals(journal, e.file());
        assertEquals(1, e.page());
        assertEquals(0, openDescriptors(file, journal), "file and journal closed");
        assertEquals(before, directBytes(), "every frame freed");
        assertTrue(assertThrows(IllegalStateException.class, () -> pool.pin(1)).getMessage().contains("is closed"));
        try (BufferPool reopened = open(file, 4)) {
            assertPages(reopened, 3, 1000); // the last complete commit
        }
        assertTrue(Files.notExists(journal), "journal deleted at close");
    }

    @Test
    void pagesOfTheLastCommitAreNotOverwrittenBeforeTheNextCommit() throws IOException {
        final Path file = dir.resolve("commit.lab");
        try (BufferPool pool = open(file, 4)) {
            fill(pool, 6);
        }
        final byte[] committed = Files.readAllBytes(file);
        try (BufferPool pool = open(file, 2)) {
            for (int p = 1; p <= 6; p++) { // every page but the last two is evicted before the flush
                final BufferPool.Frame frame = pool.pin(p);
                frame.payload().putLong(0, -p);
                frame.markDirty();
                pool.unpin(frame);
            }
            assertEquals(4, pool.pageWrites());
            assertTrue(java.util.Arrays.equals(committed, Files.readAllBytes(file)), "the file is untouched");
            assertEquals(-1, first(pool, 1), "read back from the journal");
            pool.flush();
            assertEquals(2, pool.file().generation());
        }
        try (BufferPool pool = open(file, 4)) {
            for (int p = 1; p <= 6; p++) {
                assertEquals(-p, first(pool, p));
            }
        }
    }

    @Test
    void aVersion1FileIsReadAndRewrittenAsVersion2() throws IOException {
        final Path file = dir.resolve("v1.lab");
        try (BufferPool pool = open(file, 4)) {
            fill(pool, 3);
        }
        // Page 0 as version 1 wrote it: no generation, the checksum at 24 over bytes 0..23.
        final java.nio.ByteBuffer header = java.nio.ByteBuffer.allocate(PAGE).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        header.putLong(0, FileHeaderDescriptor.MAGIC).putInt(8, 1).putInt(12, PAGE).putLong(16, 3);
        final java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(header.array(), 0, 24);
        header.putInt(24, (int) crc.getValue());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(header, 0);
        }
        try (BufferPool pool = open(file, 4)) {
            assertEquals(0, pool.file().generation());
            assertPages(pool, 3, 1000);
            final BufferPool.Frame frame = pool.pin(2);
            frame.payload().putLong(0, 7);
            frame.markDirty();
            pool.unpin(frame);
        }
        final java.nio.ByteBuffer rewritten = java.nio.ByteBuffer.wrap(Files.readAllBytes(file))
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(2, rewritten.getInt(8), "version");
        assertEquals(1, rewritten.getLong(24), "generation");
        try (BufferPool pool = open(file, 4)) {
            assertEquals(7, first(pool, 2));
        }
    }
}
