package io.nearsort.jmh.ldi;

import io.nearsort.ldi.baselines.BaselineStore;
import io.nearsort.ldi.io.IoStats;
import io.nearsort.ldi.io.ThetaCalibration;
import io.nearsort.ldi.io.WriteMax;
import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnType;
import io.nearsort.ldi.projection.ColumnarStore;
import io.nearsort.ldi.projection.KeyCodec;
import io.nearsort.ldi.projection.MaintenanceReport;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.QueryResult;
import io.nearsort.ldi.projection.RowCursor;
import io.nearsort.ldi.projection.TableLayout;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * The LDI paper's evaluation (§5) as a harness — single timed runs of whole loads and query sets, which JMH's
 * repeated invocations do not fit. Prints Markdown tables.
 * <ul>
 *   <li>{@code load}: Figures 7–8. Loading time of LDI, Col_LSM-like (leveled and tiered) and Sorted_Col (whose
 *       time includes its clustering), next to Write_MAX, the device's sequential write time for LDI's bytes
 *       measured in the same run; then LDI maintenance (§3.3) with ARB before and after.</li>
 *   <li>{@code query}: Figure 9. The range queries of Table 6 (selectivity 0.3%–15%) on the first two projections,
 *       for LDI, LDI_Par (4 readers), Sorted_Col and both LSM-like stores. Every store's answer sizes are
 *       cross-checked.</li>
 *   <li>{@code threads}: the I/O handler's reader threads (Eq. 9) swept from 1 to 8, with one and with four
 *       concurrent clients.</li>
 *   <li>{@code append}: the column store's ways in, side by side: every row through {@code append(Object...)}
 *       (boxed rows, as the row API takes them) and through {@code append(ColumnBatch)} (column arrays of 4,096
 *       rows), each load into a new store ending with a flush; with {@code --before} also the row API of an
 *       earlier build ({@link EarlierColumnStore}); rounds rotate the order, medians count.</li>
 *   <li>{@code stream}: a query over every row of the first projection, materialised ({@code query}) and streamed
 *       ({@code scan}), with the heap each one peaked at.</li>
 *   <li>{@code reclaim}: space reclamation on a loaded store of 8 MiB segments after maintenance retired its
 *       non-compacted buckets: bytes before and after, time, and the slowest of the queries another thread runs
 *       meanwhile, against the slowest without reclamation.</li>
 * </ul>
 * {@code --cold} drops the OS page cache before every query (needs root); otherwise reads are served warm.
 *
 * <pre>
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp jmh/target/benchmarks.jar \
 *     io.nearsort.jmh.ldi.LdiExperiments load nyc:1000000
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -Xmx4g -cp jmh/target/benchmarks.jar \
 *     io.nearsort.jmh.ldi.LdiExperiments append nyc:1000000 --rounds 5 \
 *     --before BASE/core/target/nearsort-core-0.1.0-SNAPSHOT.jar:BASE/ldi/target/nearsort-ldi-0.1.0-SNAPSHOT.jar:AGRONA_JAR
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -Xmx3g -cp jmh/target/benchmarks.jar \
 *     io.nearsort.jmh.ldi.LdiExperiments stream nyc:2000000
 * </pre>
 */
public final class LdiExperiments {
    /** Table 6: selectivities of Q1–Q10. */
    static final double[] SELECTIVITY = {0.003, 0.006, 0.015, 0.026, 0.050, 0.067, 0.083, 0.100, 0.130, 0.150};
    private static final int POSITIONS = 5;
    /** Rows of a column batch in the {@code append} and {@code stream} modes. */
    private static final int BATCH_ROWS = 4096;

    private final BenchTable table;
    private final Path root;
    private final boolean cold;
    private final PrintStream out = System.out;

    private LdiExperiments(final BenchTable table, final Path root, final boolean cold) {
        this.table = table;
        this.root = root;
        this.cold = cold;
    }

    public static void main(final String[] args) throws Exception {
        if (args.length < 2 || !List.of("load", "query", "threads", "append", "stream", "reclaim").contains(args[0])
                || !(args[1].startsWith("nyc:") || args[1].startsWith("lineitem:"))) {
            System.err.println("usage: LdiExperiments load|query|threads|append|stream|reclaim nyc:ROWS|lineitem:SF"
                    + " [--cold] [--rounds R] [--before CORE_JAR:LDI_JAR:AGRONA_JAR]");
            System.exit(2);
        }
        final int at = List.of(args).indexOf("--rounds");
        final int rounds = at > 0 ? Integer.parseInt(args[at + 1]) : 5;
        final int b = List.of(args).indexOf("--before");
        final List<Path> before = new ArrayList<>();
        if (b > 0) {
            for (String jar : args[b + 1].split(java.io.File.pathSeparator)) {
                before.add(Path.of(jar));
            }
        }
        final boolean cold = List.of(args).contains("--cold");
        final String[] spec = args[1].split(":", 2);
        final long start = System.nanoTime();
        final BenchTable table = spec[0].equals("nyc") ? new NycLikeTable(Integer.parseInt(spec[1]), 42)
                : new LineitemTable(Double.parseDouble(spec[1]));
        final Path root = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "ldi-experiments");
        final LdiExperiments x = new LdiExperiments(table, root, cold);
        x.out.printf(Locale.ROOT, "%s: %,d rows, %d columns, projections %s; generated in %.1f s; %s reads%n%n",
                table.name(), table.rows(), table.schema().size(), x.shapes(), seconds(start),
                cold ? "cold (page cache dropped before each query)" : "warm");
        try {
            switch (args[0]) {
                case "load" -> x.load();
                case "query" -> x.query();
                case "append" -> x.append(rounds, before);
                case "stream" -> x.stream();
                case "reclaim" -> x.reclaim();
                default -> x.threads();
            }
        } finally {
            deleteTree(root);
        }
    }

    private String shapes() {
        final List<String> s = new ArrayList<>();
        for (Projection p : table.projections()) {
            s.add(p.name() + " (" + p.columns().size() + " on " + p.key() + ")");
        }
        return String.join(", ", s);
    }

    /** Appends every row and flushes; returns seconds. */
    private double loadInto(final ColumnarStore store) throws IOException {
        final long start = System.nanoTime();
        for (int i = 0; i < table.rows(); i++) {
            store.append(table.row(i));
        }
        store.flush();
        return seconds(start);
    }

    private void load() throws IOException {
        out.println("| store | load s | k rows/s | MB on disk | MB written | x Write_MAX | x LDI |");
        out.println("|---|---:|---:|---:|---:|---:|---:|");
        final Map<StoreKind, double[]> results = new EnumMap<>(StoreKind.class);
        long ldiBytes = 0;
        for (StoreKind kind : StoreKind.selected()) {
            final Path dir = root.resolve(kind.name());
            final double[] r = new double[3];
            try (ColumnarStore store = kind.open(dir, table)) {
                r[0] = loadInto(store);
                r[1] = directoryBytes(dir);
                r[2] = bytesWritten(store, r[1]);
            }
            if (kind == StoreKind.LDI) {
                ldiBytes = (long) r[1];
            }
            results.put(kind, r);
        }
        final double writeMax = writeMax(ldiBytes);
        final double ldi = results.get(StoreKind.LDI)[0];
        if (results.size() == 1) {
            out.printf(Locale.ROOT, "LDI: %.2f s, Write_MAX %.2f s%n", ldi, writeMax);
            return;
        }
        results.forEach((kind, r) -> out.printf(Locale.ROOT, "| %s | %.2f | %.0f | %.1f | %.1f | %.2f | %.2f |%n",
                kind.label, r[0], table.rows() / r[0] / 1e3, r[1] / 1e6, r[2] / 1e6, r[0] / writeMax, r[0] / ldi));
        out.printf(Locale.ROOT, "| Write_MAX (LDI's bytes, sequential, forced) | %.2f | | | %.1f | 1.00 | %.2f |%n",
                writeMax, ldiBytes / 1e6, writeMax / ldi);
        final double rowsOnly = rowsOnly();
        out.printf(Locale.ROOT, "| (making the rows alone, included above) | %.2f | %.0f | | | | %.2f |%n%n",
                rowsOnly, table.rows() / rowsOnly / 1e3, rowsOnly / ldi);

        out.println("LDI maintenance (§3.3) on the loaded store, per projection:");
        out.println();
        out.println("| projection | buckets | non-compacted | merged | written | ARB before | ARB after | s |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        try (ColumnStore ldiStore = ColumnStore.open(root.resolve(StoreKind.LDI.name()), table.schema(),
                table.projections(), StoreKind.ldiOptions(1, 2.0))) {
            for (Projection p : table.projections()) {
                final var before = ldiStore.stats(p.name());
                final long start = System.nanoTime();
                final MaintenanceReport m = ldiStore.maintain(p.name());
                out.printf(Locale.ROOT, "| %s | %d | %d | %d | %d | %.4f | %.4f | %.2f |%n", p.name(),
                        before.buckets(), before.nonCompacted(), m.bucketsMerged(), m.bucketsWritten(), m.arbBefore(),
                        m.arbAfter(), seconds(start));
            }
        }
        out.println();
    }

    /** Loads every row through the batch API (column arrays of 4,096 rows) and flushes; returns seconds. */
    private double loadBatches(final ColumnStore store) throws IOException {
        return loadBatches(store, Integer.MAX_VALUE);
    }

    /** {@link #loadBatches(ColumnStore)} with a commit after every {@code commitEvery} rows or so. */
    private double loadBatches(final ColumnStore store, final int commitEvery) throws IOException {
        final ColumnBatch batch = ColumnBatch.allocate(table.schema(), BATCH_ROWS);
        final long start = System.nanoTime();
        int from = 0;
        int sinceCommit = 0;
        while (from < table.rows()) {
            final int n = table.fill(batch, from);
            from += n;
            store.append(batch);
            sinceCommit += n;
            if (sinceCommit >= commitEvery) {
                store.flush();
                sinceCommit = 0;
            }
        }
        store.flush();
        return seconds(start);
    }

    /**
     * The row API and the batch API side by side: {@code rounds} rounds, each loading the table into a new store each
     * way, in an order that rotates, medians count. The rows are made as each API takes them, from the same columns
     * in memory: boxed rows for {@code append(Object...)}, filled column arrays for {@code append(ColumnBatch)}; what
     * making them alone costs is measured too. With {@code before} (the core, ldi and Agrona jars of an earlier
     * build), the earlier build's row API is loaded in the same rounds ({@link EarlierColumnStore}).
     */
    private void append(final int rounds, final List<Path> before) throws IOException {
        final List<String> ways = new ArrayList<>(List.of("row API", "batch API"));
        if (!before.isEmpty()) {
            ways.add(0, "row API, earlier build");
        }
        final double[][] s = new double[ways.size()][rounds];
        out.print("| round |");
        ways.forEach(w -> out.print(" " + w + " s |"));
        out.println();
        out.print("|---:|");
        ways.forEach(w -> out.print("---:|"));
        out.println();
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < ways.size(); k++) {
                final int way = (k + r) % ways.size();
                final String name = ways.get(way);
                final Path dir = root.resolve("append-" + r + "-" + way);
                if (name.equals("row API, earlier build")) {
                    try (EarlierColumnStore store = EarlierColumnStore.open(before, dir, table)) {
                        final long start = System.nanoTime();
                        for (int i = 0; i < table.rows(); i++) {
                            store.append(table.row(i));
                        }
                        store.flush();
                        s[way][r] = seconds(start);
                    }
                } else {
                    try (ColumnStore store = ColumnStore.open(dir, table.schema(), table.projections(),
                            StoreKind.ldiOptions(1, 2.0))) {
                        s[way][r] = name.equals("batch API") ? loadBatches(store) : loadInto(store);
                    }
                }
                deleteTree(dir);
            }
            out.printf(Locale.ROOT, "| %d |", r + 1);
            for (double[] w : s) {
                out.printf(Locale.ROOT, " %.2f |", w[r]);
            }
            out.println();
        }
        out.print("| median |");
        final double batch = median(s[ways.size() - 1]);
        for (double[] w : s) {
            out.printf(Locale.ROOT, " %.2f (%,.0f rows/s) |", median(w), table.rows() / median(w));
        }
        out.println();
        out.println();
        for (int w = 0; w < ways.size() - 1; w++) {
            out.printf(Locale.ROOT, "batch API speedup over the %s: **%.2fx** (median of %d rounds; per round:",
                    ways.get(w), median(s[w]) / batch, rounds);
            for (int r = 0; r < rounds; r++) {
                out.printf(Locale.ROOT, " %.2fx", s[w][r] / s[ways.size() - 1][r]);
            }
            out.println(")");
        }
        out.println();
        final ColumnBatch b = ColumnBatch.allocate(table.schema(), BATCH_ROWS);
        final long start = System.nanoTime();
        long sink = 0;
        int from = 0;
        while (from < table.rows()) {
            from += table.fill(b, from);
            sink += b.rows();
        }
        final double fillOnly = seconds(start);
        if (sink != table.rows()) {
            throw new IllegalStateException("rows lost");
        }
        out.printf(Locale.ROOT, "Included above: making and checking the boxed rows alone %.2f s; filling the column"
                + " arrays alone %.2f s.%n%n", rowsOnly(), fillOnly);
    }

    private static double median(final double[] values) {
        final double[] s = values.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /**
     * A query over every row of the first projection, all its columns: materialised, then streamed by a cursor
     * (every value read), each after a full GC, with the heap's peak above what was live before.
     */
    private void stream() throws IOException {
        final Path dir = root.resolve("stream");
        try (ColumnStore store = ColumnStore.open(dir, table.schema(), table.projections(),
                StoreKind.ldiOptions(1, 2.0))) {
            loadBatches(store);
        }
        final Projection p = table.projections().get(0);
        final String[] columns = p.columns().toArray(String[]::new);
        out.printf(Locale.ROOT, "%s: all %,d rows, %d columns; heap peak above the live heap before the query "
                + "(max heap %,d MB)%n%n", p.name(), table.rows(), columns.length,
                Runtime.getRuntime().maxMemory() >> 20);
        out.println("| query | s | rows | heap peak MB | rows held at once |");
        out.println("|---|---:|---:|---:|---:|");
        try (ColumnStore store = ColumnStore.open(dir, table.schema(), table.projections(),
                StoreKind.ldiOptions(1, 2.0))) {
            long base = resetHeapPeak();
            long start = System.nanoTime();
            try {
                final QueryResult r = store.queryOrdered(p.name(), Long.MIN_VALUE, Long.MAX_VALUE, columns);
                out.printf(Locale.ROOT, "| materialised (query) | %.2f | %,d | %,d | %,d |%n", seconds(start),
                        r.size(), (heapPeak() - base) >> 20, r.size());
            } catch (OutOfMemoryError e) {
                out.printf(Locale.ROOT, "| materialised (query) | %.2f | OutOfMemoryError | | |%n", seconds(start));
            }
            base = resetHeapPeak();
            start = System.nanoTime();
            long n = 0;
            double sum = 0;
            try (RowCursor c = store.scanOrdered(p.name(), Long.MIN_VALUE, Long.MAX_VALUE, columns)) {
                final List<io.nearsort.ldi.projection.Column> types = c.columns();
                while (c.next()) {
                    for (int i = 0; i < types.size(); i++) {
                        sum += switch (types.get(i).type()) {
                            case LONG -> c.getLong(i);
                            case DOUBLE -> c.getDouble(i);
                            default -> c.getString(i).length();
                        };
                    }
                    n++;
                }
                out.printf(Locale.ROOT, "| streamed (scan, %,d-row window) | %.2f | %,d | %,d | %,d |%n",
                        StoreKind.ldiOptions(1, 2.0).cursorWindowRows(),
                        seconds(start), n, (heapPeak() - base) >> 20, c.peakRows());
            }
            if (n != table.rows() || Double.isNaN(sum)) {
                throw new IllegalStateException("streamed " + n + " rows of " + table.rows());
            }
        }
        out.println();
    }

    /**
     * Space reclamation: load (batch API, a commit after every tenth of the rows: each drains the main buffers into
     * non-compacted buckets) into a store of 8 MiB segments with background maintenance off, maintain every projection (its non-compacted buckets become dead bytes), commit, then reclaim every projection
     * while a second thread runs short range queries on the first; two more commits let the emptied segments go
     * (two commit points are retained). Reports bytes, times and the slowest query with and without reclamation.
     */
    private void reclaim() throws Exception {
        final Path dir = root.resolve("reclaim");
        final io.nearsort.ldi.projection.ColumnStoreOptions options = StoreKind.ldiOptions(1, 2.0).toBuilder()
                .segmentBytes(8L << 20).reclamation(0).build();
        try (ColumnStore store = ColumnStore.open(dir, table.schema(), table.projections(), options)) {
            loadBatches(store, Math.max(1, table.rows() / 10));
            store.flush(java.util.Map.of("step", "loaded"));
            long start = System.nanoTime();
            for (Projection p : table.projections()) {
                store.maintain(p.name());
            }
            store.flush(java.util.Map.of("step", "maintained"));
            out.printf(Locale.ROOT, "maintenance of every projection: %.2f s%n%n", seconds(start));
            out.println("| state | segment MB | live MB | dead MB | files | s |");
            out.println("|---|---:|---:|---:|---:|---:|");
            printSpace(store, "after maintenance (10 commits' buffers merged)", Double.NaN);
            final Projection first = table.projections().get(0);
            final long[] keys = table.keys(first.name()).clone();
            Arrays.sort(keys);
            slowestQuery(store, first, keys, () -> Thread.sleep(1000)); // warm-up
            final double quiet = slowestQuery(store, first, keys, () -> Thread.sleep(2000));
            final long[] moved = new long[1];
            start = System.nanoTime();
            final double busy = slowestQuery(store, first, keys, () -> {
                for (Projection p : table.projections()) {
                    moved[0] += store.reclaim(p.name(), 0.0).bucketsMoved();
                }
            });
            final double reclaimSeconds = seconds(start);
            printSpace(store, "after reclaim (copies done)", reclaimSeconds);
            start = System.nanoTime();
            store.flush(java.util.Map.of("step", "reclaimed"));
            store.flush(java.util.Map.of("step", "reclaimed, committed again"));
            printSpace(store, "two commits later (old segments deleted)", seconds(start));
            out.printf(Locale.ROOT, "%n%,d buckets copied. Short range queries (0.1%% of %s) on another thread: slowest"
                    + " %.1f ms while reclamation ran, %.1f ms over 2 s without it.%n%n", moved[0], first.name(),
                    busy, quiet);
        }
    }

    private void printSpace(final ColumnStore store, final String label, final double s) {
        final io.nearsort.ldi.projection.StoreStats st = store.stats();
        int files = 0;
        long segments = 0;
        for (io.nearsort.ldi.projection.ProjectionStats p : st.projections().values()) {
            files += p.segments();
            segments += p.dataBytes();
        }
        out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %d | %s |%n", label, segments / 1e6, st.liveBytes() / 1e6,
                st.deadBytes() / 1e6, files, Double.isNaN(s) ? "" : String.format(Locale.ROOT, "%.2f", s));
    }

    /** Work the main thread does while a second thread runs short queries; its slowest query, ms. */
    @FunctionalInterface
    private interface Work {
        void run() throws Exception;
    }

    private double slowestQuery(final ColumnStore store, final Projection p, final long[] sortedKeys,
                                final Work work) throws Exception {
        final java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        final double[] slowest = new double[1];
        final Thread reader = new Thread(() -> {
            final SplittableRandom rnd = new SplittableRandom(3);
            final int span = Math.max(1, sortedKeys.length / 1000);
            try {
                while (!stop.get()) {
                    final int from = rnd.nextInt(sortedKeys.length - span);
                    final long t = System.nanoTime();
                    store.queryOrdered(p.name(), sortedKeys[from], sortedKeys[from + span - 1], p.key());
                    slowest[0] = Math.max(slowest[0], (System.nanoTime() - t) / 1e6);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "reclaim-reader");
        reader.start();
        try {
            work.run();
        } finally {
            stop.set(true);
            reader.join();
        }
        return slowest[0];
    }

    /** Collects garbage, resets the heap pools' peaks; returns the heap used now. */
    private static long resetHeapPeak() {
        System.gc();
        long used = 0;
        for (java.lang.management.MemoryPoolMXBean pool : java.lang.management.ManagementFactory
                .getMemoryPoolMXBeans()) {
            if (pool.getType() == java.lang.management.MemoryType.HEAP) {
                pool.resetPeakUsage();
                used += pool.getUsage().getUsed();
            }
        }
        return used;
    }

    /** The heap pools' peaks since the last reset, summed. */
    private static long heapPeak() {
        long peak = 0;
        for (java.lang.management.MemoryPoolMXBean pool : java.lang.management.ManagementFactory
                .getMemoryPoolMXBeans()) {
            if (pool.getType() == java.lang.management.MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }

    /** Seconds to make and check every row without storing it: the part of each load time that is not the store's. */
    private double rowsOnly() {
        final TableLayout layout = new TableLayout(
                table.schema(), table.projections());
        long sink = 0;
        final long start = System.nanoTime();
        for (int i = 0; i < table.rows(); i++) {
            sink += layout.check(table.row(i)).length;
        }
        final double s = seconds(start);
        if (sink != (long) table.rows() * table.schema().size()) {
            throw new IllegalStateException("rows lost");
        }
        return s;
    }

    /** Bytes the store wrote: its files for LDI and Sorted_Col's final state plus every merge for the baselines. */
    private long bytesWritten(final ColumnarStore store, final double onDisk) {
        if (store instanceof BaselineStore b) {
            long sum = 0;
            for (Projection p : table.projections()) {
                sum += b.stats(p.name()).bytesWritten();
            }
            return sum;
        }
        return (long) onDisk;
    }

    /** Seconds to write {@code bytes} sequentially in 1 MiB requests and force them: the device's Write_MAX. */
    private double writeMax(final long bytes) throws IOException {
        return WriteMax.seconds(root, bytes);
    }

    /** One query of Table 6: a key range holding {@code selectivity} of the rows. */
    private record RangeQuery(String label, String projection, long lo, long hi, long expectedRows) {
    }

    private List<RangeQuery> queries(final Projection p, final double[] selectivities) {
        final long[] keys = table.keys(p.name());
        final long[] sorted = keys.clone();
        Arrays.sort(sorted);
        final SplittableRandom rnd = new SplittableRandom(p.name().hashCode());
        final List<RangeQuery> qs = new ArrayList<>();
        for (int q = 0; q < selectivities.length; q++) {
            final int span = (int) Math.round(selectivities[q] * sorted.length);
            for (int i = 0; i < POSITIONS; i++) {
                final int from = rnd.nextInt(Math.max(1, sorted.length - span));
                final long lo = sorted[from];
                final long hi = sorted[Math.min(sorted.length - 1, from + span - 1)];
                long expected = 0;
                for (long k : keys) {
                    expected += k >= lo && k <= hi ? 1 : 0;
                }
                qs.add(new RangeQuery("Q" + (q + 1), p.name(), lo, hi, expected));
            }
        }
        return qs;
    }

    /** Runs one query with every column of its projection; checks the answer's size. */
    private QueryResult run(final ColumnarStore store, final RangeQuery q) throws IOException {
        final Projection p = table.projections().stream().filter(x -> x.name().equals(q.projection())).findFirst()
                .orElseThrow();
        final String[] columns = p.columns().toArray(String[]::new);
        final QueryResult r = table.schema().column(p.key()).type() == ColumnType.LONG
                ? store.query(q.projection(), q.lo(), q.hi(), columns)
                : store.query(q.projection(), KeyCodec.toDouble(q.lo()), KeyCodec.toDouble(q.hi()), columns);
        if (r.size() != q.expectedRows()) {
            throw new IllegalStateException(q.label() + " on " + q.projection() + " returned " + r.size()
                    + " rows, expected " + q.expectedRows());
        }
        return r;
    }

    /** Milliseconds per query of each label, after one untimed warm-up pass. */
    private Map<String, Double> timeQueries(final ColumnarStore store, final List<RangeQuery> qs,
                                            final long[] scanned) throws IOException {
        // scanned: rows examined and returned over all queries, then over Q1's.
        for (RangeQuery q : qs) {
            run(store, q);
        }
        final Map<String, Double> ms = new LinkedHashMap<>();
        for (RangeQuery q : qs) {
            dropCaches();
            final long start = System.nanoTime();
            final QueryResult r = run(store, q);
            ms.merge(q.label(), (System.nanoTime() - start) / 1e6 / POSITIONS, Double::sum);
            scanned[0] += r.rowsScanned();
            scanned[1] += r.size();
            if (q.label().equals("Q1")) {
                scanned[2] += r.rowsScanned();
                scanned[3] += r.size();
            }
        }
        return ms;
    }

    private void query() throws Exception {
        final Map<String, ColumnarStore> stores = new LinkedHashMap<>();
        final Path ldiDir = root.resolve(StoreKind.LDI.name());
        try {
            for (StoreKind kind : StoreKind.values()) {
                final ColumnarStore s = kind.open(root.resolve(kind.name()), table);
                loadInto(s);
                if (kind == StoreKind.LDI) {
                    s.close();
                } else {
                    stores.put(kind.label, s);
                }
            }
            final double theta = calibrateTheta(ldiDir);
            stores.put("LDI", ColumnStore.open(ldiDir, table.schema(), table.projections(),
                    StoreKind.ldiOptions(1, theta)));
            // A store is opened by one ColumnStore at a time (its lock): LDI_Par reads a copy of LDI's files.
            final Path parDir = root.resolve("LDI_Par");
            copyStore(ldiDir, parDir);
            stores.put("LDI_Par (4 readers)", ColumnStore.open(parDir, table.schema(), table.projections(),
                    StoreKind.ldiOptions(4, theta)));
            for (Projection p : table.projections().subList(0, 2)) {
                final List<RangeQuery> qs = queries(p, SELECTIVITY);
                out.printf(Locale.ROOT, "%s (%d columns), ms per query (mean of %d positions):%n%n", p.name(),
                        p.columns().size(), POSITIONS);
                final Map<String, Map<String, Double>> byStore = new LinkedHashMap<>();
                final Map<String, long[]> scanned = new LinkedHashMap<>();
                for (Map.Entry<String, ColumnarStore> e : order(stores)) {
                    final long[] s = new long[4];
                    byStore.put(e.getKey(), timeQueries(e.getValue(), qs, s));
                    scanned.put(e.getKey(), s);
                }
                out.print("| query | selectivity |");
                byStore.keySet().forEach(k -> out.print(" " + k + " |"));
                out.println();
                out.print("|---|---:|");
                byStore.keySet().forEach(k -> out.print("---:|"));
                out.println();
                for (int q = 0; q < SELECTIVITY.length; q++) {
                    final String label = "Q" + (q + 1);
                    out.printf(Locale.ROOT, "| %s | %.1f%% |", label, SELECTIVITY[q] * 100);
                    byStore.values().forEach(m -> out.printf(Locale.ROOT, " %.1f |", m.get(label)));
                    out.println();
                }
                out.print("| rows scanned / returned, Q1 | |");
                scanned.values().forEach(s -> out.printf(Locale.ROOT, " %.2f |", (double) s[2] / s[3]));
                out.println();
                out.print("| rows scanned / returned, all | |");
                scanned.values().forEach(s -> out.printf(Locale.ROOT, " %.3f |", (double) s[0] / s[1]));
                out.println();
                out.println();
            }
        } finally {
            for (ColumnarStore s : stores.values()) {
                s.close();
            }
        }
    }

    private static List<Map.Entry<String, ColumnarStore>> order(final Map<String, ColumnarStore> stores) {
        final List<Map.Entry<String, ColumnarStore>> e = new ArrayList<>(stores.entrySet());
        e.sort(Comparator.comparing(x -> !x.getKey().startsWith("LDI")));
        return e;
    }

    private void threads() throws Exception {
        final Path dir = root.resolve(StoreKind.LDI.name());
        try (ColumnarStore s = StoreKind.LDI.open(dir, table)) {
            loadInto(s);
        }
        final double theta = calibrateTheta(dir);
        for (Projection p : table.projections().subList(0, 2)) {
            sweepReaders(dir, p, theta);
        }
    }

    private void sweepReaders(final Path dir, final Projection p, final double theta) throws Exception {
        final List<RangeQuery> qs = queries(p, Arrays.copyOfRange(SELECTIVITY, 4, 10));
        out.printf(Locale.ROOT, "%s, Q5–Q10 (%d queries), all %d columns; seconds per query set%n%n", p.name(),
                qs.size(), p.columns().size());
        out.println("| reader threads | 1 client s | 4 clients s | requests | de-duplicated | extents | single |");
        out.println("|---:|---:|---:|---:|---:|---:|---:|");
        for (int threads : new int[] {1, 2, 4, 8}) {
            try (ColumnStore store = ColumnStore.open(dir, table.schema(), table.projections(),
                    StoreKind.ldiOptions(threads, theta))) {
                for (RangeQuery q : qs) {
                    run(store, q);
                }
                long start = System.nanoTime();
                for (RangeQuery q : qs) {
                    dropCaches();
                    run(store, q);
                }
                final double one = seconds(start);
                dropCaches();
                final ExecutorService clients = Executors.newFixedThreadPool(4);
                start = System.nanoTime();
                final List<Future<?>> done = new ArrayList<>();
                for (int c = 0; c < 4; c++) {
                    done.add(clients.submit(() -> {
                        for (RangeQuery q : qs) {
                            run(store, q);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
                final double four = seconds(start);
                clients.shutdown();
                final IoStats io = store.ioStats();
                out.printf(Locale.ROOT, "| %d | %.3f | %.3f | %d | %d | %d | %d |%n", threads, one, four,
                        io.bucketRequests(), io.deduplicated(), io.extentReads(), io.singleReads());
            }
        }
        out.println();
    }

    /**
     * Eq. 8's θ measured on this device for groups of {@link StoreKind#THETA_GROUP} buckets of the first
     * projection's mean bucket size (the file read is fresh; with {@code --cold} the cache is dropped first).
     */
    private double calibrateTheta(final Path ldiDir) throws IOException {
        final String first = table.projections().get(0).name();
        final long bytes;
        final int buckets;
        try (ColumnStore s = ColumnStore.open(ldiDir, table.schema(), table.projections(),
                StoreKind.ldiOptions(1, 2.0))) {
            bytes = s.stats(first).liveBytes();
            buckets = s.stats(first).buckets();
        }
        final double theta = ThetaCalibration.measure(root, (int) (bytes / buckets), StoreKind.THETA_GROUP);
        out.printf(Locale.ROOT, "θ (Eq. 8) measured for groups of %d buckets of %,d bytes: %.2f%n%n",
                StoreKind.THETA_GROUP, bytes / buckets, theta);
        return theta;
    }

    /** Drops the OS page cache when {@code --cold} was given (Linux, root). */
    private void dropCaches() throws IOException {
        if (!cold) {
            return;
        }
        try {
            new ProcessBuilder("sync").inheritIO().start().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while syncing", e);
        }
        Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
    }

    private static long directoryBytes(final Path dir) throws IOException {
        long sum = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                sum += Files.size(f);
            }
        }
        return sum;
    }

    /** Copies a closed store's files (the lock file aside) into a new directory. */
    private static void copyStore(final Path from, final Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (!f.getFileName().toString().equals(io.nearsort.ldi.io.StoreLock.FILE)) {
                    Files.copy(f, to.resolve(f.getFileName()));
                }
            }
        }
    }

    private static void deleteTree(final Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path f : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    private static double seconds(final long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
