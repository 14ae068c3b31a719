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
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

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
        assertEquals(List.of("create " + g.toAbsolutePath()), io.unsyncedDirectoryOperations());
        io.forceDirectory(tmp);
        assertEquals(List.of(), io.unsyncedDirectoryOperations());
        io.powerLoss();
        final byte[] expected = bytes(1000, 1);
        Arrays.fill(expected, 0, 600, (byte) 2);
        assertArrayEquals(expected, Files.readAllBytes(f));
        assertEquals(0, Files.size(g), "created, never forced: empty");
        assertThrows(IOException.class, () -> write(ch, bytes(1, 9), 0), "the power is off");
        ch.close();
        assertThrows(IOException.class, () -> io.open(f, StandardOpenOption.READ));
    }

    @Test
    void aRandomPowerLossKeepsWholeSectorsOfEitherImage() throws IOException {
        for (int seed = 0; seed < 200; seed++) {
            final Path f = tmp.resolve("r" + seed);
            final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
            final byte[] durable = bytes(3000, 5);
            final byte[] written = durable.clone();
            try (FileChannel ch = io.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                io.forceDirectory(tmp);
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
            io.forceDirectory(tmp);
            final long before = io.changes();
            io.cutPowerAt(3);
            write(ch, bytes(512, 1), 0);
            ch.force(true);
            assertFalse(io.isOff());
            final IOException e = assertThrows(IOException.class, () -> write(ch, bytes(512, 2), 512));
            assertTrue(e.getMessage().contains("power"), e.getMessage());
            assertTrue(io.isOff());
            assertThrows(IOException.class, () -> ch.force(true));
            assertEquals(before + 3, io.changes());
        }
        io.powerLoss(new Random(1));
        assertArrayEquals(bytes(512, 1), Files.readAllBytes(f), "the refused write did nothing");
    }

    private static void create(final FileIo io, final Path f, final byte[] forced, final byte[] unforced)
            throws IOException {
        try (FileChannel ch = io.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            write(ch, forced, 0);
            ch.force(true);
            write(ch, unforced, forced.length);
        }
    }

    @Test
    void aFileCreatedSinceItsDirectoryWasForcedDisappears() throws IOException {
        final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
        final Path kept = tmp.resolve("kept");
        create(io, kept, bytes(600, 1), bytes(10, 2));
        io.forceDirectory(tmp);
        final Path gone = tmp.resolve("gone");
        create(io, gone, bytes(600, 3), bytes(0, 0)); // its content forced, its entry not
        io.forceDirectory(Files.createDirectories(tmp.resolve("sub"))); // another directory's force does not make it durable
        final String report = io.powerLoss();
        assertArrayEquals(bytes(600, 1), Files.readAllBytes(kept));
        assertFalse(Files.exists(gone), report);
        assertTrue(report.contains(gone.toAbsolutePath() + ": undone: create"), report);
    }

    @Test
    void aFileDeletedSinceItsDirectoryWasForcedReappearsWithItsDurableImage() throws IOException {
        final Path old = tmp.resolve("old");
        Files.write(old, bytes(700, 4)); // existed before: durable, entry and content, though never opened here
        final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
        final Path forced = tmp.resolve("forced");
        create(io, forced, bytes(1000, 5), bytes(300, 6));
        final Path neverForced = tmp.resolve("never-forced");
        try (FileChannel ch = io.open(neverForced, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            write(ch, bytes(900, 7), 0);
        }
        final Path durablyDeleted = tmp.resolve("durably-deleted");
        create(io, durablyDeleted, bytes(10, 8), bytes(0, 0));
        io.forceDirectory(tmp);
        io.deleteIfExists(durablyDeleted);
        io.forceDirectory(tmp);
        assertTrue(io.deleteIfExists(old));
        assertTrue(io.deleteIfExists(forced));
        assertTrue(io.deleteIfExists(neverForced));
        assertEquals(List.of("delete " + old.toAbsolutePath(), "delete " + forced.toAbsolutePath(), "delete "
                + neverForced.toAbsolutePath()), io.unsyncedDirectoryOperations());
        final String report = io.powerLoss();
        assertArrayEquals(bytes(700, 4), Files.readAllBytes(old), report);
        assertArrayEquals(bytes(1000, 5), Files.readAllBytes(forced), report);
        assertArrayEquals(new byte[0], Files.readAllBytes(neverForced), "its entry durable, no content: " + report);
        assertFalse(Files.exists(durablyDeleted), report);
    }

    @Test
    void aRenameSinceItsDirectoryWasForcedIsUndone() throws IOException {
        final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
        final Path tmpFile = tmp.resolve("m.tmp");
        final Path target = tmp.resolve("m");
        final Path other = tmp.resolve("o");
        create(io, target, bytes(512, 1), bytes(100, 2));
        create(io, tmpFile, bytes(800, 3), bytes(0, 0));
        create(io, other, bytes(20, 4), bytes(0, 0));
        io.forceDirectory(tmp);
        io.move(tmpFile, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        io.move(other, tmp.resolve("o2"), StandardCopyOption.ATOMIC_MOVE);
        assertThrows(UnsupportedOperationException.class, () -> io.move(target, tmp.resolve("sub").resolve("m"),
                StandardCopyOption.ATOMIC_MOVE));
        final String report = io.powerLoss();
        assertArrayEquals(bytes(512, 1), Files.readAllBytes(target), "the replaced file is back: " + report);
        assertArrayEquals(bytes(800, 3), Files.readAllBytes(tmpFile), "the renamed one too: " + report);
        assertArrayEquals(bytes(20, 4), Files.readAllBytes(other), report);
        assertFalse(Files.exists(tmp.resolve("o2")), report);
    }

    @Test
    void aPowerCutAtTheDirectoryForceLosesTheRename() throws IOException {
        final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
        final Path aside = tmp.resolve("f.new");
        create(io, aside, bytes(512, 9), bytes(0, 0));
        io.forceDirectory(tmp);
        io.cutPowerAt(2); // the rename, then the directory force
        io.move(aside, tmp.resolve("f"), StandardCopyOption.ATOMIC_MOVE);
        assertThrows(IOException.class, () -> io.forceDirectory(tmp));
        io.powerLoss(new Random(3));
        assertFalse(Files.exists(tmp.resolve("f")));
        assertArrayEquals(bytes(512, 9), Files.readAllBytes(aside));
    }

    @Test
    void thePowerGoesOffRightAfterTheChosenDirectoryOperation() throws IOException {
        final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
        final Path a = tmp.resolve("a");
        create(io, a, bytes(512, 1), bytes(0, 0));
        io.forceDirectory(tmp);
        io.cutPowerAfterDirectoryOperation(2);
        final Path b = tmp.resolve("b");
        try (FileChannel ch = io.open(b, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            write(ch, bytes(512, 2), 0);
            assertTrue(io.deleteIfExists(a), "the second operation is made");
            assertThrows(IOException.class, () -> ch.force(true), "the next change finds the power off");
            assertTrue(io.isOff());
        }
        assertEquals(List.of("create " + a.toAbsolutePath(), "create " + b.toAbsolutePath(), "delete "
                + a.toAbsolutePath()), io.directoryOperations());
        io.powerLoss();
        assertArrayEquals(bytes(512, 1), Files.readAllBytes(a));
        assertFalse(Files.exists(b));
    }

    /** With a random source a directory keeps the oldest of its unforced operations, never a later one alone. */
    @Test
    void aRandomPowerLossKeepsAPrefixOfEachDirectorysOperations() throws IOException {
        final Set<Integer> seen = new TreeSet<>();
        final Random seeds = new Random(22);
        for (int trial = 0; trial < 100; trial++) {
            final long seed = seeds.nextLong();
            final Path dir = Files.createDirectories(tmp.resolve("d" + trial));
            final PowerLossFileIo io = new PowerLossFileIo(FileIo.standard());
            create(io, dir.resolve("a"), bytes(512, 1), bytes(0, 0));
            create(io, dir.resolve("b"), bytes(512, 2), bytes(0, 0));
            io.forceDirectory(dir);
            create(io, dir.resolve("c"), bytes(512, 3), bytes(0, 0));
            io.deleteIfExists(dir.resolve("a"));
            io.move(dir.resolve("b"), dir.resolve("b2"), StandardCopyOption.ATOMIC_MOVE);
            final String report = io.powerLoss(new Random(seed));
            final List<Boolean> state = List.of(Files.exists(dir.resolve("c")), !Files.exists(dir.resolve("a")),
                    Files.exists(dir.resolve("b2")));
            final int kept = state.indexOf(false) < 0 ? 3 : state.indexOf(false);
            assertEquals(List.of(kept > 0, kept > 1, kept > 2), state, "seed " + seed + ": " + report);
            assertEquals(kept < 3, Files.exists(dir.resolve("b")), report);
            seen.add(kept);
        }
        assertEquals(Set.of(0, 1, 2, 3), seen);
    }
}
