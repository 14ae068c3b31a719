package io.nearsort.jmh.ldi;

import io.nearsort.ldi.projection.Column;
import io.nearsort.ldi.projection.KeyCodec;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.Schema;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;

import java.util.ArrayList;
import java.util.List;

/**
 * TPC-H {@code lineitem} at a scale factor, generated in process ({@code io.trino.tpch}), in generation order:
 * {@code by_order} (6 columns, keyed on l_orderkey, which arrives sorted), {@code by_shipdate} (5 columns, keyed on
 * l_shipdate, days since 1970, spread over seven years in every order) and {@code by_price} (5 columns, keyed on
 * l_extendedprice, in no order).
 */
final class LineitemTable extends BenchTable {
    private static final Schema SCHEMA = Schema.of(Column.longColumn("l_orderkey"), Column.longColumn("l_partkey"),
            Column.longColumn("l_suppkey"), Column.longColumn("l_linenumber"), Column.longColumn("l_quantity"),
            Column.doubleColumn("l_extendedprice"), Column.doubleColumn("l_discount"), Column.doubleColumn("l_tax"),
            Column.fixedString("l_returnflag", 1), Column.fixedString("l_linestatus", 1),
            Column.longColumn("l_shipdate"), Column.longColumn("l_commitdate"), Column.longColumn("l_receiptdate"),
            Column.fixedString("l_shipinstruct", 25), Column.fixedString("l_shipmode", 10),
            Column.varString("l_comment"));
    private static final List<Projection> PROJECTIONS = List.of(
            Projection.of("by_order", "l_orderkey", "l_orderkey", "l_partkey", "l_suppkey", "l_linenumber",
                    "l_quantity", "l_comment"),
            Projection.of("by_shipdate", "l_shipdate", "l_shipdate", "l_commitdate", "l_receiptdate",
                    "l_shipinstruct", "l_shipmode"),
            Projection.of("by_price", "l_extendedprice", "l_extendedprice", "l_discount", "l_tax", "l_returnflag",
                    "l_linestatus"));
    private final List<LineItem> items = new ArrayList<>();

    LineitemTable(final double scaleFactor) {
        super("lineitem SF " + scaleFactor, SCHEMA, PROJECTIONS);
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
