package io.nearsort.jmh.labtree;

import io.nearsort.labtree.LabArray;
import io.nearsort.labtree.LabStats;
import io.nearsort.labtree.LeafFormat;
import io.nearsort.labtree.Linearization;
import io.nearsort.labtree.SplitStrategy;
import io.nearsort.labtree.daf.DirectlyAddressableFile;
import io.nearsort.labtree.storage.BufferPool;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.OpenMapRealMatrix;
import org.apache.commons.math3.linear.RealMatrix;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Block matrix multiply C = A x B over disk-resident matrices (LAB-tree §4.3's application benchmark): blocks of
 * b x b are read as hyper-rectangles, multiplied in memory with Commons Math (dense {@link Array2DRowRealMatrix}
 * when both blocks are more than half full, sparse {@link OpenMapRealMatrix} otherwise), accumulated, and the C block
 * is written back. A and B are sparse (density 1%) with a dense region (the top-left quarter, 90%), stored in a
 * LAB-tree (split-aligned, dynamic leaves), a B-tree (split-in-middle, sparse-only) and a directly addressable file.
 *
 * <pre>
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp jmh/target/benchmarks.jar \
 *     io.nearsort.jmh.labtree.BlockMatrixMultiply 1000 250 256
 * </pre>
 */
public final class BlockMatrixMultiply {
    private static final int PAGE_SIZE = 8192;

    /** Block reads and writes of one storage, and its I/O counters. */
    private abstract static class Storage implements AutoCloseable {
        private final io.nearsort.labtree.storage.PagedStructure structure;

        Storage(final io.nearsort.labtree.storage.PagedStructure structure) {
            this.structure = structure;
        }

        abstract void read(long r0, long c0, int b, double[] block);

        abstract void write(long r0, long c0, int b, double[] block);

        abstract void set(double value, long row, long col);

        abstract String describe();

        final BufferPool pool() {
            return structure.pool();
        }

        @Override
        public final void close() {
            structure.close();
        }
    }

    /** The DAF has no rectangle access: element by element. */
    private static final class DafStorage extends Storage {
        private final DirectlyAddressableFile daf;

        DafStorage(final DirectlyAddressableFile daf) {
            super(daf);
            this.daf = daf;
        }

        @Override
        void read(final long r0, final long c0, final int b, final double[] block) {
            for (int r = 0; r < b; r++) {
                for (int c = 0; c < b; c++) {
                    block[r * b + c] = daf.get(r0 + r, c0 + c);
                }
            }
        }

        @Override
        void write(final long r0, final long c0, final int b, final double[] block) {
            for (int r = 0; r < b; r++) {
                for (int c = 0; c < b; c++) {
                    daf.set(block[r * b + c], r0 + r, c0 + c);
                }
            }
        }

        @Override
        void set(final double value, final long row, final long col) {
            daf.set(value, row, col);
        }

        @Override
        String describe() {
            return "DAF, A: " + daf.allocatedPages() + " pages";
        }
    }

    /** A LAB-tree or B-tree array, read and written by hyper-rectangles (§3, access type 3). */
    private static final class ArrayStorage extends Storage {
        private final LabArray array;
        private final String name;

        ArrayStorage(final LabArray array, final String name) {
            super(array);
            this.array = array;
            this.name = name;
        }

        @Override
        void read(final long r0, final long c0, final int b, final double[] block) {
            array.readRectangle(new long[] {r0, c0}, new long[] {r0 + b - 1, c0 + b - 1}, block);
        }

        @Override
        void write(final long r0, final long c0, final int b, final double[] block) {
            array.writeRectangle(new long[] {r0, c0}, new long[] {r0 + b - 1, c0 + b - 1}, block);
        }

        @Override
        void set(final double value, final long row, final long col) {
            array.set(value, row, col);
        }

        @Override
        String describe() {
            final LabStats s = array.stats();
            return name + ", A: " + s.leafCount() + " leaves";
        }
    }

    private BlockMatrixMultiply() {
    }

    public static void main(final String[] args) throws IOException {
        final int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        final int b = args.length > 1 ? Integer.parseInt(args[1]) : 250;
        final int poolPages = args.length > 2 ? Integer.parseInt(args[2]) : 256;
        if (n % b != 0) {
            throw new IllegalArgumentException("block size must divide n (got n " + n + ", b " + b + ")");
        }
        final Path dir = Files.createTempDirectory("labtree-multiply");
        final PrintStream out = System.out;
        out.printf(Locale.ROOT, "C = A x B, %d x %d, blocks of %d x %d, %d-byte pages, buffer pool of %d pages; A and B "
                + "1%% dense with a 90%% dense top-left quarter%n%n", n, n, b, b, PAGE_SIZE, poolPages);
        out.println("| storage | load s | multiply s | page reads | page writes | C checksum |");
        out.println("|---|---:|---:|---:|---:|---:|");
        try {
            for (int kind = 0; kind < 3; kind++) {
                run(kind, n, b, poolPages, dir, out);
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (final Path file : (Iterable<Path>) files::iterator) {
                    Files.delete(file);
                }
            }
            Files.delete(dir);
        }
    }

    private static void run(final int kind, final int n, final int b, final int poolPages, final Path dir,
                            final PrintStream out) {
        final String[] names = {"a", "b", "c"};
        final Storage[] m = new Storage[3];
        for (int i = 0; i < 3; i++) {
            m[i] = open(kind, dir.resolve(kind + names[i]), n, poolPages);
        }
        try {
            long start = System.nanoTime();
            fill(m[0], n, 1);
            fill(m[1], n, 2);
            final double load = (System.nanoTime() - start) / 1e9;
            final long[] before = io(m);
            start = System.nanoTime();
            final double checksum = multiply(m[0], m[1], m[2], n, b);
            final double seconds = (System.nanoTime() - start) / 1e9;
            final long[] after = io(m);
            out.printf(Locale.ROOT, "| %s | %.2f | %.2f | %,d | %,d | %.6e |%n", m[0].describe(), load, seconds,
                    after[0] - before[0], after[1] - before[1], checksum);
        } finally {
            for (final Storage s : m) {
                s.close();
            }
        }
    }

    private static long[] io(final Storage[] m) {
        long reads = 0;
        long writes = 0;
        for (final Storage s : m) {
            reads += s.pool().pageReads();
            writes += s.pool().pageWrites();
        }
        return new long[] {reads, writes};
    }

    private static void fill(final Storage m, final int n, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        for (long r = 0; r < n; r++) {
            for (long c = 0; c < n; c++) {
                final boolean denseRegion = r < n / 2 && c < n / 2;
                if (random.nextDouble() < (denseRegion ? 0.9 : 0.01)) {
                    m.set(random.nextInt(1, 10), r, c);
                }
            }
        }
    }

    /** C = A x B block by block; returns the sum of C's elements. */
    private static double multiply(final Storage a, final Storage bm, final Storage c, final int n, final int b) {
        final int blocks = n / b;
        final double[] aBlock = new double[b * b];
        final double[] bBlock = new double[b * b];
        double checksum = 0;
        for (int i = 0; i < blocks; i++) {
            for (int j = 0; j < blocks; j++) {
                final double[][] sum = new double[b][b];
                for (int k = 0; k < blocks; k++) {
                    a.read((long) i * b, (long) k * b, b, aBlock);
                    bm.read((long) k * b, (long) j * b, b, bBlock);
                    final RealMatrix product = toMatrix(aBlock, b).multiply(toMatrix(bBlock, b));
                    for (int r = 0; r < b; r++) {
                        for (int col = 0; col < b; col++) {
                            sum[r][col] += product.getEntry(r, col);
                        }
                    }
                }
                final double[] cBlock = new double[b * b];
                for (int r = 0; r < b; r++) {
                    System.arraycopy(sum[r], 0, cBlock, r * b, b);
                    for (final double v : sum[r]) {
                        checksum += v;
                    }
                }
                c.write((long) i * b, (long) j * b, b, cBlock);
            }
        }
        return checksum;
    }

    /** Dense when more than half full, sparse otherwise (the rule the issue names for both operands). */
    private static RealMatrix toMatrix(final double[] block, final int b) {
        int nonZero = 0;
        for (final double v : block) {
            nonZero += v != 0 ? 1 : 0;
        }
        if (nonZero > block.length / 2) {
            final double[][] rows = new double[b][];
            for (int r = 0; r < b; r++) {
                rows[r] = java.util.Arrays.copyOfRange(block, r * b, r * b + b);
            }
            return new Array2DRowRealMatrix(rows, false);
        }
        final OpenMapRealMatrix sparse = new OpenMapRealMatrix(b, b);
        for (int i = 0; i < block.length; i++) {
            if (block[i] != 0) {
                sparse.setEntry(i / b, i % b, block[i]);
            }
        }
        return sparse;
    }

    private static Storage open(final int kind, final Path path, final int n, final int poolPages) {
        if (kind == 2) {
            return new DafStorage(DirectlyAddressableFile.open(path, Linearization.rowMajor(), PAGE_SIZE, poolPages, n,
                    n));
        }
        final boolean labTree = kind == 0;
        return new ArrayStorage(LabArray.builder(path).shape(n, n).pageSize(PAGE_SIZE).bufferPoolPages(poolPages)
                .splitStrategy(labTree ? SplitStrategy.ALIGNED : SplitStrategy.MIDDLE)
                .leafFormat(labTree ? LeafFormat.DYNAMIC : LeafFormat.SPARSE_ONLY).build(),
                labTree ? "LAB-tree (ALIGNED, DYNAMIC)" : "B-tree (MIDDLE, SPARSE_ONLY)");
    }
}
