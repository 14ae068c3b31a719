package io.nearsort.jmh.ldi;

import io.nearsort.examples.cli.ingest.Lineitem;
import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.KeyCodec;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;

import java.util.ArrayList;
import java.util.List;

/**
 * TPC-H {@code lineitem} at a scale factor, generated in process ({@code io.trino.tpch}), in generation order,
 * with the schema and projections of {@code nearsort ingest --tpch} ({@link Lineitem}): {@code by_order} (6 columns,
 * keyed on l_orderkey, which arrives sorted), {@code by_shipdate} (5 columns, keyed on l_shipdate, days since 1970,
 * spread over seven years in every order) and {@code by_price} (5 columns, keyed on l_extendedprice, in no order).
 */
final class LineitemTable extends BenchTable {
    private final List<LineItem> items = new ArrayList<>();

    LineitemTable(final double scaleFactor) {
        super("lineitem SF " + scaleFactor, Lineitem.TABLE.schema(), Lineitem.PROJECTIONS);
        for (LineItem item : new LineItemGenerator(scaleFactor, 1, 1)) {
            items.add(item);
        }
    }

    @Override
    int rows() {
        return items.size();
    }

    @Override
    Object[] row(final int i) {
        final LineItem l = items.get(i);
        return new Object[] {l.getOrderKey(), l.getPartKey(), l.getSupplierKey(), (long) l.getLineNumber(),
            l.getQuantity(), l.getExtendedPrice(), l.getDiscount(), l.getTax(), l.getReturnFlag(), l.getStatus(),
            (long) l.getShipDate(), (long) l.getCommitDate(), (long) l.getReceiptDate(), l.getShipInstructions(),
            l.getShipMode(), l.getComment()};
    }

    @Override
    int fill(final ColumnBatch b, final int from) {
        final int n = Math.min(b.capacity(), items.size() - from);
        final Object[] row = new Object[schema().size()];
        for (int i = 0; i < n; i++) {
            final Object[] r = row(from + i);
            for (int c = 0; c < row.length; c++) {
                final Object column = b.column(c);
                if (column instanceof long[] l) {
                    l[i] = (Long) r[c];
                } else if (column instanceof double[] d) {
                    d[i] = (Double) r[c];
                } else {
                    ((String[]) column)[i] = (String) r[c];
                }
            }
        }
        b.rows(n);
        return n;
    }

    @Override
    long[] keys(final String projection) {
        final long[] k = new long[items.size()];
        for (int i = 0; i < k.length; i++) {
            final LineItem l = items.get(i);
            k[i] = switch (projection) {
                case "by_order" -> l.getOrderKey();
                case "by_shipdate" -> l.getShipDate();
                case "by_price" -> KeyCodec.ofDouble(l.getExtendedPrice());
                default -> throw new IllegalArgumentException("no projection " + projection);
            };
        }
        return k;
    }
}
