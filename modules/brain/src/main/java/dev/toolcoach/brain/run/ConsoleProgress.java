package dev.toolcoach.brain.run;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.text.DecimalFormat;
import java.time.Duration;

/**
 * Progress on a console stream, each piece of work as a progress bar with elapsed time, rate and ETA. On a terminal
 * the bar redraws in place; otherwise (a log file, a pipe, CI) it is printed as a line every {@link #LINE_INTERVAL} and
 * once more when the work ends, so a log shows each phase without a line per update.
 */
public final class ConsoleProgress implements Progress {
    /** How often a bar is printed as a line when the stream is not a terminal. */
    public static final Duration LINE_INTERVAL = Duration.ofSeconds(30);

    private final String task;
    private final PrintStream out;
    private final boolean terminal;

    /**
     * @param task     names the job in every bar ({@code [finance] evaluate ...})
     * @param terminal redraw in place; else print lines
     */
    public ConsoleProgress(String task, PrintStream out, boolean terminal) {
        this.task = task;
        this.out = out;
        this.terminal = terminal;
    }

    /**
     * Whether the process's console streams are a terminal. Java sees only whether standard input and output are
     * (a console), which is also the answer for standard error unless only that one is redirected.
     */
    public static boolean onTerminal() {
        return System.console() != null && !"dumb".equals(System.getenv("TERM"));
    }

    /** Prints a line among the bars: on a terminal it takes the place of the bar being drawn, which redraws below it. */
    public void println(String line) {
        out.println(terminal ? "\r\033[K" + line : line);
    }

    @Override
    public Meter start(String what, long total, String unit) {
        Bar bar = bar(what, total, unit, 0);
        return new Meter() {
            @Override
            public void step() {
                bar.bar().step();
            }

            @Override
            public void close() {
                bar.close();
            }
        };
    }

    /** A progress bar and, off a terminal, the lines it prints. */
    record Bar(ProgressBar bar, Lines lines) {
        void close() {
            if (lines != null) lines.closing = true;
            bar.close();
        }
    }

    /** A bar for {@code what} of {@code total} units, {@code done} of them done before, drawn as this stream needs. */
    Bar bar(String what, long total, String unit, long done) {
        ProgressBarBuilder b = new ProgressBarBuilder().setTaskName("[" + task + "] " + what).setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).setUnit(" " + unit, 1).showSpeed(new DecimalFormat("0.0"))
                .startsFrom(done, Duration.ZERO);
        if (terminal) return new Bar(b.setConsumer(new ConsoleProgressBarConsumer(out)).build(), null);
        Lines lines = new Lines(out);
        ProgressBar bar = b.setConsumer(lines).setUpdateIntervalMillis((int) LINE_INTERVAL.toMillis()).build();
        lines.bar = bar;
        return new Bar(bar, lines);
    }

    /**
     * Prints each rendering as a line, except one equal to the last, and a finished bar only once it is closed (a
     * rendering scheduled before the work ended may come after it: without this the end would show twice).
     */
    static final class Lines implements ProgressBarConsumer {
        private final PrintStream out;
        private String last;
        volatile ProgressBar bar;
        volatile boolean closing;

        Lines(PrintStream out) {
            this.out = out;
        }

        @Override
        public synchronized void accept(String rendered) {
            ProgressBar b = bar;
            boolean finished = b != null && b.getMax() > 0 && b.getCurrent() >= b.getMax();
            if (rendered.equals(last) || (finished && !closing)) return;
            last = rendered;
            out.println(rendered);
        }

        @Override
        public int getMaxRenderedLength() {
            return 160;
        }

        @Override
        public void close() {
            out.flush();
        }
    }
}
