package io.nearsort.examples.cli.ingest;

import io.nearsort.examples.cli.Io;
import io.nearsort.examples.cli.chart.SpeedupCharts;
import io.nearsort.ldi.baselines.BaselineStore;
import io.nearsort.ldi.baselines.LsmColumnStore;
import io.nearsort.ldi.baselines.MergePolicy;
import io.nearsort.ldi.baselines.SortedColumnStore;
import io.nearsort.ldi.io.WriteMax;
import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import io.nearsort.ldi.projection.ColumnType;
import io.nearsort.ldi.projection.ColumnarStore;
import io.nearsort.ldi.projection.KeyCodec;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.QueryResult;
import io.nearsort.ldi.projection.Schema;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * {@code nearsort ingest --compare}: the LDI paper's §5 side by side on the user's rows. The rows are read into
 * memory once, then loaded into LDI through its column batches, LDI through its row API, Col_LSM-like leveled and
 * tiered and Sorted_Col — the baselines have a row API only, so they and the second LDI box every value. Each load
 * ends with a flush that forces the files (Sorted_Col's is its clustering). Loads run in rounds, the stores in a
 * rotated order each round, and the median counts; the last round's stores are kept for the queries (its LDI store
 * in {@code --dir}, the others in temporary directories deleted afterwards). Then range queries of Table 6's
 * selectivities at several positions run on the first two projections of every store, warm, in the same rounds
 * with the stores rotated (medians), each answer's size checked against a count of the keys; times go to a table
 * and two PNG charts.
 */
public final class CompareRun {
    /** A subset of Table 6's selectivities. */
    static final double[] SELECTIVITY = {0.003, 0.015, 0.05, 0.15};
    private static final int BUCKET_ROWS = 1024;
    private static final int BUFFER_ROWS = 64 * BUCKET_ROWS;
    private static final int RATIO = 4;

    private final Io io;
    private final BatchSource source;
    private final List<Projection> projections;
    private final Path dir;
    private final int batchRows;
    private final int positions;
    private final int rounds;
    private final Path chart;

    public CompareRun(final Io io, final BatchSource source, final List<Projection> projections, final Path dir,
                      final int batchRows, final int positions, final int rounds, final Path chart) {
        this.io = io;
        this.source = source;
        this.projections = projections;
        this.dir = dir;
        this.batchRows = batchRows;
        this.positions = positions;
        this.rounds = rounds;
        this.chart = chart;
    }

    /** One store of the comparison. */
    private record Entry(String label, ColumnarStore store, Path dir, double loadSeconds, long bytesWritten) {
    }

    /** A range query of some selectivity, with the rows it must return. */
    private record RangeQuery(String projection, String label, long lo, long hi, long expected) {
    }

    public int run() throws IOException {
        final PrintStream out = io.out();
        final Schema schema = source.table().schema();
        final List<ColumnBatch> batches = new ArrayList<>();
        long rows = 0;
        final long readStart = System.nanoTime();
        while (true) {
            final ColumnBatch b = ColumnBatch.allocate(schema, batchRows);
            if (!source.fill(b)) {
                break;
            }
            batches.add(b);
            rows += b.rows();
        }
        out.printf(Locale.ROOT, "nearsort ingest --compare: %s, %,d rows read into memory in %.1f s; buckets and "
                + "blocks of %,d rows, buffers of %,d rows, LSM size ratio %d%n%n", source.description(), rows,
                (System.nanoTime() - readStart) / 1e9, BUCKET_ROWS, BUFFER_ROWS, RATIO);
        final Path scratch = Files.createTempDirectory(createParent(dir), "ingest-compare");
        final List<String> kinds = List.of("LDI", "LDI (row API)", "Col_LSM-like leveled", "Col_LSM-like tiered",
                "Sorted_Col");
        final double[][] seconds = new double[kinds.size()][rounds];
        final List<Entry> entries = new ArrayList<>();
        try {
            for (int r = 0; r < rounds; r++) {
                final boolean last = r == rounds - 1;
                for (int i = 0; i < kinds.size(); i++) {
                    final int k = (i + r) % kinds.size();
                    final Path where = k == 0 && last ? dir : scratch.resolve("round" + r + "-" + k);
                    final Entry e = load(kinds.get(k), open(k, where), where, batches, k == 0);
                    seconds[k][r] = e.loadSeconds();
                    if (last) {
                        entries.add(e);
                    } else {
                        e.store().close();
                        deleteTree(where);
                    }
                }
            }
            entries.sort(Comparator.comparingInt(e -> kinds.indexOf(e.label())));
            final List<Entry> medians = new ArrayList<>();
            for (int k = 0; k < kinds.size(); k++) {
                final double[] s = seconds[k].clone();
                Arrays.sort(s);
                final Entry e = entries.get(k);
                medians.add(new Entry(e.label(), e.store(), e.dir(), s[s.length / 2], e.bytesWritten()));
            }
            final double writeMax = WriteMax.estimate(scratch, entries.get(0).bytesWritten());
            printLoads(out, medians, rows, writeMax);
            queries(out, entries, batches);
        } finally {
            for (Entry e : entries) {
                e.store().close();
            }
            deleteTree(scratch);
        }
        return 0;
    }

    private ColumnarStore open(final int kind, final Path where) throws IOException {
        final Schema schema = source.table().schema();
        return switch (kind) {
            case 0, 1 -> ldi(where);
            case 2 -> new LsmColumnStore(where, schema, projections, MergePolicy.LEVELED, BUFFER_ROWS, RATIO,
                    BUCKET_ROWS);
            case 3 -> new LsmColumnStore(where, schema, projections, MergePolicy.TIERED, BUFFER_ROWS, RATIO,
                    BUCKET_ROWS);
            default -> new SortedColumnStore(where, schema, projections, BUFFER_ROWS, BUCKET_ROWS);
        };
    }

    private static Path createParent(final Path dir) throws IOException {
        final Path parent = dir.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        return parent;
    }

    private ColumnStore ldi(final Path where) throws IOException {
        return ColumnStore.open(where, source.table().schema(), projections, ColumnStoreOptions.builder()
                .buckets(BUCKET_ROWS, BUFFER_ROWS).maintenance(0).build());
    }

    /** Loads every row and flushes; the time includes the flush. */
    private Entry load(final String label, final ColumnarStore store, final Path where,
                       final List<ColumnBatch> batches, final boolean columnar) throws IOException {
        final long start = System.nanoTime();
        final Object[] row = new Object[source.table().names().size()];
        for (ColumnBatch b : batches) {
            if (columnar) {
                ((ColumnStore) store).append(b);
                continue;
            }
            for (int i = 0; i < b.rows(); i++) {
                for (int c = 0; c < row.length; c++) {
                    final Object column = b.column(c);
                    row[c] = column instanceof long[] l ? (Object) l[i]
                            : column instanceof double[] d ? (Object) d[i] : ((String[]) column)[i];
                }
                store.append(row);
            }
        }
        store.flush();
        final double seconds = (System.nanoTime() - start) / 1e9;
        long written = 0;
        if (store instanceof BaselineStore base) {
            for (Projection p : projections) {
                written += base.stats(p.name()).bytesWritten();
            }
        } else {
            written = directoryBytes(where);
        }
        io.err().printf(Locale.ROOT, "  loaded %s in %.2f s%n", label, seconds);
        if (columnar && !(store instanceof ColumnStore)) {
            throw new IllegalStateException("only LDI takes column batches");
        }
        return new Entry(label, store, where, seconds, written);
    }

    private void printLoads(final PrintStream out, final List<Entry> entries, final long rows,
                            final double writeMax) throws IOException {
        out.printf(Locale.ROOT, "Loading (Figures 7-8): every row, then a flush that forces the files; median of %d"
                + " round(s), the order of the stores rotated each round%n", rounds);
        out.println();
        out.printf(Locale.ROOT, "%-22s %9s %12s %12s %12s %9s%n", "store", "load s", "rows/s", "MB written",
                "x Write_MAX", "x LDI");
        final double ldi = entries.get(0).loadSeconds();
        for (Entry e : entries) {
            out.printf(Locale.ROOT, "%-22s %9.2f %,12.0f %12.1f %12.2f %9.2f%n", e.label(), e.loadSeconds(),
                    rows / e.loadSeconds(), e.bytesWritten() / 1e6, e.loadSeconds() / writeMax,
                    e.loadSeconds() / ldi);
        }
        out.printf(Locale.ROOT, "%-22s %9.2f %12s %12.1f %12.2f %9.2f%n", "Write_MAX (LDI's bytes)", writeMax, "",
                entries.get(0).bytesWritten() / 1e6, 1.0, writeMax / ldi);
        out.printf(Locale.ROOT, "Write_MAX: LDI's bytes at this disk's sequential write speed, %.0f MB/s, measured now"
                + " (forced) on %d MiB or more%n", entries.get(0).bytesWritten() / 1e6 / writeMax,
                WriteMax.MIN_PROBE_BYTES >> 20);
        out.println();
        final List<String> labels = new ArrayList<>();
        final double[][] seconds = new double[1][entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            labels.add(entries.get(i).label());
            seconds[0][i] = entries.get(i).loadSeconds();
        }
        SpeedupCharts.bars(String.format(Locale.ROOT, "Load time, %s (%,d rows); Write_MAX %.2f s",
                source.description(), rows, writeMax), "store", "seconds (lower is better)", "0.00", labels,
                List.of("load"), seconds, chart);
    }

    private void queries(final PrintStream out, final List<Entry> entries, final List<ColumnBatch> batches)
            throws IOException {
        final List<Projection> queried = projections.subList(0, Math.min(2, projections.size()));
        final List<String> categories = new ArrayList<>();
        final double[][] ms = new double[entries.size()][queried.size() * SELECTIVITY.length];
        out.printf(Locale.ROOT, "Range queries (Figure 9): ms per query, mean of %d positions, warm, every column of"
                + " the projection, median of %d rounds (stores rotated); every answer's size checked%n%n", positions,
                rounds);
        out.printf(Locale.ROOT, "%-14s %11s", "projection", "selectivity");
        entries.forEach(e -> out.printf(Locale.ROOT, " %22s", e.label()));
        out.println();
        int column = 0;
        for (Projection p : queried) {
            final String[] columns = p.columns().toArray(String[]::new);
            for (double sel : SELECTIVITY) {
                final List<RangeQuery> qs = rangeQueries(p, sel, batches);
                categories.add(p.name() + " " + percent(sel));
                out.printf(Locale.ROOT, "%-14s %11s", p.name(), percent(sel));
                for (Entry e : entries) {
                    for (RangeQuery q : qs) {
                        check(e.store(), q, columns); // warm-up, and the answer checked
                    }
                }
                final double[][] perRound = new double[entries.size()][rounds];
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < entries.size(); i++) {
                        final int s = (i + r) % entries.size();
                        final long start = System.nanoTime();
                        for (RangeQuery q : qs) {
                            check(entries.get(s).store(), q, columns);
                        }
                        perRound[s][r] = (System.nanoTime() - start) / 1e6 / qs.size();
                    }
                }
                for (int s = 0; s < entries.size(); s++) {
                    Arrays.sort(perRound[s]);
                    ms[s][column] = perRound[s][rounds / 2];
                    out.printf(Locale.ROOT, " %22.2f", ms[s][column]);
                }
                out.println();
                column++;
            }
        }
        out.println();
        final List<String> labels = new ArrayList<>();
        entries.forEach(e -> labels.add(e.label()));
        final Path queryChart = queryChart();
        SpeedupCharts.bars("Range queries, " + source.description() + " (ms per query, warm)",
                "projection and selectivity", "ms per query (lower is better)", "0.0", categories, labels, ms,
                queryChart);
        out.println("Charts written to " + chart + " and " + queryChart);
    }

    /** FILE.png's sibling FILE-query.png. */
    Path queryChart() {
        final String name = chart.getFileName().toString();
        final int dot = name.lastIndexOf('.');
        final String query = dot > 0 ? name.substring(0, dot) + "-query" + name.substring(dot) : name + "-query";
        return chart.resolveSibling(query);
    }

    private static String percent(final double sel) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * sel);
    }

    private static void check(final ColumnarStore store, final RangeQuery q, final String[] columns)
            throws IOException {
        final QueryResult r = store.queryOrdered(q.projection(), q.lo(), q.hi(), columns);
        if (r.size() != q.expected()) {
            throw new IllegalStateException(q.projection() + " [" + q.lo() + ", " + q.hi() + "] returned " + r.size()
                    + " rows, a count of the keys says " + q.expected());
        }
    }

    /** Ranges holding about {@code selectivity} of the rows, at {@link #positions} random places. */
    private List<RangeQuery> rangeQueries(final Projection p, final double selectivity,
                                          final List<ColumnBatch> batches) {
        final int keyColumn = source.table().names().indexOf(p.key());
        final boolean doubles = source.table().schema().columns().get(keyColumn).type() == ColumnType.DOUBLE;
        int n = 0;
        for (ColumnBatch b : batches) {
            n += b.rows();
        }
        final long[] keys = new long[n];
        int at = 0;
        for (ColumnBatch b : batches) {
            for (int i = 0; i < b.rows(); i++) {
                keys[at++] = doubles ? KeyCodec.ofDouble(((double[]) b.column(keyColumn))[i])
                        : ((long[]) b.column(keyColumn))[i];
            }
        }
        final long[] sorted = keys.clone();
        Arrays.sort(sorted);
        final SplittableRandom rnd = new SplittableRandom(p.name().hashCode() * 31L + Double.hashCode(selectivity));
        final int span = Math.max(1, (int) Math.round(selectivity * n));
        final List<RangeQuery> qs = new ArrayList<>();
        for (int i = 0; i < positions && n > 0; i++) {
            final int from = rnd.nextInt(Math.max(1, n - span));
            final long lo = sorted[from];
            final long hi = sorted[Math.min(n - 1, from + span - 1)];
            long expected = 0;
            for (long k : keys) {
                expected += k >= lo && k <= hi ? 1 : 0;
            }
            qs.add(new RangeQuery(p.name(), percent(selectivity), lo, hi, expected));
        }
        return qs;
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

    private static void deleteTree(final Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path f : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
