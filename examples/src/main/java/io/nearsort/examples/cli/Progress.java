package io.nearsort.examples.cli;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.time.Duration;

/**
 * A progress bar on standard error for work that takes longer than a few seconds, drawn only when a terminal is
 * attached: the bar appears once {@link #DELAY} has passed, so short tasks print nothing. Not thread-safe.
 */
public final class Progress implements AutoCloseable {
    /** Work shorter than this shows no bar. */
    static final Duration DELAY = Duration.ofSeconds(2);

    private final String task;
    private final long max;
    private final String unit;
    private final boolean enabled;
    private final long startNanos = System.nanoTime();
    private ProgressBar bar;
    private long current;

    private Progress(final String task, final long max, final String unit, final boolean enabled) {
        this.task = task;
        this.max = max;
        this.unit = unit;
        this.enabled = enabled;
    }

    /** A progress over {@code max} steps (or unknown when {@code max} is negative), shown if {@code io} is a terminal. */
    public static Progress start(final Io io, final String task, final long max, final String unit) {
        return new Progress(task, max, unit, io.interactive());
    }

    /** Advances by {@code steps}. */
    public void stepBy(final long steps) {
        current += steps;
        if (!enabled) {
            return;
        }
        if (bar == null && System.nanoTime() - startNanos >= DELAY.toNanos()) {
            bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(max).setUnit(" " + unit, 1)
                    .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250)
                    .startsFrom(0, Duration.ofNanos(System.nanoTime() - startNanos)).build();
        }
        if (bar != null) {
            bar.stepTo(current);
        }
    }

    /** Advances by one. */
    public void step() {
        stepBy(1);
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
