package io.nearsort.examples.cli.chart;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PNG charts (XChart, rendered headless): a K x L heat map and a speedup-over-K line chart for the bench grid (the
 * OSM-tree §5 grid), grouped bars of speedups for a few workloads (the demo) and of load and query times (ingest
 * --compare, the LDI paper's Figures 7–9). Directories are created as needed.
 */
public final class SpeedupCharts {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private SpeedupCharts() {
    }

    /**
     * A heat map with K% across and L% up; {@code speedups[l][k]} is the cell, NaN where nothing ran.
     */
    public static void heatMap(final String title, final double[] kPercents, final double[] lPercents,
                               final double[][] speedups, final Path png) throws IOException {
        final HeatMapChart chart = new HeatMapChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("K (% of entries out of place)").yAxisTitle("L (% of n, largest displacement)").build();
        final List<String> xs = labels(kPercents);
        final List<String> ys = labels(lPercents);
        final List<Number[]> cells = new ArrayList<>();
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (int l = 0; l < lPercents.length; l++) {
            for (int k = 0; k < kPercents.length; k++) {
                final double value = speedups[l][k];
                if (!Double.isNaN(value)) {
                    cells.add(new Number[] {k, l, Math.round(value * 100) / 100.0});
                    min = Math.min(min, value);
                    max = Math.max(max, value);
                }
            }
        }
        // A range symmetric around 1.0 puts white exactly at "as fast as the baseline".
        final double spread = Math.ceil(100 * Math.max(Math.max(1.0 - min, max - 1.0), 0.01)) / 100;
        chart.getStyler().setShowValue(true).setMin(1.0 - spread).setMax(1.0 + spread)
                .setRangeColors(new Color[] {new Color(0xD7301F), Color.WHITE, new Color(0x238B45)})
                .setHeatMapValueDecimalPattern("0.00'x'");
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.addSeries("speedup", xs, ys, cells);
        save(chart, png);
    }

    /** One line per L% over K%; {@code speedups[l][k]}, NaN where nothing ran. */
    public static void lines(final String title, final double[] kPercents, final double[] lPercents,
                             final double[][] speedups, final Path png) throws IOException {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("K (% of entries out of place)").yAxisTitle("speedup over the baseline (x)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        for (int l = 0; l < lPercents.length; l++) {
            final List<Double> xs = new ArrayList<>();
            final List<Double> ys = new ArrayList<>();
            for (int k = 0; k < kPercents.length; k++) {
                if (!Double.isNaN(speedups[l][k])) {
                    xs.add(kPercents[k]);
                    ys.add(speedups[l][k]);
                }
            }
            if (!xs.isEmpty()) {
                chart.addSeries("L=" + label(lPercents[l]) + "%", xs, ys);
            }
        }
        save(chart, png);
    }

    /** Grouped bars: one group per workload, one bar per structure; {@code speedups[structure][workload]}. */
    public static void bars(final String title, final List<String> workloads, final List<String> structures,
                            final double[][] speedups, final Path png) throws IOException {
        bars(title, "workload", "speedup over the baseline (x)", "0.00", workloads, structures, speedups, png);
    }

    /**
     * Grouped bars of any measure: one group per category, one bar per series; {@code values[series][category]},
     * labelled with {@code pattern} (a {@link java.text.DecimalFormat} pattern).
     */
    public static void bars(final String title, final String xTitle, final String yTitle, final String pattern,
                            final List<String> categories, final List<String> series, final double[][] values,
                            final Path png) throws IOException {
        final CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLabelsVisible(true).setDecimalPattern(pattern);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        if (categories.size() > 6) {
            chart.getStyler().setXAxisLabelRotation(30);
        }
        for (int s = 0; s < series.size(); s++) {
            final List<Double> bars = new ArrayList<>();
            for (final double value : values[s]) {
                bars.add(value);
            }
            chart.addSeries(series.get(s), categories, bars);
        }
        save(chart, png);
    }

    private static void save(final Chart<?, ?> chart, final Path png) throws IOException {
        final Path parent = png.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream out = Files.newOutputStream(png)) {
            if (!ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", out)) {
                throw new IOException("no PNG writer in this JVM (javax.imageio)");
            }
        }
    }

    private static List<String> labels(final double[] percents) {
        final List<String> labels = new ArrayList<>();
        for (final double percent : percents) {
            labels.add(label(percent) + "%");
        }
        return labels;
    }

    private static String label(final double percent) {
        return percent == Math.rint(percent) ? Long.toString((long) percent) : String.format(Locale.ROOT, "%s", percent);
    }
}
