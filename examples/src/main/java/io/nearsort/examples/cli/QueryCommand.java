package io.nearsort.examples.cli;

import io.nearsort.ldi.projection.Aggregate;
import io.nearsort.ldi.projection.Column;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import io.nearsort.ldi.projection.ColumnType;
import io.nearsort.ldi.projection.KeyCodec;
import io.nearsort.ldi.projection.ProjectionLayout;
import io.nearsort.ldi.projection.ProjectionStats;
import io.nearsort.ldi.projection.RowCursor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code nearsort query}: an exact range query on one projection of an LDI column store, streamed in key order in
 * bounded memory, or its count/sum/min/max; {@code --list-projections} lists what the store holds.
 */
@Command(name = "query", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Prints the rows of --projection whose key lies in --range LO HI (inclusive), in key order, "
                + "streamed: a range of any size runs in bounded memory. With --agg, prints the count, sum, min or "
                + "max of --columns over the range instead.",
            "Bounds are numbers, min or max, or for a long key also dates (yyyy-mm-dd: days since 1970-01-01, as "
                + "ingest stores date columns). Output is tab-separated with a header line, or CSV with --csv; the "
                + "count of rows goes to standard error.",
            "The store is opened exclusively: not while an ingest writes to it (the error says which process "
                + "holds it)."},
        footerHeading = "%nExamples:%n",
        footer = {"  nearsort query --dir store/lineitem --list-projections",
            "  nearsort query --dir store/lineitem --projection by_shipdate --range 1995-03-01 1995-03-07 "
                + "--columns l_shipdate,l_shipmode --csv",
            "  nearsort query --dir store/lineitem --projection by_price --range 1000 2000 --agg sum --columns l_tax",
            "  nearsort query --dir store/lineitem --projection by_order --range min max --agg count"})
final class QueryCommand extends NearsortMain.Subcommand {
    @Option(names = "--dir", paramLabel = "STORE", required = true, description = "the store's directory")
    Path dir;

    @Option(names = "--list-projections", description = "list the projections, one a line, name first")
    boolean list;

    @Option(names = "--projection", paramLabel = "P", description = "the projection to query")
    String projection;

    @Option(names = "--range", arity = "2", paramLabel = "BOUND", description = "LO HI, inclusive")
    List<String> range;

    @Option(names = "--columns", split = ",", paramLabel = "COL",
            description = "columns to print or aggregate (default: all of the projection's)")
    List<String> columns;

    @Option(names = "--agg", paramLabel = "count|sum|min|max", description = "aggregate instead of listing rows")
    String agg;

    @Option(names = "--csv", description = "print CSV (RFC 4180 quoting) instead of tab-separated text")
    boolean csv;

    @Option(names = "--row-ids", description = "print each row's id (its position in the ingest order) first")
    boolean rowIds;

    @Option(names = "--limit", paramLabel = "N", converter = Counts.class, defaultValue = "-1",
            description = "print at most the first N rows (in key order)")
    long limit;

    @Override
    public Integer call() throws IOException {
        if (list == (projection != null)) {
            throw badArgument(list ? "--list-projections lists them all; it takes no --projection"
                    : "give --projection P (and --range LO HI), or --list-projections");
        }
        if (list && (range != null || agg != null || columns != null)) {
            throw badArgument("--list-projections takes no --range, --columns or --agg");
        }
        if (!list && range == null) {
            throw badArgument("--projection needs --range LO HI (min and max for everything)");
        }
        if (agg != null && !List.of("count", "sum", "min", "max").contains(agg)) {
            throw badArgument("--agg must be count, sum, min or max (got: '" + agg + "')");
        }
        if (agg != null && (csv || rowIds || limit >= 0)) {
            throw badArgument("--agg prints one value per column; it takes no --csv, --row-ids or --limit");
        }
        if (limit < -1) {
            throw badArgument("--limit must be a number of rows (got: " + limit + ")");
        }
        // A query never commits, and the store trims its commit points (and deletes the segments only they refer to)
        // only when it commits, so a sink's rollback targets survive a query whatever is asked here; asking for the
        // most a store may retain keeps every retained commit visible to the opened store too.
        try (ColumnStore store = ColumnStore.open(dir, ColumnStoreOptions.builder().commitOnClose(false)
                .retainedCommits(10_000).build())) {
            if (list) {
                return list(store);
            }
            final ProjectionLayout p;
            try {
                p = store.layout().projection(projection);
            } catch (IllegalArgumentException e) {
                throw badArgument("--projection: " + e.getMessage());
            }
            final List<String> names = columns != null ? columns : p.projection().columns();
            try {
                p.positions(names.toArray(String[]::new));
            } catch (IllegalArgumentException e) {
                throw badArgument("--columns: " + e.getMessage());
            }
            final long lo = bound(p, range.get(0), true);
            final long hi = bound(p, range.get(1), false);
            if (lo > hi) {
                throw badArgument("--range: LO " + range.get(0) + " is above HI " + range.get(1));
            }
            return agg != null ? aggregate(store, p, lo, hi, names) : rows(store, p, lo, hi, names);
        }
    }

    private int list(final ColumnStore store) {
        final PrintStream out = io().out();
        for (ProjectionLayout p : store.layout().projections()) {
            final ProjectionStats s = store.stats(p.name());
            out.printf(Locale.ROOT, "%s\tkey %s (%s)\tcolumns %s\trows %d\tbuckets %d\tbytes %d%n", p.name(),
                    p.projection().key(), p.keyType(), String.join(",", p.projection().columns()), store.rows(),
                    s.buckets(), s.liveBytes());
        }
        return NearsortMain.OK;
    }

    /** A bound as the ordered long key of projection {@code p}. */
    private long bound(final ProjectionLayout p, final String text, final boolean low) {
        final String t = text.strip();
        final boolean doubles = p.keyType() == ColumnType.DOUBLE;
        if (t.equals("min")) {
            return doubles ? KeyCodec.ofDouble(Double.NEGATIVE_INFINITY) : Long.MIN_VALUE;
        }
        if (t.equals("max")) {
            return doubles ? KeyCodec.ofDouble(Double.POSITIVE_INFINITY) : Long.MAX_VALUE;
        }
        try {
            if (doubles) {
                final double d = Double.parseDouble(t);
                if (Double.isNaN(d)) {
                    throw new NumberFormatException();
                }
                return KeyCodec.ofDouble(d);
            }
            if (t.length() == 10 && t.charAt(4) == '-' && t.charAt(7) == '-') {
                return LocalDate.parse(t).toEpochDay();
            }
            return Long.parseLong(t);
        } catch (NumberFormatException | DateTimeParseException e) {
            throw badArgument("--range: '" + text + "' is not a " + (doubles ? "number" : "long integer or date "
                    + "(yyyy-mm-dd)") + ", min or max (the key " + p.projection().key() + " is " + p.keyType()
                    + "; " + (low ? "LO" : "HI") + ")");
        }
    }

    private int rows(final ColumnStore store, final ProjectionLayout p, final long lo, final long hi,
                     final List<String> names) throws IOException {
        final PrintStream out = io().out();
        final char sep = csv ? ',' : '\t';
        final StringBuilder line = new StringBuilder();
        if (rowIds) {
            line.append("row_id").append(sep);
        }
        for (int c = 0; c < names.size(); c++) {
            line.append(c == 0 ? "" : String.valueOf(sep)).append(field(names.get(c)));
        }
        out.println(line);
        final long start = System.nanoTime();
        long n = 0;
        try (RowCursor cursor = store.scanOrdered(p.name(), lo, hi, names.toArray(String[]::new))) {
            final List<Column> types = cursor.columns();
            while ((limit < 0 || n < limit) && cursor.next()) {
                line.setLength(0);
                if (rowIds) {
                    line.append(cursor.rowId()).append(sep);
                }
                for (int c = 0; c < types.size(); c++) {
                    if (c > 0) {
                        line.append(sep);
                    }
                    switch (types.get(c).type()) {
                        case LONG -> line.append(cursor.getLong(c));
                        case DOUBLE -> line.append(cursor.getDouble(c));
                        default -> line.append(field(cursor.getString(c)));
                    }
                }
                out.println(line);
                n++;
            }
            io().err().printf(Locale.ROOT, "nearsort query: %,d rows of %s in [%s, %s] in %.3f s (%,d bucket reads,"
                    + " %,d passes)%n", n, p.name(), range.get(0), range.get(1), (System.nanoTime() - start) / 1e9,
                    cursor.bucketsRead(), cursor.passes());
        }
        return NearsortMain.OK;
    }

    /** A text field as the output format writes it: CSV quotes when needed; tabs and newlines escaped in text. */
    private String field(final String s) {
        if (csv) {
            if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
                return '"' + s.replace("\"", "\"\"") + '"';
            }
            return s;
        }
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n");
    }

    private int aggregate(final ColumnStore store, final ProjectionLayout p, final long lo, final long hi,
                          final List<String> names) throws IOException {
        final PrintStream out = io().out();
        if (agg.equals("count")) {
            final Aggregate a = store.aggregateOrdered(p.name(), lo, hi, p.projection().key());
            out.println("count\t" + a.count());
            return NearsortMain.OK;
        }
        if (columns == null) {
            throw badArgument("--agg " + agg + " needs --columns (numeric columns of " + p.name() + ")");
        }
        final List<String> lines = new ArrayList<>();
        for (String name : names) {
            final Column c = p.columns().get(p.positions(name)[0]);
            if (c.type() != ColumnType.LONG && c.type() != ColumnType.DOUBLE) {
                throw badArgument("--agg " + agg + ": column " + name + " is " + c.type() + ", not a number");
            }
            final Aggregate a = store.aggregateOrdered(p.name(), lo, hi, name);
            final double v = switch (agg) {
                case "sum" -> a.sum();
                case "min" -> a.min();
                default -> a.max();
            };
            lines.add(agg + "(" + name + ")\t" + number(v, c.type()) + "\t(" + a.count() + " rows)");
        }
        lines.forEach(out::println);
        return NearsortMain.OK;
    }

    /** A LONG column's aggregate as an integer when it is one exactly; a double otherwise. */
    private static String number(final double v, final ColumnType type) {
        if (type == ColumnType.LONG && v == Math.rint(v) && Math.abs(v) < 0x1p53) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }
}
