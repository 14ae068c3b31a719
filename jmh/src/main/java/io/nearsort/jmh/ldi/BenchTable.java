package io.nearsort.jmh.ldi;

import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.Schema;

import java.util.List;

/** A table held in memory column by column, appended row by row to every store the experiments compare. */
interface BenchTable {
    String name();

    Schema schema();

    /** Three projections, shaped like the paper's (§5: 29, 4 and 5 columns for NYC). */
    List<Projection> projections();

    int rows();

    /** Row {@code i}, values in schema order (boxed on demand, the same cost for every store). */
    Object[] row(int i);

    /** The ordered keys of {@code projection} (as the stores order them), in arrival order. */
    long[] keys(String projection);
}
