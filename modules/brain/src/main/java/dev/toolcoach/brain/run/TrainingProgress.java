package dev.toolcoach.brain.run;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;

/** The training progress bar on a terminal stream: learner steps, with version, reward, accuracy and rollouts/s. */
public final class TrainingProgress implements Consumer<StepLine>, AutoCloseable {
    private final ProgressBar bar;
    private final long stepsBefore;

    /**
     * @param totalSteps  the job's steps
     * @param stepsBefore steps already done when this display starts (a resumed job)
     */
    public TrainingProgress(String task, long totalSteps, long stepsBefore, PrintStream out) {
        this.stepsBefore = stepsBefore;
        this.bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(totalSteps).startsFrom(stepsBefore, Duration.ZERO)
                .setStyle(ProgressBarStyle.ASCII).setConsumer(new ConsoleProgressBarConsumer(out))
                .setUnit(" steps", 1).showSpeed().build();
    }

    @Override
    public void accept(StepLine line) {
        bar.stepTo(Math.max(line.step(), stepsBefore));
        bar.setExtraMessage(String.format(Locale.ROOT, "v%d reward %.3f acc %.0f%% %.1f rollouts/s",
                line.version(), line.meanReward(), 100 * line.accuracy(), line.rolloutsPerSec()));
    }

    @Override
    public void close() {
        bar.close();
    }
}
