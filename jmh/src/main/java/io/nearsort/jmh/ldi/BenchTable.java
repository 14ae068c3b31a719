package io.nearsort.jmh.ldi;

import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.Schema;

import java.util.List;

/** A table held in memory column by column, appended row by row to every store the experiments compare. */
abstract class BenchTable {
    private final String name;
    private final Schema schema;
    private final List<Projection> projections;

    BenchTable(final String name, final Schema schema, final List<Projection> projections) {
        this.name = name;
        this.schema = schema;
        this.projections = projections;
    }

    final String name() {
        return name;
    }

    final Schema schema() {
        return schema;
    }

    /** Three projections, shaped like the paper's (§5: 29, 4 and 5 columns for NYC). */
    final List<Projection> projections() {
        return projections;
    }

    abstract int rows();

    /** Row {@code i}, values in schema order (boxed on demand, the same cost for every store). */
    abstract Object[] row(int i);

    /**
     * Fills {@code batch} with rows {@code from .. from + n - 1} column-wise (no boxing), {@code n} as many as fit and
     * remain; returns n.
     */
    abstract int fill(ColumnBatch batch, int from);

    /** The ordered keys of {@code projection} (as the stores order them), in arrival order. */
    abstract long[] keys(String projection);
}
