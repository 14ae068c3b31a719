package io.nearsort.core.io;

import io.nearsort.core.io.FaultInjectingFileIo.Fault;
import io.nearsort.core.io.FaultInjectingFileIo.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each fault of {@link FaultInjectingFileIo} happens at the call chosen, on the files chosen, and nowhere else. */
class FaultInjectingFileIoTest {
    private static final byte[] DATA = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    private static FileChannel create(final FileIo io, final Path path) throws IOException {
        return io.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    @Test
    void theNthWriteFailsNamingTheFileAndWritesNothing() throws IOException {
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard());
        io.inject(Operation.WRITE, 2, Fault.FAIL, false, path -> true);
        final Path file = dir.resolve("a.dat");
        try (FileChannel ch = create(io, file)) {
            assertEquals(DATA.length, ch.write(ByteBuffer.wrap(DATA)));
            final IOException e = assertThrows(IOException.class, () -> ch.write(ByteBuffer.wrap(DATA)));
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
            assertEquals(DATA.length, ch.size());
            assertEquals(DATA.length, ch.write(ByteBuffer.wrap(DATA))); // transient: the third write goes through
        }
        assertEquals(3, io.calls(Operation.WRITE));
        assertEquals(1, io.injected());
        assertTrue(io.lastInjected().startsWith("FAIL at WRITE #2"), io.lastInjected());
    }

    @Test
    void aStickyFaultFailsEveryLaterCallToo() throws IOException {
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                .inject(Operation.FORCE, 1, Fault.FAIL, true, path -> true);
        try (FileChannel ch = create(io, dir.resolve("b.dat"))) {
            ch.write(ByteBuffer.wrap(DATA));
            assertThrows(IOException.class, () -> ch.force(true));
            assertThrows(IOException.class, () -> ch.force(false));
        }
        assertEquals(2, io.injected());
    }

    @Test
    void onlyTheSelectedFilesAreCountedAndFaulted() throws IOException {
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                .inject(Operation.WRITE, 1, Fault.FAIL, false, path -> path.toString().endsWith(".seg"));
        try (FileChannel other = create(io, dir.resolve("x.log")); FileChannel seg = create(io, dir.resolve("y.seg"))) {
            other.write(ByteBuffer.wrap(DATA));
            other.write(ByteBuffer.wrap(DATA));
            assertThrows(IOException.class, () -> seg.write(ByteBuffer.wrap(DATA)));
        }
        assertEquals(1, io.calls(Operation.WRITE));
    }

    @Test
    void aShortWriteWritesHalfAndSaysSo() throws IOException {
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                .inject(Operation.WRITE, 1, Fault.SHORT_WRITE, false, path -> true);
        final Path file = dir.resolve("c.dat");
        try (FileChannel ch = create(io, file)) {
            final ByteBuffer src = ByteBuffer.wrap(DATA);
            assertEquals(DATA.length / 2, ch.write(src, 0));
            assertEquals(DATA.length / 2, src.position());
            assertEquals(DATA.length / 2, ch.write(src, DATA.length / 2)); // the caller's loop finishes it
        }
        assertArrayEquals(DATA, Files.readAllBytes(file));
    }

    @Test
    void aFlippedBitReachesTheReaderButNotTheFile() throws IOException {
        final Path file = dir.resolve("d.dat");
        Files.write(file, DATA);
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                .inject(Operation.READ, 1, Fault.FLIP_BIT, false, path -> true);
        try (FileChannel ch = io.open(file, StandardOpenOption.READ)) {
            final ByteBuffer first = ByteBuffer.allocate(DATA.length);
            ch.read(first, 0);
            int differentBits = 0;
            for (int i = 0; i < DATA.length; i++) {
                differentBits += Integer.bitCount((first.get(i) ^ DATA[i]) & 0xff);
            }
            assertEquals(1, differentBits);
            final ByteBuffer second = ByteBuffer.allocate(DATA.length);
            ch.read(second, 0);
            assertArrayEquals(DATA, second.array());
        }
        assertArrayEquals(DATA, Files.readAllBytes(file));
    }

    @Test
    void aFullDiskWritesWhatFitsThenRefusesEveryWriteUntilCleared() throws IOException {
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                .diskFullAfter(DATA.length + 4, path -> true);
        final Path file = dir.resolve("e.dat");
        try (FileChannel ch = create(io, file)) {
            ch.write(ByteBuffer.wrap(DATA));
            final IOException e = assertThrows(IOException.class, () -> ch.write(ByteBuffer.wrap(DATA)));
            assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
            assertEquals(DATA.length + 4, ch.size());
            assertThrows(IOException.class, () -> ch.write(ByteBuffer.wrap(DATA)));
            io.clear();
            ch.write(ByteBuffer.wrap(DATA));
            assertEquals(2L * DATA.length + 4, ch.size());
        }
    }

    @Test
    void renamesDeletesAndOpensCanFail() throws IOException {
        final Path file = dir.resolve("f.dat");
        Files.write(file, DATA);
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard())
                .inject(Operation.MOVE, 1, Fault.FAIL, false, path -> true);
        assertThrows(IOException.class, () -> io.move(file, dir.resolve("g.dat"), StandardCopyOption.ATOMIC_MOVE));
        assertTrue(Files.exists(file));
        io.inject(Operation.DELETE, 1, Fault.FAIL, false, path -> true);
        assertThrows(IOException.class, () -> io.deleteIfExists(file));
        assertTrue(Files.exists(file));
        io.inject(Operation.OPEN, 1, Fault.FAIL, false, path -> true);
        assertThrows(IOException.class, () -> io.open(file, StandardOpenOption.READ));
        io.countOnly(path -> true);
        assertTrue(io.deleteIfExists(file));
        assertFalse(Files.exists(file));
        assertEquals(1, io.calls(Operation.DELETE));
    }

    @Test
    void transfersGoThroughTheRules() throws IOException {
        final Path from = dir.resolve("h.dat");
        Files.write(from, DATA);
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard());
        try (FileChannel src = io.open(from, StandardOpenOption.READ);
             FileChannel dst = create(io, dir.resolve("i.dat"))) {
            io.inject(Operation.WRITE, 1, Fault.FAIL, false, path -> path.endsWith("i.dat"));
            assertThrows(IOException.class, () -> src.transferTo(0, DATA.length, dst));
            assertEquals(DATA.length, src.transferTo(0, DATA.length, dst));
            assertEquals(DATA.length, dst.size());
        }
    }

    @Test
    void rulesAreChecked() {
        final FaultInjectingFileIo io = new FaultInjectingFileIo(FileIo.standard());
        assertThrows(IllegalArgumentException.class, () -> io.inject(Operation.WRITE, 0, Fault.FAIL, false, p -> true));
        assertThrows(IllegalArgumentException.class,
                () -> io.inject(Operation.READ, 1, Fault.SHORT_WRITE, false, p -> true));
        assertThrows(IllegalArgumentException.class,
                () -> io.inject(Operation.WRITE, 1, Fault.FLIP_BIT, false, p -> true));
        assertThrows(IllegalArgumentException.class,
                () -> io.inject(Operation.WRITE, 1, Fault.SHORT_WRITE, true, p -> true));
        assertThrows(IllegalArgumentException.class, () -> io.diskFullAfter(-1, p -> true));
    }

    @Test
    void samplePointsTakeEveryCallWhenFewElseTheEndsAndOnePerStretch() {
        assertEquals(java.util.List.of(), FaultInjectingFileIo.samplePoints(0, 5, 1));
        assertEquals(java.util.List.of(1L, 2L, 3L, 4L, 5L), FaultInjectingFileIo.samplePoints(5, 5, 1));
        final java.util.List<Long> picked = FaultInjectingFileIo.samplePoints(1_000, 12, 7);
        assertEquals(12, picked.size());
        assertEquals(1L, picked.get(0));
        assertEquals(1_000L, picked.get(picked.size() - 1));
        for (int i = 1; i < picked.size(); i++) {
            assertTrue(picked.get(i) > picked.get(i - 1), "ascending: " + picked);
        }
        assertEquals(picked, FaultInjectingFileIo.samplePoints(1_000, 12, 7), "the seed decides the picks");
        assertThrows(IllegalArgumentException.class, () -> FaultInjectingFileIo.samplePoints(-1, 5, 1));
        assertThrows(IllegalArgumentException.class, () -> FaultInjectingFileIo.samplePoints(10, 2, 1));
    }
}
