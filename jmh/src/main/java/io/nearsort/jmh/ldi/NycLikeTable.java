package io.nearsort.jmh.ldi;

import io.nearsort.ldi.projection.Column;
import io.nearsort.ldi.projection.ColumnBatch;
import io.nearsort.ldi.projection.KeyCodec;
import io.nearsort.ldi.projection.Projection;
import io.nearsort.ldi.projection.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A generated table shaped like the paper's NYC taxi projections (§5, Table 5): Projection1 has 29 columns indexed
 * on a trip ID that arrives nearly in order (5% of trips late by up to 1,000 positions), Projection2 4 columns on
 * trip_distance (log-normal, in arrival order unsorted), Projection3 5 columns on total_amount (a mixture around
 * fare levels). About 300 bytes per row, like the paper's 0.2 KB records plus strings.
 */
final class NycLikeTable extends BenchTable {
    private static final String[] VENDORS = {"CMT", "VTS", "DDS"};
    private static final String[] ZONES = {"JFK", "LGA", "MIDTOWN", "HARLEM", "SOHO", "ASTORIA", "BUSHWICK", "UES"};
    private static final String[] CARDS = {"VISA", "MC", "AMEX", "CASH"};
    private static final int P1_LONGS = 12;
    private static final int P1_DOUBLES = 14;

    private final int n;
    private final long[] id;
    private final long[][] p1Longs;
    private final double[][] p1Doubles;
    private final byte[] vendor;
    private final byte[] storeFlag;
    private final double[] distance;
    private final byte[] zoneFrom;
    private final byte[] zoneTo;
    private final double[] total;
    private final byte[] card;
    private final double[] surcharge;

    NycLikeTable(final int n, final long seed) {
        super("nyc-like", nycSchema(), nycProjections());
        this.n = n;
        final SplittableRandom rnd = new SplittableRandom(seed);
        id = new long[n];
        for (int i = 0; i < n; i++) {
            id[i] = 1_000_000L + i;
        }
        for (int i = 0; i < n; i++) {
            if (rnd.nextInt(20) == 0) {
                final int j = Math.min(n - 1, i + rnd.nextInt(1000));
                final long t = id[i];
                id[i] = id[j];
                id[j] = t;
            }
        }
        p1Longs = new long[P1_LONGS][n];
        p1Doubles = new double[P1_DOUBLES][n];
        vendor = new byte[n];
        storeFlag = new byte[n];
        distance = new double[n];
        zoneFrom = new byte[n];
        zoneTo = new byte[n];
        total = new double[n];
        card = new byte[n];
        surcharge = new double[n];
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < P1_LONGS; c++) {
                p1Longs[c][i] = c == 0 ? 1_500_000_000L + i * 7L : rnd.nextInt(c * 100 + 10);
            }
            for (int c = 0; c < P1_DOUBLES; c++) {
                p1Doubles[c][i] = Math.round(rnd.nextDouble() * (c + 1) * 1000) / 100.0;
            }
            vendor[i] = (byte) rnd.nextInt(VENDORS.length);
            storeFlag[i] = (byte) rnd.nextInt(2);
            distance[i] = Math.round(Math.exp(rnd.nextDouble() * 1.2 + rnd.nextDouble() * 1.2 - 0.5) * 100) / 100.0;
            zoneFrom[i] = (byte) rnd.nextInt(ZONES.length);
            zoneTo[i] = (byte) rnd.nextInt(ZONES.length);
            final double fare = rnd.nextInt(10) == 0 ? 52 + rnd.nextDouble() * 20 : 5 + distance[i] * 2.5;
            total[i] = Math.round((fare + rnd.nextDouble() * 6) * 100) / 100.0;
            card[i] = (byte) rnd.nextInt(CARDS.length);
            surcharge[i] = rnd.nextInt(4) * 0.5;
        }
    }

    /** Projection1's 29 columns: the trip id, two flags, 12 integer and 14 decimal measures. */
    private static List<String> projection1Columns() {
        final List<String> p1 = new ArrayList<>(List.of("id", "vendor", "store_flag"));
        for (int c = 0; c < P1_LONGS; c++) {
            p1.add("l" + c);
        }
        for (int c = 0; c < P1_DOUBLES; c++) {
            p1.add("d" + c);
        }
        return p1;
    }

    /** The 38 columns, projection1's first. */
    private static Schema nycSchema() {
        final List<Column> cols = new ArrayList<>();
        for (String name : projection1Columns()) {
            cols.add(switch (name) {
                case "id" -> Column.longColumn(name);
                case "vendor" -> Column.fixedString(name, 3);
                case "store_flag" -> Column.fixedString(name, 1);
                default -> name.startsWith("l") ? Column.longColumn(name) : Column.doubleColumn(name);
            });
        }
        cols.add(Column.doubleColumn("trip_distance"));
        cols.add(Column.doubleColumn("distance_km"));
        cols.add(Column.fixedString("zone_from", 8));
        cols.add(Column.fixedString("zone_to", 8));
        cols.add(Column.doubleColumn("total_amount"));
        cols.add(Column.fixedString("currency", 3));
        cols.add(Column.fixedString("card", 4));
        cols.add(Column.doubleColumn("surcharge"));
        cols.add(Column.longColumn("total_cents"));
        return Schema.of(cols);
    }

    private static List<Projection> nycProjections() {
        return List.of(new Projection("projection1", "id", projection1Columns()),
                Projection.of("projection2", "trip_distance", "trip_distance", "distance_km", "zone_from",
                        "zone_to"),
                Projection.of("projection3", "total_amount", "total_amount", "currency", "card", "surcharge",
                        "total_cents"));
    }

    @Override
    int rows() {
        return n;
    }

    @Override
    Object[] row(final int i) {
        final Object[] r = new Object[schema().size()];
        int c = 0;
        r[c++] = id[i];
        r[c++] = VENDORS[vendor[i]];
        r[c++] = storeFlag[i] == 0 ? "N" : "Y";
        for (long[] col : p1Longs) {
            r[c++] = col[i];
        }
        for (double[] col : p1Doubles) {
            r[c++] = col[i];
        }
        r[c++] = distance[i];
        r[c++] = distance[i] * 1.609;
        r[c++] = ZONES[zoneFrom[i]];
        r[c++] = ZONES[zoneTo[i]];
        r[c++] = total[i];
        r[c++] = "USD";
        r[c++] = CARDS[card[i]];
        r[c++] = surcharge[i];
        r[c] = Math.round(total[i] * 100);
        return r;
    }

    @Override
    int fill(final ColumnBatch b, final int from) {
        final int n = Math.min(b.capacity(), this.n - from);
        int c = 0;
        System.arraycopy(id, from, (long[]) b.column(c++), 0, n);
        final String[] vendors = (String[]) b.column(c++);
        final String[] flags = (String[]) b.column(c++);
        for (int i = 0; i < n; i++) {
            vendors[i] = VENDORS[vendor[from + i]];
            flags[i] = storeFlag[from + i] == 0 ? "N" : "Y";
        }
        for (long[] col : p1Longs) {
            System.arraycopy(col, from, (long[]) b.column(c++), 0, n);
        }
        for (double[] col : p1Doubles) {
            System.arraycopy(col, from, (double[]) b.column(c++), 0, n);
        }
        System.arraycopy(distance, from, (double[]) b.column(c++), 0, n);
        final double[] km = (double[]) b.column(c++);
        final String[] zf = (String[]) b.column(c++);
        final String[] zt = (String[]) b.column(c++);
        for (int i = 0; i < n; i++) {
            km[i] = distance[from + i] * 1.609;
            zf[i] = ZONES[zoneFrom[from + i]];
            zt[i] = ZONES[zoneTo[from + i]];
        }
        System.arraycopy(total, from, (double[]) b.column(c++), 0, n);
        final String[] currency = (String[]) b.column(c++);
        final String[] cards = (String[]) b.column(c++);
        final double[] sur = (double[]) b.column(c++);
        final long[] cents = (long[]) b.column(c);
        for (int i = 0; i < n; i++) {
            currency[i] = "USD";
            cards[i] = CARDS[card[from + i]];
            sur[i] = surcharge[from + i];
            cents[i] = Math.round(total[from + i] * 100);
        }
        b.rows(n);
        return n;
    }

    @Override
    long[] keys(final String projection) {
        final long[] k = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = switch (projection) {
                case "projection1" -> id[i];
                case "projection2" -> KeyCodec.ofDouble(distance[i]);
                case "projection3" -> KeyCodec.ofDouble(total[i]);
                default -> throw new IllegalArgumentException("no projection " + projection);
            };
        }
        return k;
    }
}
