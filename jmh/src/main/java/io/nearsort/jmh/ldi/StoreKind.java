package io.nearsort.jmh.ldi;

import io.nearsort.ldi.baselines.LsmColumnStore;
import io.nearsort.ldi.baselines.MergePolicy;
import io.nearsort.ldi.baselines.SortedColumnStore;
import io.nearsort.ldi.projection.ColumnStore;
import io.nearsort.ldi.projection.ColumnStoreOptions;
import io.nearsort.ldi.projection.ColumnarStore;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The stores of §5, configured alike: LDI's buffer B and bucket n are the baselines' buffer and block; the LSM-like
 * stores merge with size ratio T.
 */
enum StoreKind {
    LDI("LDI"),
    LSM_LEVELED("Col_LSM-like leveled"),
    LSM_TIERED("Col_LSM-like tiered"),
    SORTED("Sorted_Col");

    static final int BUCKET_ROWS = 1024;
    static final int BUFFER_ROWS = 64 * BUCKET_ROWS;
    static final int RATIO = 4;

    final String label;

    StoreKind(final String label) {
        this.label = label;
    }

    /** The kinds named by {@code -Dldi.stores=LDI,SORTED,…} (always with LDI), all by default. */
    static java.util.List<StoreKind> selected() {
        final String names = System.getProperty("ldi.stores");
        if (names == null) {
            return java.util.List.of(values());
        }
        final java.util.Set<StoreKind> kinds = java.util.EnumSet.of(LDI);
        for (String n : names.split(",")) {
            kinds.add(valueOf(n.trim()));
        }
        return java.util.List.copyOf(kinds);
    }

    /** LDI without background maintenance (the paper's load measures LDI alone). */
    static ColumnStoreOptions ldiOptions(final int readers, final double theta) {
        return ColumnStoreOptions.builder().buckets(BUCKET_ROWS, BUFFER_ROWS).maintenance(0)
                .readers(readers, theta, THETA_GROUP).build();
    }

    /** g: θ is measured for groups of this many buckets. */
    static final int THETA_GROUP = 8;

    ColumnarStore open(final Path dir, final BenchTable t) throws IOException {
        return switch (this) {
            case LDI -> ColumnStore.open(dir, t.schema(), t.projections(), ldiOptions(1, 2.0));
            case LSM_LEVELED -> new LsmColumnStore(dir, t.schema(), t.projections(), MergePolicy.LEVELED,
                    BUFFER_ROWS, RATIO, BUCKET_ROWS);
            case LSM_TIERED -> new LsmColumnStore(dir, t.schema(), t.projections(), MergePolicy.TIERED,
                    BUFFER_ROWS, RATIO, BUCKET_ROWS);
            case SORTED -> new SortedColumnStore(dir, t.schema(), t.projections(), BUFFER_ROWS, BUCKET_ROWS);
        };
    }
}
