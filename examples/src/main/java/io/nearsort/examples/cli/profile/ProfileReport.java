package io.nearsort.examples.cli.profile;

import io.nearsort.core.sortedness.SortednessReport;
import io.nearsort.examples.cli.keys.KeyFormat;

import java.io.PrintStream;
import java.util.Locale;

/**
 * What {@code nearsort profile} prints: one {@code name: value} line per figure (counts with thousands
 * separators, percentages of n in parentheses), so that people read it and scripts parse it.
 *
 * @param source   the input's name
 * @param format   its format
 * @param measured the (K,L) measurement or streaming estimate
 * @param gaps     gap statistics
 * @param window   the streaming window, or 0 for an exact measurement
 * @param outliers entries the streaming estimator saw arrive more than a window late (0 when exact)
 */
public record ProfileReport(String source, KeyFormat format, SortednessReport measured, GapStatistics gaps,
                            long window, long outliers) {

    public void print(final PrintStream out) {
        final SortednessReport r = measured;
        line(out, "source", source + " (" + format.description() + ")");
        line(out, "mode", window == 0 ? "exact (all keys in memory)"
                : String.format(Locale.ROOT, "streaming estimate, window %,d keys, %,d outliers (%s)", window,
                outliers, outliers == 0 ? "K and L are exact" : "K may be overestimated, L is a lower bound"));
        line(out, "entries", String.format(Locale.ROOT, "%,d", r.n()));
        line(out, "K", counted(r.k(), r.n()) + "  entries out of place");
        line(out, "L", counted(r.l(), r.n()) + "  largest displacement" + (outliers > 0
                ? " (at least: some entries arrived beyond the window)" : ""));
        line(out, "min removals", counted(r.minRemovals(), r.n()) + "  entries to remove to leave the rest sorted"
                + (window > 0 ? " (lower bound: exact within tumbling windows)" : ""));
        line(out, "ascending runs", String.format(Locale.ROOT, "%,d", r.runs()));
        line(out, "duplicates", counted(r.duplicates(), r.n()) + "  entries whose key occurred before");
        if (r.n() > 0) {
            line(out, "key range", gaps.minKey() + " .. " + gaps.maxKey() + String.format(Locale.ROOT,
                    " (%,d distinct)", gaps.distinct()));
            line(out, "gaps", gapLine());
        }
        final SortednessClass sortedness = SortednessClass.of(r);
        line(out, "class", sortedness.label() + "  (" + sortedness.rule() + ")");
        if (r.n() > 0) {
            final Recommendation recommendation = Recommendation.of(r);
            line(out, "recommendation", recommendation.code());
            for (final String reason : recommendation.reasons()) {
                out.println("  - " + reason);
            }
        }
    }

    private String gapLine() {
        if (gaps.distinct() < 2) {
            return "none (fewer than two distinct keys)";
        }
        if (!gaps.exact()) {
            return String.format(Locale.ROOT, "mean %.2f (min, median and max need the exact mode: drop --window)",
                    gaps.mean());
        }
        return String.format(Locale.ROOT, "min %s, median %s, mean %.2f, max %s%s", Long.toUnsignedString(gaps.min()),
                Long.toUnsignedString(gaps.median()), gaps.mean(), Long.toUnsignedString(gaps.max()),
                gaps.fixedWidth() ? "  (fixed width: generate --gaps fixed:" + Long.toUnsignedString(gaps.min()) + ")"
                        : "");
    }

    private static String counted(final long count, final long n) {
        return String.format(Locale.ROOT, "%,d (%.2f%%)", count, n == 0 ? 0.0 : 100.0 * count / n);
    }

    private static void line(final PrintStream out, final String name, final String value) {
        out.printf(Locale.ROOT, "%-16s %s%n", name + ":", value);
    }
}
