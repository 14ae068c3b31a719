package io.nearsort.examples.cli.ingest;

import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.Projection;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;

import java.util.Iterator;
import java.util.List;

/**
 * TPC-H {@code lineitem} generated in process ({@code io.trino.tpch} 1.2), in generation order: the 16 columns, dates
 * as days since 1970-01-01, and the default projections of {@code nearsort ingest --tpch lineitem:SF}:
 * {@code by_order} (6 columns, keyed on l_orderkey, which arrives sorted), {@code by_shipdate} (5 columns, keyed on
 * the date l_shipdate, spread over seven years in every order) and {@code by_price} (5 columns, keyed on
 * l_extendedprice, a double in no order). The LDI experiments of the {@code jmh} module load the same table.
 */
public final class Lineitem implements BatchSource {
    /** The columns, in the generator's order. */
    public static final TableSpec TABLE = TableSpec.parse("l_orderkey:long,l_partkey:long,l_suppkey:long,"
            + "l_linenumber:long,l_quantity:long,l_extendedprice:double,l_discount:double,l_tax:double,"
            + "l_returnflag:string(1),l_linestatus:string(1),l_shipdate:date,l_commitdate:date,l_receiptdate:date,"
            + "l_shipinstruct:string(25),l_shipmode:string(10),l_comment:string");
    /** The default projections. */
    public static final List<Projection> PROJECTIONS = List.of(
            TableSpec.projection("by_order=l_orderkey,l_partkey,l_suppkey,l_linenumber,l_quantity,l_comment"),
            TableSpec.projection("by_shipdate=l_shipdate,l_commitdate,l_receiptdate,l_shipinstruct,l_shipmode"),
            TableSpec.projection("by_price=l_extendedprice,l_discount,l_tax,l_returnflag,l_linestatus"));
    /** Rows of lineitem at scale factor 1 (about). */
    private static final long ROWS_PER_SF = 6_001_215L;

    private final double scaleFactor;
    private final Iterator<LineItem> items;
    private long done;

    /** The table at {@code scaleFactor} (for example 0.01: about 60,000 rows). */
    public Lineitem(final double scaleFactor) {
        if (!(scaleFactor > 0 && scaleFactor <= 1000)) {
            throw new IllegalArgumentException("the scale factor must be in (0, 1000] (got: " + scaleFactor + ")");
        }
        this.scaleFactor = scaleFactor;
        this.items = new LineItemGenerator(scaleFactor, 1, 1).iterator();
    }

    @Override
    public TableSpec table() {
        return TABLE;
    }

    @Override
    public boolean fill(final ColumnBatch b) {
        int n = 0;
        final long[] orderKey = (long[]) b.column(0);
        final long[] partKey = (long[]) b.column(1);
        final long[] suppKey = (long[]) b.column(2);
        final long[] lineNumber = (long[]) b.column(3);
        final long[] quantity = (long[]) b.column(4);
        final double[] price = (double[]) b.column(5);
        final double[] discount = (double[]) b.column(6);
        final double[] tax = (double[]) b.column(7);
        final String[] returnFlag = (String[]) b.column(8);
        final String[] status = (String[]) b.column(9);
        final long[] shipDate = (long[]) b.column(10);
        final long[] commitDate = (long[]) b.column(11);
        final long[] receiptDate = (long[]) b.column(12);
        final String[] instruct = (String[]) b.column(13);
        final String[] mode = (String[]) b.column(14);
        final String[] comment = (String[]) b.column(15);
        while (n < b.capacity() && items.hasNext()) {
            final LineItem l = items.next();
            orderKey[n] = l.getOrderKey();
            partKey[n] = l.getPartKey();
            suppKey[n] = l.getSupplierKey();
            lineNumber[n] = l.getLineNumber();
            quantity[n] = l.getQuantity();
            price[n] = l.getExtendedPrice();
            discount[n] = l.getDiscount();
            tax[n] = l.getTax();
            returnFlag[n] = l.getReturnFlag();
            status[n] = l.getStatus();
            shipDate[n] = l.getShipDate();
            commitDate[n] = l.getCommitDate();
            receiptDate[n] = l.getReceiptDate();
            instruct[n] = l.getShipInstructions();
            mode[n] = l.getShipMode();
            comment[n] = l.getComment();
            n++;
        }
        b.rows(n);
        done += n;
        return n > 0;
    }

    @Override
    public long done() {
        return done;
    }

    @Override
    public long total() {
        return Math.round(ROWS_PER_SF * scaleFactor);
    }

    @Override
    public String unit() {
        return "rows";
    }

    @Override
    public long rejected() {
        return 0;
    }

    @Override
    public String description() {
        return "TPC-H lineitem SF " + scaleFactor;
    }

    @Override
    public void close() {
        // Generated in memory: nothing to release.
    }
}
