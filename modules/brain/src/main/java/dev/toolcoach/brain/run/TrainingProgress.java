package dev.toolcoach.brain.run;

import java.util.Locale;
import java.util.function.Consumer;

/** The training progress bar: learner steps, with version, reward, accuracy, the informative share of sampled groups and rollouts/s. */
public final class TrainingProgress implements Consumer<StepLine>, AutoCloseable {
    private final ConsoleProgress.Bar bar;
    private final long stepsBefore;

    /**
     * @param totalSteps  the job's steps
     * @param stepsBefore steps already done when this display starts (a resumed job)
     */
    public TrainingProgress(ConsoleProgress console, String what, long totalSteps, long stepsBefore) {
        this.stepsBefore = stepsBefore;
        this.bar = console.bar(what, totalSteps, "steps", stepsBefore);
    }

    @Override
    public void accept(StepLine line) {
        bar.bar().stepTo(Math.max(line.step(), stepsBefore));
        // the sampled rollouts' figures: the kept groups' leave out the groups dynamic sampling dropped, all right mostly
        bar.bar().setExtraMessage(String.format(Locale.ROOT, " v%d reward %.3f acc %.0f%% informative %.0f%% %.1f rollouts/s",
                line.version(), line.sampledMeanReward(), 100 * line.sampledAccuracy(), 100 * line.informativeFraction(),
                line.rolloutsPerSec()));
    }

    @Override
    public void close() {
        bar.close();
    }
}
