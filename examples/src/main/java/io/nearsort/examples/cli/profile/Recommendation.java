package io.nearsort.examples.cli.profile;

import io.nearsort.core.sortedness.SortednessReport;

import java.util.List;
import java.util.Locale;

/**
 * A SWARE configuration for a measured stream: the buffer capacity and the leaf split ratio, with the reasoning
 * in words.
 *
 * <p>Buffer: SWARE §IV keeps the buffer proportional to L (Fig. 19a), and every flush keeps the newest half of the
 * buffer (flushFraction 0.5; less only while late entries stop landing in it), so a buffer of 2·L entries still
 * holds the neighbours of an entry displaced by L when it arrives. It is never smaller than the papers' default of 1% of n (their buffer experiments, Fig. 14–15,
 * use 0.5–5%), rounded up to a power of two, at least {@link #MIN_BUFFER} and at most {@link #MAX_BUFFER}
 * entries. Split ratio: SWARE Table I, the normalised leaf splits per split ratio.
 *
 * @param bufferCapacity recommended {@code bufferCapacity(...)} in entries
 * @param splitRatio     recommended {@code splitRatio(...)}
 * @param reasons        one sentence per decision
 */
public record Recommendation(int bufferCapacity, double splitRatio, List<String> reasons) {
    /** Smallest recommended buffer: a handful of zones of a 4 KiB-page tree. */
    public static final int MIN_BUFFER = 1 << 12;
    /** Largest recommended buffer: 16M entries, about 280 MiB with Bloom filters. */
    public static final int MAX_BUFFER = 1 << 24;
    /** Off-heap bytes per buffered entry: key, value and 10 Bloom filter bits. */
    static final double BYTES_PER_BUFFERED_ENTRY = 16 + 10 / 8.0;

    /** The recommendation for a stream with this measurement. */
    public static Recommendation of(final SortednessReport report) {
        final SortednessClass sortedness = SortednessClass.of(report);
        final long onePercent = report.n() / 100;
        final long wanted;
        final String bufferReason;
        switch (sortedness) {
            case SORTED:
                wanted = MIN_BUFFER;
                bufferReason = "sorted input is bulk-appended zone by zone whatever the buffer size, so the "
                        + "smallest buffer does (or skip the buffer: Indexes.bPlusTree().tailLeafInserts(true) "
                        + "with a RunAppender)";
                break;
            case SCRAMBLED:
                wanted = onePercent;
                bufferReason = "a scrambled stream has no order for the buffer to capture (OSM-tree §5: "
                        + "ingestion falls back to the B+-tree's); a plain Indexes.bPlusTree() is as fast unless "
                        + "the tree outgrows the CPU caches (docs/benchmarks.md). If you buffer anyway, the papers' "
                        + "default of 1% of n keeps point reads cheap";
                break;
            default:
                wanted = Math.max(2 * report.l(), onePercent);
                bufferReason = String.format(Locale.ROOT, "L = %,d entries: flushes keep the newest half of the "
                        + "buffer, so 2L = %,d entries hold the neighbours of the latest entry until it arrives "
                        + "(SWARE §IV: buffer proportional to L); never below the papers' 1%% of n = %,d",
                        report.l(), 2 * report.l(), onePercent);
                break;
        }
        final int capacity = roundToBufferCapacity(wanted);
        final String capped = wanted > MAX_BUFFER
                ? String.format(Locale.ROOT, "; capped at %,d entries: entries displaced further become top-inserts",
                MAX_BUFFER)
                : "";
        final double splitRatio = sortedness == SortednessClass.SCRAMBLED ? 0.6 : 0.8;
        final String splitReason = sortedness == SortednessClass.SCRAMBLED
                ? "SWARE Table I, K=100% L=50%: 60:40 splits made the fewest leaf splits (0.94 of 50:50; 80:20 "
                + "made 1.27x and 90:10 1.82x as many)"
                : "SWARE Table I: 80:20 splits cut leaf splits to 0.79 of 50:50 on near-sorted data (90:10: 0.78) "
                + "and stay at 0.96 for K=20% L=10%, without 90:10's 1.82x penalty if the order degrades";
        final String adaptive = "the SA B+-tree splits at this ratio while flushes go past the tree's end and nearer "
                + "50:50 the more of a flush lands inside it (adaptiveSplitRatio, on by default)";
        final String memory = String.format(Locale.ROOT, "the buffer takes about %s off-heap",
                bytes(capacity * BYTES_PER_BUFFERED_ENTRY));
        return new Recommendation(capacity, splitRatio, List.of(bufferReason + capped, memory,
                splitReason + "; " + adaptive));
    }

    private static int roundToBufferCapacity(final long wanted) {
        final long bounded = Math.max(MIN_BUFFER, Math.min(MAX_BUFFER, wanted));
        return (int) Math.min(MAX_BUFFER, Long.highestOneBit(bounded - 1) << 1);
    }

    static String bytes(final double bytes) {
        if (bytes >= 1 << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", bytes / (1 << 30));
        }
        if (bytes >= 1 << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20));
        }
        return String.format(Locale.ROOT, "%.0f KiB", bytes / (1 << 10));
    }

    /** The builder call a user would write. */
    public String code() {
        return String.format(Locale.ROOT, "Indexes.saBPlusTree().bufferCapacity(%d).splitRatio(%.1f).build()",
                bufferCapacity, splitRatio);
    }
}
