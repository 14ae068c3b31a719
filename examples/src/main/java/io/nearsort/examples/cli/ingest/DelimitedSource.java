package io.nearsort.examples.cli.ingest;

import io.nearsort.examples.cli.keys.MalformedInputException;
import io.nearsort.ldi.projection.ColumnBatch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows of CSV or TSV files, typed by a {@link TableSpec} given on the command line or by each file's header line
 * ({@code id:long,v:double,note:string}). Fields are separated by the delimiter; in CSV (a comma delimiter) a field
 * may be quoted with {@code "}, a quote inside doubled. Empty lines are skipped. A malformed line — the wrong number
 * of fields, a value its type does not accept, an unterminated quote — stops the read with a
 * {@link MalformedInputException} naming {@code file:line}, or, when a rejects writer is given, is written there as
 * {@code file:line<TAB>reason<TAB>line} and skipped.
 */
public final class DelimitedSource implements BatchSource {
    private final List<String> inputs;
    private final InputStream stdin;
    private final char delimiter;
    private final boolean skipHeader;
    private final Writer rejects;
    private final boolean typedHeaders;
    private TableSpec table;
    private long total;
    private long done;
    private long rejected;
    private int next;
    private BufferedReader reader;
    private String current;
    private long line;
    private final List<String> fields = new ArrayList<>();

    /**
     * @param inputs     files, {@code -} for standard input
     * @param table      the columns, or null to read them from each file's typed header line
     * @param delimiter  the field separator
     * @param skipHeader with a {@code table}: the first line of each file is a header to skip
     * @param rejects    where malformed lines go, or null to stop at the first
     */
    public DelimitedSource(final List<String> inputs, final InputStream stdin, final TableSpec table,
                           final char delimiter, final boolean skipHeader, final Writer rejects) throws IOException {
        this.inputs = List.copyOf(inputs);
        this.stdin = stdin;
        this.table = table;
        this.delimiter = delimiter;
        this.skipHeader = skipHeader;
        this.rejects = rejects;
        this.typedHeaders = table == null;
        for (String in : inputs) {
            if (!in.equals("-")) {
                final Path p = Path.of(in);
                if (!Files.isRegularFile(p)) {
                    throw new NoSuchFileException(in, null, "no such file");
                }
                total += Files.size(p);
            } else {
                total = -1;
            }
        }
        if (typedHeaders) {
            openNext(); // reads the first header, so the table is known before the store is opened
        }
    }

    @Override
    public TableSpec table() {
        return table;
    }

    private boolean openNext() throws IOException {
        if (reader != null) {
            reader.close();
            reader = null;
        }
        if (next == inputs.size()) {
            return false;
        }
        current = inputs.get(next++);
        reader = new BufferedReader(new InputStreamReader(current.equals("-") ? stdin
                : Files.newInputStream(Path.of(current)), StandardCharsets.UTF_8), 1 << 16);
        line = 0;
        if (typedHeaders) {
            readHeader();
        } else if (skipHeader) {
            nextLine();
        }
        return true;
    }

    private void readHeader() throws IOException {
        final String header = nextLine();
        if (header == null) {
            throw new MalformedInputException(current + ": empty, expected a header line such as"
                    + " id:long,v:double,note:string");
        }
        final TableSpec found;
        try {
            found = TableSpec.parse(String.join(",", split(header)));
        } catch (IllegalArgumentException e) {
            throw new MalformedInputException(current + ":1: the header line must name and type every column"
                    + " (name:type; or give --schema): " + e.getMessage());
        }
        if (table == null) {
            table = found;
        } else if (!table.equals(found)) {
            throw new MalformedInputException(current + ":1: header " + found + " differs from the first file's "
                    + table);
        }
    }

    private String nextLine() throws IOException {
        final String s = reader.readLine();
        if (s != null) {
            line++;
            done += s.length() + 1;
        }
        return s;
    }

    private List<String> split(final String s) {
        if (!splitInto(s)) {
            throw new MalformedInputException(current + ":" + line + ": unterminated quote");
        }
        return fields;
    }

    /** Splits {@code s} into {@link #fields}; false on an unterminated quote. */
    private boolean splitInto(final String s) {
        fields.clear();
        final boolean quotes = delimiter == ',';
        final StringBuilder field = new StringBuilder();
        int i = 0;
        while (true) {
            field.setLength(0);
            if (quotes && i < s.length() && s.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i >= s.length()) {
                        return false;
                    }
                    final char c = s.charAt(i++);
                    if (c == '"') {
                        if (i < s.length() && s.charAt(i) == '"') {
                            field.append('"');
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        field.append(c);
                    }
                }
                fields.add(field.toString());
                if (i == s.length()) {
                    return true;
                }
                if (s.charAt(i) != delimiter) {
                    fields.add(null); // text after a closing quote: reported as a malformed field
                    return true;
                }
                i++;
            } else {
                final int end = s.indexOf(delimiter, i);
                if (end < 0) {
                    fields.add(s.substring(i));
                    return true;
                }
                fields.add(s.substring(i, end));
                i = end + 1;
            }
        }
    }

    @Override
    public boolean fill(final ColumnBatch batch) throws IOException {
        batch.clear();
        if (reader == null && !openNext()) {
            return false;
        }
        final int columns = table.names().size();
        final Object[] arrays = new Object[columns];
        for (int c = 0; c < columns; c++) {
            arrays[c] = batch.column(c);
        }
        int n = 0;
        while (n < batch.capacity()) {
            final String s = nextLine();
            if (s == null) {
                if (!openNext()) {
                    break;
                }
                continue;
            }
            if (s.isEmpty()) {
                continue;
            }
            final String problem = parse(s, arrays, n);
            if (problem == null) {
                n++;
            } else if (rejects != null) {
                rejected++;
                rejects.write(current + ":" + line + "\t" + problem + "\t" + s + "\n");
            } else {
                throw new MalformedInputException(current + ":" + line + ": " + problem
                        + " (--rejects FILE sets such lines aside instead)");
            }
        }
        batch.rows(n);
        return n > 0;
    }

    /** Parses one line into row {@code n} of the batch's arrays; returns what is wrong with it, or null. */
    private String parse(final String s, final Object[] arrays, final int n) {
        if (!splitInto(s)) {
            return "unterminated quote";
        }
        final int columns = table.names().size();
        if (fields.size() != columns) {
            return "expected " + columns + " fields, found " + fields.size();
        }
        for (int c = 0; c < columns; c++) {
            final FieldType type = table.types().get(c);
            final String text = fields.get(c);
            if (text == null) {
                return "column " + table.names().get(c) + ": text after a closing quote";
            }
            try {
                switch (type.kind()) {
                    case LONG, DATE -> ((long[]) arrays[c])[n] = type.parseLong(text);
                    case DOUBLE -> ((double[]) arrays[c])[n] = type.parseDouble(text);
                    case STRING -> ((String[]) arrays[c])[n] = text;
                    case FIXED_STRING -> {
                        final int bytes = text.getBytes(StandardCharsets.UTF_8).length;
                        if (bytes > type.width() || text.indexOf('\0') >= 0) {
                            return "column " + table.names().get(c) + ": '" + text + "' is " + bytes
                                    + " UTF-8 bytes, over its string(" + type.width() + ")";
                        }
                        ((String[]) arrays[c])[n] = text;
                    }
                    default -> throw new AssertionError(type);
                }
            } catch (IllegalArgumentException e) {
                return "column " + table.names().get(c) + ": " + e.getMessage();
            }
        }
        return null;
    }

    @Override
    public long done() {
        return done;
    }

    @Override
    public long total() {
        return total;
    }

    @Override
    public String unit() {
        return "bytes";
    }

    @Override
    public long rejected() {
        return rejected;
    }

    @Override
    public String description() {
        return String.join(",", inputs);
    }

    @Override
    public void close() throws IOException {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
