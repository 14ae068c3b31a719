package io.nearsort.core.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PowerLossFileIoTest {
    @TempDir
    Path tmp;

    private static byte[] bytes(final int n, final int fill) {
        final byte[] b = new byte[n];
        Arrays.fill(b, (byte) fill);
        return b;
    }

    private static void write(final FileChannel ch, final byte[] b, final long at) throws IOException {
        final ByteBuffer buf = ByteBuffer.wrap(b);
        while (buf.hasRemaining()) {
            ch.write(buf, at + buf.position());
        }
    }

    @Test
    void unforcedWritesAreDroppedAndForcedOnesKept() throws IOException {
        final Path f = tmp.resolve("a");
        Files.write(f, bytes(1000, 1)); // existed before: durable as it is
        final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
        final FileChannel ch = io.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE);
        write(ch, bytes(600, 2), 0);
        ch.force(false);
        write(ch, bytes(2000, 3), 100); // not forced, grows the file
        final Path g = tmp.resolve("b");
        try (FileChannel created = io.open(g, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            write(created, bytes(10, 4), 0);
        }
        io.powerLoss();
        final byte[] expected = bytes(1000, 1);
        Arrays.fill(expected, 0, 600, (byte) 2);
        assertArrayEquals(expected, Files.readAllBytes(f));
        assertEquals(0, Files.size(g), "created, never forced: empty");
        assertThrows(IOException.class, () -> write(ch, bytes(1, 9), 0), "the power is off");
        ch.close();
        assertThrows(IOException.class, () -> io.open(f, StandardOpenOption.READ));
        assertTrue(io.unsyncedDirectoryOperations().contains("create " + g.toAbsolutePath()),
                io.unsyncedDirectoryOperations().toString());
    }

    @Test
    void aRandomPowerLossKeepsWholeSectorsOfEitherImage() throws IOException {
        for (int seed = 0; seed < 200; seed++) {
            final Path f = tmp.resolve("r" + seed);
            final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
            final byte[] durable = bytes(3000, 5);
            final byte[] written = durable.clone();
            try (FileChannel ch = io.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                write(ch, durable, 0);
                ch.force(true);
                final byte[] later = bytes(1700, 6);
                write(ch, later, 900);
                System.arraycopy(later, 0, written, 900, later.length);
            }
            io.powerLoss(new Random(seed));
            final byte[] got = Files.readAllBytes(f);
            assertTrue(got.length == 3000, "same length: " + got.length);
            for (int s = 0; s < 3000; s += PowerLossFileIo.SECTOR) {
                final int end = Math.min(3000, s + PowerLossFileIo.SECTOR);
                final byte[] sector = Arrays.copyOfRange(got, s, end);
                assertTrue(Arrays.equals(sector, Arrays.copyOfRange(durable, s, end))
                        || Arrays.equals(sector, Arrays.copyOfRange(written, s, end)), "seed " + seed + " sector "
                        + s / PowerLossFileIo.SECTOR);
            }
        }
    }

    @Test
    void aForcedDirectoryClearsItsOperationsAndRenamesCarryTheDurableImage() throws IOException {
        final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
        final Path tmpFile = tmp.resolve("x.tmp");
        try (FileChannel ch = io.open(tmpFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            write(ch, bytes(700, 7), 0);
            ch.force(true);
            write(ch, bytes(700, 8), 700);
        }
        io.move(tmpFile, tmp.resolve("x"), StandardCopyOption.ATOMIC_MOVE);
        assertEquals(2, io.unsyncedDirectoryOperations().size(), io.unsyncedDirectoryOperations().toString());
        try (FileChannel d = io.open(tmp, StandardOpenOption.READ)) {
            d.force(true);
        }
        assertEquals(0, io.unsyncedDirectoryOperations().size(), io.unsyncedDirectoryOperations().toString());
        io.powerLoss();
        assertArrayEquals(bytes(700, 7), Files.readAllBytes(tmp.resolve("x")));
    }

    @Test
    void thePowerGoesOffAtTheChosenChange() throws IOException {
        final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
        final Path f = tmp.resolve("c");
        try (FileChannel ch = io.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            io.cutPowerAt(3);
            write(ch, bytes(512, 1), 0);
            ch.force(true);
            assertFalse(io.isOff());
            final IOException e = assertThrows(IOException.class, () -> write(ch, bytes(512, 2), 512));
            assertTrue(e.getMessage().contains("power"), e.getMessage());
            assertTrue(io.isOff());
            assertThrows(IOException.class, () -> ch.force(true));
            assertEquals(3, io.changes());
        }
        io.powerLoss(new Random(1));
        assertArrayEquals(bytes(512, 1), Files.readAllBytes(f), "the refused write did nothing");
    }
}
