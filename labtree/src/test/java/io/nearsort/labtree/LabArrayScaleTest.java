package io.nearsort.labtree;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 22's scale run for the LAB-tree: {@value #PROPERTY} (default 10^8) seeded random operations on a
 * {@value #ROWS} x {@value #COLS} {@link LabArray} (blocked 64 x 64 tiles, partial at two edges; dynamic leaves),
 * checked against a plain {@code double[]} of every element: element writes and reads by coordinates and by linear
 * key (uniform, sequential stretches, a moving hot region, the corners), values with the edge doubles (NaN, -0.0,
 * infinities, the extremes, the default value, which deletes), rectangle reads and writes. The run is ten sessions
 * of a tenth of the operations (10^7 by default), each with a flush every tenth of it; after each session the whole
 * content is compared (an iteration in storage order, one in row-major order), the array is closed and reopened
 * with the next update buffer configuration (write-through and the six flush policies), buffer pool size and I/O
 * mode, and compared again (after the first and the last reopen, element by element, defaults included). Left out
 * of the default build ({@code slow} tag); run with
 *
 * <pre>
 * ./mvnw -B -ntp -pl labtree -am test -Dnearsort.excludedGroups=none -Dgroups=slow -Dtest=LabArrayScaleTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false [-Dnearsort.scale.operations=100000000]
 * </pre>
 *
 * (the file grows to about 140 MB in the temporary directory; the largest buffer pool is 512 MiB of direct memory,
 * within the default test heap's limit; about 7 minutes on a 2-core VM).
 */
@Tag("slow")
class LabArrayScaleTest {
    static final String PROPERTY = "nearsort.scale.operations";
    static final int ROWS = 4_000;
    static final int COLS = 4_200;
    static final int TILE = 64;
    static final int N = ROWS * COLS;
    static final int SESSIONS_PER_RUN = 10;
    static final long SEED = 22;
    /** Values every run mixes in (the default value 0.0 among them: writing it deletes the element). */
    static final double[] EDGE_VALUES = {Double.NaN, Double.longBitsToDouble(0x7ff0_0000_0000_0001L), -0.0, 0.0,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE,
        -Double.MAX_VALUE};
    /** Elements every run mixes in: the corners and the first and last elements of a partial tile. */
    static final int[][] EDGE_ELEMENTS = {{0, 0}, {0, COLS - 1}, {ROWS - 1, 0}, {ROWS - 1, COLS - 1},
        {ROWS - ROWS % TILE, COLS - COLS % TILE}, {TILE - 1, TILE - 1}, {TILE, TILE}};

    /**
     * An update buffer (capacity 0: write-through) with its page-information cache (-1: the default), a buffer pool
     * and an I/O mode for one session.
     */
    private record Session(int bufferCapacity, FlushPolicy policy, int pageInfoCache, int poolPages,
                           boolean directIo) {
        LabArray open(final Path file) {
            final LabArray.Builder b = LabArray.builder(file).shape(ROWS, COLS)
                    .linearization(Linearization.blocked(TILE, TILE)).leafFormat(LeafFormat.DYNAMIC)
                    .splitStrategy(SplitStrategy.ALIGNED).bufferPoolPages(poolPages).directIo(directIo)
                    .updateBuffer(bufferCapacity, policy);
            return (pageInfoCache >= 0 ? b.pageInfoCache(pageInfoCache) : b).build();
        }
    }

    private static final Session[] SESSIONS = {
        new Session(0, FlushPolicy.ALL, -1, 16_384, false),
        new Session(10_000, FlushPolicy.ALL, -1, 16_384, false),
        // LRU, SP and LP pass over the whole buffer at every flush, finding each request's page in the page cache
        // or by a partial lookup, and flush one page: with K = 20,000 and the default cache (4% of K) a session of
        // 10^7 operations took about 6 minutes. K = 2,000 with half of it for the cache keeps LRU and SP near the
        // others. LP never flushes the single requests of the uniform writes while a larger page is buffered, so
        // they fill its buffer and each flush frees a request or two after a pass over all of them: 65 s per 10^6
        // operations with K = 2,000; it gets K = 256.
        new Session(2_000, FlushPolicy.LRU, 1_000, 8_192, false),
        new Session(2_000, FlushPolicy.SP, 1_000, 8_192, false),
        new Session(256, FlushPolicy.LP, 128, 16_384, false),
        new Session(20_000, FlushPolicy.LPP, -1, 16_384, false),
        new Session(20_000, FlushPolicy.LG, -1, 8_192, false),
        // Direct I/O only with a pool that holds the whole file: otherwise every miss is a device read.
        new Session(0, FlushPolicy.ALL, -1, 65_536, true),
        new Session(100_000, FlushPolicy.ALL, -1, 4_096, false),
        new Session(5_000, FlushPolicy.LPP, -1, 8_192, false),
    };

    @TempDir
    Path dir;

    /** The model: element (r, c) at its storage key, computed here, not by the array's layout. */
    private final double[] model = new double[N];
    private long stored;
    private final SplittableRandom random = new SplittableRandom(SEED);
    private int previousKey;
    private int hotRegion;

    /** Blocked order with 64 x 64 tiles, row-major tiles, row-major inside; the last tile row and column partial. */
    static int key(final int r, final int c) {
        final int tileRow = r / TILE;
        final int tileCol = c / TILE;
        final int height = Math.min(TILE, ROWS - tileRow * TILE);
        final int width = Math.min(TILE, COLS - tileCol * TILE);
        return tileRow * TILE * COLS + tileCol * TILE * height + (r % TILE) * width + c % TILE;
    }

    @Test
    void agreesWithAnInMemoryArrayAtScale() {
        final long operations = Long.parseLong(System.getProperty(PROPERTY, "100000000"));
        final long sessionLength = Math.max(1, (operations + SESSIONS_PER_RUN - 1) / SESSIONS_PER_RUN);
        final long flushEvery = Math.max(1, sessionLength / 10);
        final Path file = dir.resolve("scale.lab");
        final long start = System.nanoTime();
        long op = 0;
        int session = 0;
        while (op < operations) {
            final Session s = SESSIONS[session % SESSIONS.length];
            try (LabArray a = s.open(file)) {
                if (session > 0) {
                    assertSameContent(a, "after reopening for session " + session + " " + s, session == 1);
                }
                final long end = Math.min(operations, op + sessionLength);
                for (; op < end; op++) {
                    step(a, op);
                    if (op % flushEvery == flushEvery - 1) {
                        a.flush();
                    }
                }
                assertSameContent(a, "at op " + op + " (session " + session + " " + s + ")", false);
                System.out.printf("scale: LAB-tree: %,d operations, %,d elements stored, session %d %s, %.0f s%n",
                        op, stored, session, s, (System.nanoTime() - start) / 1e9);
            }
            session++;
        }
        try (LabArray a = SESSIONS[session % SESSIONS.length].open(file)) {
            assertSameContent(a, "after the last reopen", true);
            System.out.printf("scale: LAB-tree: %,d operations agree with an in-memory array (%,d elements stored,"
                            + " %d sessions, file %,d bytes, %s) in %.0f s%n", operations, stored, session,
                    size(file), a.stats(), (System.nanoTime() - start) / 1e9);
        }
    }

    private static long size(final Path file) {
        try {
            return Files.size(file);
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void step(final LabArray a, final long op) {
        final int dice = random.nextInt(100);
        if (dice < 48) {
            final int k = nextKey();
            final double value = nextValue();
            if (random.nextBoolean()) {
                a.setLinear(value, k);
            } else {
                a.set(value, row(k), col(k));
            }
            write(k, value);
        } else if (dice < 95) {
            final int k = nextKey();
            final double got = random.nextBoolean() ? a.getLinear(k) : a.get(row(k), col(k));
            if (Double.compare(model[k], got) != 0) {
                fail("element (" + row(k) + ", " + col(k) + ") key " + k + " read " + got + ", expected "
                        + model[k] + " at op " + op);
            }
        } else if (dice < 98) {
            readRectangle(a, op);
        } else {
            writeRectangle(a);
        }
    }

    /** The inverse of {@link #key}, tabulated once (only to pick an element by its key). */
    private final short[] rowOf = new short[N];
    private final short[] colOf = new short[N];

    {
        for (int r = 0; r < ROWS; r++) {
            for (int c = 0; c < COLS; c++) {
                final int k = key(r, c);
                rowOf[k] = (short) r;
                colOf[k] = (short) c;
            }
        }
    }

    private int row(final int k) {
        return rowOf[k];
    }

    private int col(final int k) {
        return colOf[k];
    }

    /** A storage key: uniform, the next of a sequential stretch, near a moving hot region, or an edge element. */
    private int nextKey() {
        final int dice = random.nextInt(100);
        final int k;
        if (dice < 3) {
            final int[] e = EDGE_ELEMENTS[random.nextInt(EDGE_ELEMENTS.length)];
            k = key(e[0], e[1]);
        } else if (dice < 30) {
            k = random.nextInt(N);
        } else if (dice < 65) {
            k = previousKey + 1 < N ? previousKey + 1 : 0;
        } else {
            hotRegion = hotRegion + 1 < N ? hotRegion + 1 : 0;
            k = Math.min(N - 1, hotRegion + random.nextInt(8_192));
        }
        previousKey = k;
        return k;
    }

    private double nextValue() {
        final int dice = random.nextInt(100);
        if (dice < 15) {
            return 0.0;
        }
        if (dice < 20) {
            return EDGE_VALUES[random.nextInt(EDGE_VALUES.length)];
        }
        if (dice < 30) {
            return Double.longBitsToDouble(random.nextLong());
        }
        return random.nextInt(2_000_000) / 8.0 - 125_000;
    }

    private void write(final int k, final double value) {
        final boolean was = Double.compare(model[k], 0.0) != 0;
        final boolean is = Double.compare(value, 0.0) != 0;
        stored += (is ? 1 : 0) - (was ? 1 : 0);
        model[k] = value;
    }

    /** A rectangle of up to {@code maxSide} x {@code maxSide} cells anywhere (edges included). */
    private int[] rectangle(final int maxSide) {
        final int r0 = random.nextInt(ROWS);
        final int c0 = random.nextInt(COLS);
        return new int[] {r0, c0, Math.min(ROWS - 1, r0 + random.nextInt(maxSide)),
            Math.min(COLS - 1, c0 + random.nextInt(maxSide))};
    }

    private void readRectangle(final LabArray a, final long op) {
        // Up to 32 x 32 cells; one read in 5,000 up to 512 x 512.
        final int[] q = rectangle(random.nextInt(5_000) == 0 ? 512 : 32);
        final double[] out = new double[(q[2] - q[0] + 1) * (q[3] - q[1] + 1)];
        a.readRectangle(new long[] {q[0], q[1]}, new long[] {q[2], q[3]}, out);
        int i = 0;
        for (int r = q[0]; r <= q[2]; r++) {
            for (int c = q[1]; c <= q[3]; c++) {
                final double expected = model[key(r, c)];
                if (Double.compare(expected, out[i]) != 0) {
                    fail("readRectangle [" + q[0] + ", " + q[1] + "]..[" + q[2] + ", " + q[3] + "]: (" + r + ", " + c
                            + ") read " + out[i] + ", expected " + expected + " at op " + op);
                }
                i++;
            }
        }
    }

    private void writeRectangle(final LabArray a) {
        final int[] q = rectangle(8);
        final double[] values = new double[(q[2] - q[0] + 1) * (q[3] - q[1] + 1)];
        for (int i = 0; i < values.length; i++) {
            values[i] = nextValue();
        }
        a.writeRectangle(new long[] {q[0], q[1]}, new long[] {q[2], q[3]}, values);
        int i = 0;
        for (int r = q[0]; r <= q[2]; r++) {
            for (int c = q[1]; c <= q[3]; c++) {
                write(key(r, c), values[i++]);
            }
        }
    }

    /**
     * The array holds exactly the model: the stored elements in storage order (keys ascending, each with the
     * coordinates of its key and the model's value, as many as the model stores), in row-major order (the sorting
     * path), and with {@code everyElement}, all N elements in row-major order, defaults included.
     */
    private void assertSameContent(final LabArray a, final String when, final boolean everyElement) {
        assertEquals(stored, a.stats().size(), () -> "stored elements " + when);
        final long[] visited = {0};
        final long[] last = {-1};
        a.forEach(Linearization.blocked(TILE, TILE), true, (position, c, value) -> {
            final int k = key((int) c[0], (int) c[1]);
            if (position != k || position <= last[0] || Double.compare(model[k], value) != 0
                    || Double.compare(value, 0.0) == 0) {
                fail("storage-order visit #" + visited[0] + ": position " + position + " (" + c[0] + ", " + c[1]
                        + ") = " + value + " after position " + last[0] + "; expected key " + k + " = " + model[k]
                        + " " + when);
            }
            last[0] = position;
            visited[0]++;
        });
        assertEquals(stored, visited[0], () -> "elements visited in storage order " + when);
        visited[0] = 0;
        last[0] = -1;
        a.forEach(Linearization.rowMajor(), !everyElement, (position, c, value) -> {
            final int k = key((int) c[0], (int) c[1]);
            if (position != c[0] * COLS + c[1] || position <= last[0] || Double.compare(model[k], value) != 0) {
                fail("row-major visit #" + visited[0] + ": position " + position + " (" + c[0] + ", " + c[1] + ") = "
                        + value + " after position " + last[0] + "; expected " + model[k] + " " + when);
            }
            last[0] = position;
            visited[0]++;
        });
        assertEquals(everyElement ? N : stored, visited[0], () -> "elements visited in row-major order " + when);
    }
}
