package io.nearsort.examples.cli.ingest;

import io.nearsort.ldi.projection.ColumnBatch;

import java.io.IOException;

/** Rows for {@code nearsort ingest}, a column batch at a time. Not thread-safe. */
public interface BatchSource extends AutoCloseable {
    /** The columns the rows have. */
    TableSpec table();

    /** Refills {@code batch} with up to its capacity of rows; false when there were none left. */
    boolean fill(ColumnBatch batch) throws IOException;

    /** Progress so far, in {@link #unit()}s. */
    long done();

    /** The total in {@link #unit()}s, or -1 when unknown. */
    long total();

    /** What {@link #done()} counts: "bytes" or "rows". */
    String unit();

    /** Lines rejected as malformed so far (sent to the rejects file). */
    long rejected();

    /** The inputs, for the summary and the commit's metadata. */
    String description();

    @Override
    void close() throws IOException;
}
