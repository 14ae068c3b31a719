package io.nearsort.labtree;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** What a test needs to see leaks and to damage files: open descriptors, direct memory, flipped bits. */
public final class ResourceProbe {
    private ResourceProbe() {
    }

    /** Descriptors this process holds open on {@code files}, given as real paths (Linux: /proc/self/fd). */
    public static long openDescriptors(final Path... files) throws IOException {
        long n = 0;
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (final Path fd : (Iterable<Path>) fds::iterator) {
                final Path target;
                try {
                    target = Files.readSymbolicLink(fd);
                } catch (final IOException gone) {
                    continue; // the listing's own descriptor, closed by now
                }
                for (final Path f : files) {
                    n += target.equals(f) ? 1 : 0;
                }
            }
        }
        return n;
    }

    /** Bytes of direct buffers in use in this JVM. */
    public static long directBytes() {
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        throw new AssertionError("no direct buffer pool bean");
    }

    /** Flips one bit of the byte at {@code position} of {@code file}. */
    public static void flipByte(final Path file, final long position) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            final ByteBuffer b = ByteBuffer.allocate(1);
            channel.read(b, position);
            b.put(0, (byte) (b.get(0) ^ 0x10)).clear();
            channel.write(b, position);
        }
    }
}
